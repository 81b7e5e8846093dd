import type { Access, MyDataResponse } from '../../contract/my-data';
import { caseSealer, type CasePart } from '../cases/seal';
import type { AppContext } from '../context';
import { readSecondaryUse } from './secondary-use';
import { accessesOf, PATIENT_CASES, readMyData } from './service';

/**
 * What the patient's download holds (issue 45 item 2): what GET /api/mis-datos and /accesos show,
 * plus every field of the patient row but the PIN's hash, the consents, the login sessions, the
 * identity checks' decisions and each case's history; the images only while a case still keeps
 * them (sealed until its purge, opened with the cases area's sealer). Reads only: every table here
 * is written by its own area.
 */
export type DownloadContent = {
  generatedAt: string;
  data: Omit<MyDataResponse, 'success'>;
  otherFields: { tipoSangre: string | null; direccion: string | null; ciudad: string | null };
  consents: {
    terms: MyDataResponse['terms'];
    face: MyDataResponse['face'];
    secondaryUse: { optedOut: boolean; changedAt: string | null };
  };
  sessions: Array<{
    startedAt: string;
    lastSeenAt: string;
    expiresAt: string;
    endedAt: string | null;
  }>;
  accesses: Access[];
  verifications: Array<{
    status: string;
    decider: string;
    rejectReason: string | null;
    startedAt: string;
    completedAt: string | null;
  }>;
  cases: Array<{
    number: number;
    kind: string;
    status: string;
    trigger: string;
    step: string;
    openedAt: string;
    decidedAt: string | null;
    rejectReason: string | null;
    repeatStep: string | null;
    keptUntil: string | null;
    purgedAt: string | null;
    /** the fields read from the cédula, while kept */
    fieldsRead: unknown;
    /** the images still kept: their names inside the file */
    images: string[];
    history: Array<{ action: string; at: string; role: string | null; field: string | null }>;
  }>;
};

export type DownloadImage = { name: string; bytes: Buffer };

/** The images a case may still keep (the 'fields' part is data: it goes in the JSON). */
const IMAGE_PARTS = ['selfie', 'portrait', 'front', 'back', 'desk'] as const;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A file extension from the image's first bytes (JPEG, PNG, WebP), else a plain binary. */
function extensionOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return 'bin';
}

type CaseRow = Record<(typeof IMAGE_PARTS)[number] | 'fields', Buffer | null> & {
  id: string;
  kind: string;
  status: string;
  trigger: string;
  step: string;
  opened_at: Date;
  decided_at: Date | null;
  reject_reason: string | null;
  repeat_step: string | null;
  purge_after: Date | null;
  purged_at: Date | null;
};

export async function readDownloadContent(
  ctx: AppContext,
  patientId: string,
): Promise<{ content: DownloadContent; images: DownloadImage[] }> {
  const { db } = ctx;
  const now = new Date(ctx.clock.now());
  const { success: _ok, ...data } = await readMyData(ctx, patientId);
  const { accesses } = await accessesOf(ctx, patientId);
  const other = (
    await db.query<{ tipo_sangre: string | null; direccion: string | null; ciudad: string | null }>(
      `SELECT p.tipo_sangre, p.direccion, c.nombre AS ciudad FROM patients p
         LEFT JOIN cities c ON c.id = p.ciudad_id WHERE p.id = $1`,
      [patientId],
    )
  ).rows[0];
  const sessions = await db.query<{
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    ended_at: Date | null;
  }>(
    `SELECT created_at, last_seen_at, expires_at, ended_at FROM sessions
      WHERE patient_id = $1 ORDER BY created_at`,
    [patientId],
  );
  const verifications = await db.query<{
    status: string;
    decider: string;
    reject_reason: string | null;
    created_at: Date;
    completed_at: Date | null;
  }>(
    `WITH ${PATIENT_CASES}
     SELECT k.status, k.decider, k.reject_reason, k.created_at, k.completed_at FROM kyc_sessions k
      WHERE k.id::text IN (SELECT session_id FROM regs)
         OR k.id::text IN (SELECT c.decision_session_id FROM cases c JOIN mine ON mine.id = c.id)
      ORDER BY k.created_at`,
    [patientId],
  );
  const cases = await db.query<CaseRow>(
    `WITH ${PATIENT_CASES}
     SELECT c.id::text AS id, c.kind, c.status, c.trigger, c.step, c.opened_at, c.decided_at,
            c.reject_reason, c.repeat_step, c.purge_after, c.purged_at,
            c.selfie, c.portrait, c.front, c.back, c.desk, c.fields
       FROM cases c JOIN mine ON mine.id = c.id ORDER BY c.opened_at`,
    [patientId],
  );
  const history = await db.query<{
    case_id: string;
    action: string;
    at: Date;
    role: string | null;
    field: string | null;
  }>(
    `WITH ${PATIENT_CASES}
     SELECT a.case_id::text AS case_id, a.action, a.at, o.rol AS role, a.detail->>'field' AS field
       FROM case_audit a JOIN mine ON mine.id = a.case_id
       LEFT JOIN operators o ON o.id::text = a.operator_id
      ORDER BY a.at, a.id`,
    [patientId],
  );

  const sealer = caseSealer(ctx);
  const images: DownloadImage[] = [];
  const caseList = cases.rows.map((row, i) => {
    const number = i + 1;
    const kept: string[] = [];
    for (const part of IMAGE_PARTS) {
      const bytes = sealer.open(row.id, part as CasePart, row[part]);
      if (!bytes) continue;
      const name = `imagenes/caso-${number}-${part}.${extensionOf(bytes)}`;
      images.push({ name, bytes });
      kept.push(name);
    }
    return {
      number,
      kind: row.kind,
      status: row.status,
      trigger: row.trigger,
      step: row.step,
      openedAt: iso(row.opened_at)!,
      decidedAt: iso(row.decided_at),
      rejectReason: row.reject_reason,
      repeatStep: row.repeat_step,
      keptUntil: row.purged_at ? null : iso(row.purge_after),
      purgedAt: iso(row.purged_at),
      fieldsRead: sealer.openJson<unknown>(row.id, 'fields', row.fields),
      images: kept,
      history: history.rows
        .filter((h) => h.case_id === row.id)
        .map((h) => ({ action: h.action, at: iso(h.at)!, role: h.role, field: h.field })),
    };
  });
  const secondaryUse = await readSecondaryUse(db, patientId);

  return {
    content: {
      generatedAt: now.toISOString(),
      data,
      otherFields: {
        tipoSangre: other?.tipo_sangre ?? null,
        direccion: other?.direccion ?? null,
        ciudad: other?.ciudad ?? null,
      },
      consents: { terms: data.terms, face: data.face, secondaryUse },
      sessions: sessions.rows.map((s) => ({
        startedAt: iso(s.created_at)!,
        lastSeenAt: iso(s.last_seen_at)!,
        expiresAt: iso(s.expires_at)!,
        endedAt: iso(s.ended_at),
      })),
      accesses,
      verifications: verifications.rows.map((v) => ({
        status: v.status,
        decider: v.decider,
        rejectReason: v.reject_reason,
        startedAt: iso(v.created_at)!,
        completedAt: iso(v.completed_at),
      })),
      cases: caseList,
    },
    images,
  };
}
