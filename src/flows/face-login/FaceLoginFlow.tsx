import { useState } from 'react';
import { KIOSK_ACTIVATION_FRAGMENT } from '../../../machines/face-login/face-login.types';
import type { FaceLoginInput } from '../../../machines/face-login/face-login.types';
import { inspect } from '../../app/inspector';
import { useAddressToken } from '../../app/useAddressToken';
import { FaceLoginActor } from './face-login.context';
import { FaceLoginScreen } from './FaceLoginScreen';

/** The activation link's token: `#activar=TOKEN`. */
const activationTokenOf = (fragment: string) =>
  new URLSearchParams(fragment).get(KIOSK_ACTIVATION_FRAGMENT);

/**
 * The page's input, read once from the address: `?modo=kiosco` boots a kiosk; an activation link's
 * `#activar=TOKEN` (a fragment, so it never reaches a server log) is taken out of the address bar
 * (src/app/useAddressToken).
 */
export function faceLoginInput(
  location: Pick<Location, 'search'>,
  activationToken: string | null,
): FaceLoginInput {
  const mode = new URLSearchParams(location.search).get('modo') === 'kiosco' ? 'kiosk' : 'manual';
  const prefix = import.meta.env.VITE_FACE_AUTH_PREFIX as string | undefined;
  return { mode, activationToken, ...(prefix ? { prefix } : {}) };
}

export default function FaceLoginFlow() {
  const activationToken = useAddressToken(activationTokenOf);
  const [input] = useState(() => faceLoginInput(window.location, activationToken));
  return (
    <FaceLoginActor.Provider options={{ input, inspect }}>
      <FaceLoginScreen />
    </FaceLoginActor.Provider>
  );
}
