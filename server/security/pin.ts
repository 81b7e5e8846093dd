import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax). */
const ARGON2ID = 2;

/** OWASP minimum for Argon2id: 19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export type PinHasher = {
  hash(pin: string): Promise<string>;
  verify(pinHash: string, pin: string): Promise<boolean>;
  /** Spends the time of a verification without an account, so unknown accounts answer as slowly. */
  verifyDummy(pin: string): Promise<void>;
};

export async function createPinHasher(pepper: string): Promise<PinHasher> {
  const secret = Buffer.from(pepper);
  const opts = { ...ARGON2_OPTIONS, secret };
  const dummy = await hash('000000-dummy', opts);
  return {
    hash: (pin) => hash(pin, opts),
    async verify(pinHash, pin) {
      try {
        return await verify(pinHash, pin, { secret });
      } catch {
        return false;
      }
    },
    async verifyDummy(pin) {
      await verify(dummy, pin, { secret }).catch(() => false);
    },
  };
}
