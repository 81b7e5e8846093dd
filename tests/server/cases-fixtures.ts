import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { OpenCaseRequest } from '../../contract/cases';
import type { OperatorRole } from '../../contract/operators';
import { onboardingPaths, type IdData } from '../../contract/onboarding';
import type { KycEvidence, KycStore } from '../../server/onboarding/kyc-store';
import type { CaseOperator } from '../../server/cases/operator';
import { operatorCaseRoutes } from '../../server/cases/operator-routes';
import {
  createOperator,
  operatorAuthPlugin,
  startOperatorSession,
} from '../../server/operators/auth';
import { caseSealer } from '../../server/cases/seal';
import type { AppContext } from '../../server/context';
import { installErrorHandling } from '../../server/http/errors';
import { loadOperatorsConfig } from '../../server/operators/config';
import { loadIdentityConfig } from '../../server/identity/config';
import type { IdentityEngine } from '../../server/identity/engine';
import type { KycProgress } from '../../server/onboarding/kyc-store';
import { MemorySms, useTestApp, type TestApp, TERMS_ACCEPTED } from './helpers';

/**
 * Assisted verification's test set-up (issue 30): a KYC store staged by the tests (what the identity
 * engine's sessions would hold; tests/identity/evidence.test.ts covers the engine's own), the real
 * operator sessions and requireOperator of server/operators, and a desk-photo engine seam.
 */

export const ID_DATA: IdData = {
  FullName: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
  DocumentNumber: '4567890',
  DateOfBirth: '17/05/1990',
  Gender: 'F',
  Nationality: 'PRY',
  MaritalStatus: 'SOLTERA',
};

/** Small JPEG-looking payloads (the magic bytes and a marker), distinct per part. */
export const jpeg = (label: string) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`jpeg:${label}`)]);

/**
 * A patient's cédula kept on an earlier case of theirs (a review decided, not purged yet): a
 * correction of the name or the number may then be approved at a distance (issue 45 item 5).
 */
export async function keptCard(ctx: AppContext, patientId: string, now: Date): Promise<void> {
  const id = randomUUID();
  const s = caseSealer(ctx);
  await ctx.db.query(
    `INSERT INTO cases (id, kind, status, trigger, step, patient_id, opened_at, expected_by, front, back, purge_after)
     VALUES ($1, 'review', 'approved', 'face_mismatch', 'front', $2, $3, $3, $4, $5, $6)`,
    [id, patientId, now, s.seal(id, 'front', jpeg('front')), s.seal(id, 'back', jpeg('back')), now],
  );
}

export const SELFIE_EMBEDDING = [0.6, 0.8, 0];
export const DESK_EMBEDDING = [0, 0.6, 0.8];

export function evidence(overrides: Partial<KycEvidence> = {}): KycEvidence {
  return {
    selfie: jpeg('selfie'),
    front: jpeg('front'),
    back: jpeg('back'),
    portrait: jpeg('portrait'),
    idData: ID_DATA,
    reasons: ['mrz_unreadable'],
    faceSimilarity: 0.31,
    faceThreshold: 0.5,
    attempts: { liveness: 1, scans: 2 },
    selfieEmbedding: SELFIE_EMBEDDING,
    portraitEmbedding: [0.8, 0.6, 0],
    // The selfie challenge's signals (issue 31): the case keeps them for the operator.
    signals: { virtual_camera: 1 },
    ...overrides,
  };
}

/** KYC sessions a test stages, with what a case needs from them. */
export class CaseKyc implements KycStore {
  stages = new Map<string, KycProgress>();
  evidence = new Map<string, KycEvidence>();
  used = new Set<string>();
  embeddings = new Map<string, ArrayLike<number>>();
  live: Array<{ id: string; embedding: number[]; keep: { front?: Buffer; back?: Buffer } }> = [];
  enrolled: Array<{ patientId: string; embedding: number[] }> = [];
  /**
   * Issue 44 item 3: the enrolled patient a session's face is found to be (the engine's exact
   * search: tests/identity/duplicates-face.test.ts), and the patients whose enrolled face it is.
   */
  duplicates = new Map<string, { patientId: string; similarity: number; threshold: number }>();
  sameFaces = new Set<string>();
  duplicateSearches: Array<{ sessionId: string; exclude: string[] }> = [];
  private next = 0;
  reset() {
    this.duplicates.clear();
    this.sameFaces.clear();
    this.duplicateSearches = [];
    this.stages.clear();
    this.evidence.clear();
    this.used.clear();
    this.embeddings.clear();
    this.live = [];
    this.enrolled = [];
  }
  async progressOf(sessionId: string) {
    return this.stages.get(sessionId) ?? { stage: 'started' as const };
  }
  async getCompletedKyc(sessionId: string) {
    const stage = this.stages.get(sessionId);
    if (stage?.stage !== 'documentRead' || this.used.has(sessionId)) return null;
    return { idData: stage.idData, embedding: this.embeddings.get(sessionId) ?? [0.1, 0.2] };
  }
  async consumeKyc(sessionId: string) {
    if (!(await this.getCompletedKyc(sessionId))) return false;
    this.used.add(sessionId);
    return true;
  }
  async duplicateOf(sessionId: string, _embedding: ArrayLike<number>, exclude: readonly string[]) {
    this.duplicateSearches.push({ sessionId, exclude: [...exclude] });
    const found = this.duplicates.get(sessionId);
    return found && !exclude.includes(found.patientId) ? found : null;
  }
  async isEnrolledFace(patientId: string) {
    return this.sameFaces.has(patientId);
  }
  async enrollFace(patientId: string, embedding: ArrayLike<number>) {
    this.enrolled.push({ patientId, embedding: Array.from(embedding) });
  }
  async evidenceOf(sessionId: string) {
    return this.evidence.get(sessionId) ?? null;
  }
  /** As the engine's store: the faces' descriptions leave the session's evidence. */
  async evidenceCopied(sessionId: string) {
    const e = this.evidence.get(sessionId);
    if (e) this.evidence.set(sessionId, { ...e, selfieEmbedding: null, portraitEmbedding: null });
  }
  async createLiveSession(input: {
    embedding: ArrayLike<number>;
    keep: { front?: Buffer; back?: Buffer };
  }) {
    const id = `live-${++this.next}`;
    this.stages.set(id, { stage: 'selfiePassed' });
    this.live.push({ id, embedding: Array.from(input.embedding), keep: input.keep });
    return id;
  }
  async createVerifiedSession(input: { idData: IdData; embedding: ArrayLike<number> }) {
    const id = `verified-${++this.next}`;
    this.stages.set(id, { stage: 'documentRead', idData: input.idData });
    this.embeddings.set(id, Array.from(input.embedding));
    return id;
  }
}

export const OPERATORS: Record<'ana' | 'beto' | 'sofia' | 'tomas', CaseOperator> = {
  ana: { id: 'op-ana', usuario: 'ana', nombre: 'Ana Revisora', rol: 'revisor' },
  beto: { id: 'op-beto', usuario: 'beto', nombre: 'Beto Revisor', rol: 'revisor' },
  sofia: { id: 'op-sofia', usuario: 'sofia', nombre: 'Sofía Supervisora', rol: 'supervisor' },
  tomas: { id: 'op-tomas', usuario: 'tomas', nombre: 'Tomás Supervisor', rol: 'supervisor' },
};
export type OperatorName = keyof typeof OPERATORS;

/** The operators' session cookies of the running test (the real sessions of server/operators). */
const sessionCookies = new Map<OperatorName, string>();

/** The operator logs in again (a new session, as after the passkey): their session expired. */
export async function logInAgain(ctx: AppContext, name: OperatorName) {
  sessionCookies.set(name, (await startOperatorSession(ctx, OPERATORS[name].id)).value);
}

/**
 * The four operators, created in the database with a live session each (createOperator,
 * startOperatorSession: what enrolment and login end with); their ids become the real ones.
 */
export async function enrolOperators(ctx: AppContext, clock: AppContext['clock']) {
  sessionCookies.clear();
  for (const [name, operator] of Object.entries(OPERATORS) as Array<[OperatorName, CaseOperator]>) {
    const { id } = await createOperator(
      ctx.db,
      operator as CaseOperator & { rol: OperatorRole },
      clock,
    );
    operator.id = id;
    sessionCookies.set(name, (await startOperatorSession(ctx, id)).value);
  }
}

/** An engine stub for the desk photo: one face with the given description, or none. */
export function deskEngine(embedding: number[] | null) {
  return async () =>
    ({
      // The engine's real gates and thresholds.
      config: loadIdentityConfig({}),
      analyze: async () => ({
        width: 640,
        height: 480,
        luminance: 128,
        timings: { decodeMs: 0, detectMs: 0 },
        faces: embedding
          ? [{ box: [220, 140, 200, 200], score: 0.99, luminance: 128, embedding }]
          : [],
      }),
    }) as unknown as Pick<IdentityEngine, 'analyze' | 'config'>;
}

/** The operator case routes on their own app (the same context and database as the patient's). */
export async function operatorApp(
  ctx: AppContext,
  engine = deskEngine(DESK_EMBEDDING),
): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandling(app);
  await app.register(cookie);
  await app.register(operatorAuthPlugin, { ctx });
  await app.register(operatorCaseRoutes, { prefix: '/api/operador', ctx, engine });
  await app.ready();
  return app;
}

/** Patient-side helpers over a test app. */
export function patient(t: () => TestApp, sms: MemorySms, kyc: CaseKyc) {
  const post = (url: string, payload: object, ip = '203.0.113.7') =>
    t().app.inject({ method: 'POST', url, payload, remoteAddress: ip });

  /**
   * Mobile proved, PIN kept, a KYC session bound with evidence (staged in the test store; none
   * with `ev` null, for a session the test made in the engine's store); the registration token.
   */
  async function registration(
    phone = '0981123456',
    ev: KycEvidence | null = evidence(),
    sessionId = `kyc-${phone}`,
  ) {
    expect((await post(onboardingPaths.start, { phone })).statusCode).toBe(200);
    const proved = await post(onboardingPaths.validateOtp, {
      celular: phone,
      otp: sms.lastCode(phone),
    });
    const token = proved.json().registration.token as string;
    const pin = await post(onboardingPaths.savePin, {
      registrationToken: token,
      pin: '482915',
      email: null,
      ...TERMS_ACCEPTED,
    });
    expect(pin.statusCode).toBe(200);
    expect(
      (await post(onboardingPaths.bindKyc, { registrationToken: token, sessionId })).statusCode,
    ).toBe(200);
    kyc.stages.set(sessionId, { stage: 'selfiePassed' });
    if (ev) kyc.evidence.set(sessionId, ev);
    return { token, sessionId, phone };
  }

  const openCase = (
    token: string,
    body: Partial<Omit<OpenCaseRequest, 'registrationToken'>> = {},
  ) =>
    post('/api/onboarding/registration/case', {
      registrationToken: token,
      kind: 'review',
      trigger: 'face_mismatch',
      step: 'front',
      ...body,
    });

  const caseStatus = (token: string) =>
    post('/api/onboarding/registration/case/status', { registrationToken: token });

  /** Proving the mobile again (a lost page): where the registration resumes. */
  async function resume(phone = '0981123456') {
    t().clock.advance(31_000);
    expect((await post(onboardingPaths.start, { phone })).statusCode).toBe(200);
    const res = await post(onboardingPaths.validateOtp, {
      celular: phone,
      otp: sms.lastCode(phone),
    });
    expect(res.statusCode).toBe(200);
    return res.json().registration;
  }

  /** A registration with an open review case (the clock then a second on): its token, phone and case id. */
  async function reviewCase(
    phone = '0981123456',
    trigger: OpenCaseRequest['trigger'] = 'liveness_failed',
    ev: KycEvidence | null = evidence(),
  ) {
    const reg = await registration(phone, ev);
    expect((await openCase(reg.token, { trigger })).statusCode).toBe(200);
    const { rows } = await t().ctx.db.query<{ id: string }>(
      `SELECT c.id::text AS id FROM cases c JOIN registration_drafts d ON d.id = c.draft_id
        WHERE d.celular = $1 AND c.status = 'open'`,
      [phone],
    );
    t().clock.advance(1000);
    return { ...reg, id: rows[0]!.id };
  }

  /** 'Finalizar' after a decision: register with the resumed registration's token and session. */
  const register = (resumed: { token: string; sessionId: string }, phone = '0981123456') =>
    post(onboardingPaths.register, {
      registrationToken: resumed.token,
      phone,
      email: null,
      sessionId: resumed.sessionId,
      supplementaryData: { tipoSangre: 'O+', direccion: '', departamento: '11', ciudad_id: '1101' },
    });

  return { post, registration, openCase, caseStatus, resume, reviewCase, register };
}

/** An operator's calls on the operator app. */
export function operatorCalls(app: () => FastifyInstance) {
  const as = (name: OperatorName | null) =>
    name ? { operador_sesion: sessionCookies.get(name)! } : undefined;
  // The operator pages' own origin: requireOperator refuses a POST from any other.
  const headers = { origin: 'http://localhost' };
  return {
    /** Any request, as is (no operator cookie unless given). */
    inject: (options: InjectOptions) => app().inject(options),
    get: (name: OperatorName | null, url: string) =>
      app().inject({ method: 'GET', url: `/api/operador${url}`, cookies: as(name) }),
    post: (name: OperatorName | null, url: string, payload: object = {}) =>
      app().inject({
        method: 'POST',
        url: `/api/operador${url}`,
        payload,
        headers,
        cookies: as(name),
      }),
    /** A body as is (not JSON-encoded), with its content type. */
    raw: (
      name: OperatorName | null,
      url: string,
      body: string | Buffer,
      type = 'application/json',
    ) =>
      app().inject({
        method: 'POST',
        url: `/api/operador${url}`,
        payload: body,
        headers: { ...headers, 'content-type': type },
        cookies: as(name),
      }),
    photo: (name: OperatorName, id: string, body: Buffer, type = 'image/jpeg') =>
      app().inject({
        method: 'POST',
        url: `/api/operador/casos/${id}/foto`,
        payload: body,
        headers: { ...headers, 'content-type': type },
        cookies: as(name),
      }),
  };
}

/** The audit rows, oldest first, without ids. */
export async function auditRows(ctx: AppContext) {
  const { rows } = await ctx.db.query<{
    case_id: string | null;
    operator_usuario: string | null;
    action: string;
    detail: Record<string, unknown>;
  }>(
    'SELECT case_id::text AS case_id, operator_usuario, action, detail FROM case_audit ORDER BY id',
  );
  return rows;
}

/**
 * One test file's apps: the patient's (useTestApp, with a memory SMS and the case KYC store, or the
 * engine's with `engineStore`) and the operator routes' on the same context; the KYC store is
 * emptied before each test.
 */
export function useCaseApps(options: { engineStore?: boolean } = {}) {
  const sms = new MemorySms();
  const kyc = new CaseKyc();
  // The longest operator sessions the settings allow (a day): these files test the cases' rules
  // over hours; operators-auth.test.ts tests the session limits.
  const operators = loadOperatorsConfig(
    { OPERATOR_SESSION_IDLE_MINUTES: String(24 * 60), OPERATOR_SESSION_HOURS: '24' },
    'test',
  );
  // engineStore: the identity engine's own KYC store (server/onboarding/identity-kyc.ts) on the
  // test's database, sessions staged by the test; else the test store above.
  const h = useTestApp({ deps: { sms, operators, ...(options.engineStore ? {} : { kyc }) } });
  let opApp: FastifyInstance | undefined;
  beforeAll(async () => {
    opApp = await operatorApp(h.t.ctx);
  });
  afterAll(async () => {
    await opApp?.close();
  });
  beforeEach(async () => {
    kyc.reset();
    await enrolOperators(h.t.ctx, h.t.clock);
  });
  return {
    sms,
    kyc,
    h,
    p: patient(() => h.t, sms, kyc),
    op: operatorCalls(() => opApp!),
  };
}
