import { z } from 'zod';

/** Every error answer of the API: `{ success: false, message }` in Spanish. */
export const errorResponse = z.object({ success: z.literal(false), message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponse>;

/** The success/message pair most calls answer with. */
export const resultResponse = z.object({ success: z.boolean(), message: z.string().optional() });
export type ResultResponse = z.infer<typeof resultResponse>;

export const digits = (min: number, max: number) =>
  z.string().regex(new RegExp(`^\\d{${min},${max}}$`));
