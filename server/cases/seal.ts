import type { AppContext } from '../context';
import { createSealer } from '../security/sealed';

/** The sealed parts of a case, each bound to 'case:<id>:<part>'. */
export type CasePart =
  | 'selfie'
  | 'portrait'
  | 'front'
  | 'back'
  | 'desk'
  | 'fields'
  | 'corrections'
  | 'selfie_embedding'
  | 'portrait_embedding'
  | 'desk_embedding'
  | 'reject_note'
  | 'patient_claim'
  | 'duplicate';

type CaseSealer = {
  seal(caseId: string, part: CasePart, bytes: Uint8Array | null): Buffer | null;
  open(caseId: string, part: CasePart, sealed: Uint8Array | null): Buffer | null;
  sealJson(caseId: string, part: CasePart, value: unknown): Buffer | null;
  openJson<T>(caseId: string, part: CasePart, sealed: Uint8Array | null): T | null;
};

/** Seals and opens a case's parts under CASES_KEY; null stays null (not captured, or purged). */
export function caseSealer(ctx: Pick<AppContext, 'secrets'>): CaseSealer {
  const sealer = createSealer(ctx.secrets.casesKey);
  const context = (id: string, part: CasePart) => `case:${id}:${part}`;
  const seal = (id: string, part: CasePart, bytes: Uint8Array | null) =>
    bytes ? sealer.seal(bytes, context(id, part)) : null;
  const open = (id: string, part: CasePart, sealed: Uint8Array | null) =>
    sealed ? sealer.open(sealed, context(id, part)) : null;
  return {
    seal,
    open,
    sealJson: (id, part, value) =>
      value == null ? null : seal(id, part, Buffer.from(JSON.stringify(value), 'utf8')),
    openJson<T>(id: string, part: CasePart, sealed: Uint8Array | null): T | null {
      const bytes = open(id, part, sealed);
      return bytes ? (JSON.parse(bytes.toString('utf8')) as T) : null;
    },
  };
}
