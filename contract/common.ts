import * as z from 'zod/mini';

// The contract uses zod's tree-shakable "mini" API: the same schemas validate on the server and
// in the browser, where every kilobyte of the login page counts (bench/bundle-size.ts).

/**
 * Every error answer of the API: `{ success: false, message }` in Spanish; `reason` names the few
 * refusals a flow answers with a step of its own (contract/pin.ts PIN_FROM_OWN_DATA).
 */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  reason: z.optional(z.string()),
});

/** Any contract schema (zod classic or mini): what the browser's fetch and the server check with. */
export type Schema<T> = {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
};

/** The success/message pair most calls answer with. */
export const resultResponse = z.object({ success: z.boolean(), message: z.optional(z.string()) });
export type ResultResponse = z.infer<typeof resultResponse>;

export const digits = (min: number, max: number) =>
  z.string().check(z.regex(new RegExp(`^\\d{${min},${max}}$`)));

/** C0 control characters and DEL (NUL, newlines, escapes): no form field of the product holds one. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** No control characters: a NUL never reaches the database, a newline never reaches a log line. */
export const noControlCharacters = () => z.refine<string>((v) => !CONTROL_CHARACTER.test(v));

/** A single-line text field of min..max characters, without control characters. */
export const plainText = (min: number, max: number) =>
  z.string().check(z.minLength(min), z.maxLength(max), noControlCharacters());

/**
 * A registration's bearer token (issue 18): 32 random bytes, base64url. validate-otp gives one to
 * the browser that proved the mobile; opening the SMS link gives one to the phone. Kept in memory
 * only; the server stores its SHA-256.
 */
export const REGISTRATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
