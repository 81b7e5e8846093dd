import { useState } from 'react';
import { inspect } from '../../app/inspector';
import { useAddressToken } from '../../app/useAddressToken';
import { OperatorActor } from './operators.context';
import { OperatorScreens } from './OperatorScreens';

/** The enrolment link's token: the whole fragment (`/operador/alta#<token>`). */
const tokenOf = (fragment: string) => fragment || null;

/** /operador: the back office (login, queue, case). */
const noLink = { enrolToken: null };

export default function OperatorFlow() {
  return (
    <OperatorActor.Provider options={{ input: noLink, inspect }}>
      <OperatorScreens />
    </OperatorActor.Provider>
  );
}

/**
 * /operador/alta#<token>: the one-time enrolment link. The token is read once and taken out of the
 * address bar and the history (src/app/useAddressToken), then the passkey is created.
 */
export function OperatorEnrolmentFlow() {
  const enrolToken = useAddressToken(tokenOf);
  const [input] = useState(() => ({ enrolToken }));
  return (
    <OperatorActor.Provider options={{ input, inspect }}>
      <OperatorScreens />
    </OperatorActor.Provider>
  );
}
