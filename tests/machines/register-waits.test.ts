import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { registeringMachine } from '../../machines/onboarding/registering.machine';
import { isExistsError } from '../../machines/onboarding/onboarding.errors';
import { ApiError } from '../../machines/shared/errors';
import type { RegisteringInput } from '../../machines/onboarding/onboarding.types';

/**
 * register's 409 that waits for a person (issue 44 item 3): a possible duplicate opened a case, or
 * a case is still open. Not 'El paciente ya existe': the server's message is shown, as a failure
 * the patient can read; a plain 409 (the patient exists) and 'recover_pin' stay 'exists'.
 */

const DUPLICATE =
  'Antes de terminar tu registro, una persona del servicio tiene que revisar tus datos. No tenés que hacer nada ahora: te avisamos por SMS hasta el 01/12/2026, con un enlace para seguir.';

const conflict = (message: string, reason?: string) =>
  new ApiError('server', 409, message, undefined, reason);

describe('register answers that wait for a person', () => {
  it('are not the patient exists', () => {
    expect(isExistsError(conflict(DUPLICATE, 'possible_duplicate'))).toBe(false);
    expect(isExistsError(conflict('Tenés un caso de verificación abierto.', 'case_open'))).toBe(
      false,
    );
    expect(isExistsError(conflict('El paciente ya existe.'))).toBe(true);
    expect(isExistsError(conflict('Ya tenés una cuenta con esta cédula.', 'recover_pin'))).toBe(
      true,
    );
  });

  it("the registering child stops at 'failed' with the server's message", async () => {
    const actor = createActor(
      registeringMachine.provide({
        actors: {
          registerPatient: fromPromise<{ success: boolean; message: string }, RegisteringInput>(
            async () => {
              throw conflict(DUPLICATE, 'possible_duplicate');
            },
          ),
        },
      }),
      { input: {} as RegisteringInput },
    ).start();
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toMatchObject({ serverMessage: DUPLICATE });
    expect(failed.status).toBe('active');
  });
});
