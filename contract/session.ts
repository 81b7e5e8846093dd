import * as z from 'zod/mini';

import type { SessionResponse } from './session.constants';

export { sessionPaths } from './session.constants';
export type { SessionResponse } from './session.constants';

export const logoutResponse = z.looseObject({ success: z.literal(true) });

export const sessionResponse = z.discriminatedUnion('authenticated', [
  z.object({
    authenticated: z.literal(true),
    patient: z.object({ nombre: z.string(), apellido: z.string() }),
    expiresAt: z.string(),
  }),
  z.object({ authenticated: z.literal(false) }),
]);

/** The schema answers exactly the type ./session.constants.ts declares (checked by the compiler). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameShape: Same<z.infer<typeof sessionResponse>, SessionResponse> = true;
