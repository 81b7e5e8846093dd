import * as z from 'zod/mini';

export { sessionPaths } from './session.constants';

export const logoutResponse = z.looseObject({ success: z.literal(true) });

export const sessionResponse = z.discriminatedUnion('authenticated', [
  z.object({
    authenticated: z.literal(true),
    patient: z.object({ nombre: z.string(), apellido: z.string() }),
    expiresAt: z.string(),
  }),
  z.object({ authenticated: z.literal(false) }),
]);
export type SessionResponse = z.infer<typeof sessionResponse>;
