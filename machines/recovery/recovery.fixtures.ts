import { initialRecoveryContext, recoveryMachine } from './recovery.machine';
import type { RecoveryContext } from './recovery.types';

const empty: RecoveryContext = initialRecoveryContext;
const typed: RecoveryContext = { ...empty, documento: '1234567', celular: '0981123456' };
const sent: RecoveryContext = { ...typed, resendAfterSeconds: 30 };
const withPin: RecoveryContext = { ...sent, pin: '482915' };

const at = (
  value: Parameters<typeof recoveryMachine.resolveState>[0]['value'],
  context: RecoveryContext,
) => recoveryMachine.resolveState({ value, context });

/**
 * One named snapshot per leaf state (and variant worth seeing), for stories and tests. Each name
 * starts with the leaf's path (`requestEditing` is request.editing). Step 1's OTP child has its
 * own fixtures (machines/otp/otp.fixtures.ts).
 */
export const recoveryFixtures = {
  requestEditing: at({ request: 'editing' }, empty),
  requestEditingFilled: at({ request: 'editing' }, typed),
  requestInvalidDocumento: at(
    { request: 'invalid' },
    {
      ...empty,
      documento: '123',
      celular: '0981123456',
      fieldErrors: { documento: 'documentoInvalid', celular: null },
      failures: 1,
    },
  ),
  requestInvalidCelular: at(
    { request: 'invalid' },
    { ...typed, celular: '0211234', fieldErrors: { documento: null, celular: 'celularInvalid' } },
  ),
  /** Both fields wrong: each says so under itself, no banner. */
  requestInvalidBoth: at(
    { request: 'invalid' },
    {
      ...empty,
      documento: '123',
      celular: '0211234',
      fieldErrors: { documento: 'documentoInvalid', celular: 'celularInvalid' },
      failures: 1,
    },
  ),
  requestSending: at({ request: 'sending' }, typed),
  requestFailed: at({ request: 'failed' }, { ...typed, error: { code: 'sendFailed' } }),
  requestFailedServerMessage: at(
    { request: 'failed' },
    {
      ...typed,
      error: {
        code: 'sendFailed',
        serverMessage: 'Ingresá tu celular registrado: solo números, como 0981123456.',
      },
    },
  ),
  requestFailedTooManyAttempts: at(
    { request: 'failed' },
    {
      ...typed,
      error: {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
      },
    },
  ),
  verification: at('verification', sent),
  newPinEditing: at({ newPin: 'editing' }, sent),
  newPinEditingTyped: at({ newPin: 'editing' }, withPin),
  newPinInvalid: at(
    { newPin: 'invalid' },
    { ...sent, pin: '123456', error: { code: 'pinInvalid' } },
  ),
  /** 6 digits in a row of the document number 1234567: refused before any call. */
  newPinInvalidOwnData: at(
    { newPin: 'invalid' },
    { ...sent, pin: '234567', error: { code: 'pinFromOwnData' }, failures: 1 },
  ),
  newPinSaving: at({ newPin: 'saving' }, withPin),
  newPinFailed: at({ newPin: 'failed' }, { ...withPin, error: { code: 'saveFailed' } }),
  /** The server knows the birth date: 140387 for someone born 14/03/1987. */
  newPinFailedOwnData: at(
    { newPin: 'failed' },
    { ...withPin, pin: '140387', error: { code: 'pinFromOwnData' }, failures: 1 },
  ),
  newPinFailedNoGrant: at(
    { newPin: 'failed' },
    {
      ...withPin,
      error: {
        code: 'saveFailed',
        serverMessage:
          'Tu autorización para cambiar el PIN venció o no es válida. Volvé a pedir un código por SMS.',
      },
    },
  ),
  unexpected: at('unexpected', { ...sent, error: { code: 'unexpected' } }),
  done: at('done', { ...sent, pin: '' }),
};
