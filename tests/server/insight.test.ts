import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  INSIGHT_MAX_BATCH,
  INSIGHT_MAX_EVENTS_PER_JOURNEY,
  insightPaths,
  type InsightBatch,
  type InsightEvent,
} from '../../contract/insight';
import { loadInsightSettings } from '../../server/insight/config';
import { createIngestGuard, storedJourneyId } from '../../server/insight/ingest';
import { HttpError } from '../../server/http/errors';
import { createEngineRecorder } from '../../server/insight/engine-recorder';
import { buildReport, reportRange } from '../../server/insight/report';
import { reportHtml } from '../../server/insight/report-html';
import { reportText } from '../../server/insight/report-text';
import { FakeClock, useTestApp } from './helpers';

/**
 * Journey insight on the server (issue 17): POST /api/insight/events against the catalogue, its
 * caps, the retention delete, the engine's decisions, and the report's numbers on a seeded set.
 * On PGlite, and on PostgreSQL in the test command's PostgreSQL tier.
 */
const h = useTestApp({
  deps: {
    insight: {
      ...loadInsightSettings({}),
      postsPerAddressPerMinute: 5,
      tokensPerAddressPerMinute: 1000,
    },
  },
});

const J = (n: number) => `0b5c0f7e-9d1a-4c3b-8a2e-${String(n).padStart(12, '0')}`;
const context = { device: 'mobile', browser: 'chrome', network: '4g' } as const;
let seq = 0;
const ev = (
  journey: number,
  flow: InsightEvent['flow'],
  step: string,
  outcome: InsightEvent['outcome'],
  extra: Partial<InsightEvent> = {},
): InsightEvent => ({
  journey: J(journey),
  seq: seq++ % INSIGHT_MAX_EVENTS_PER_JOURNEY,
  flow,
  step,
  outcome,
  attempt: 1,
  ...extra,
});

/** A page's token, as the browser gets it (GET /api/insight/token from the page). */
async function pageToken(ip = '203.0.113.7'): Promise<string> {
  const res = await h.t.app.inject({
    method: 'GET',
    url: insightPaths.token,
    remoteAddress: ip,
    headers: { 'sec-fetch-site': 'same-origin' },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { token: string }).token;
}

/** POSTs a batch; an object body gets a fresh page token unless it has one (or `token: null`). */
async function post(
  body: unknown,
  options: {
    ip?: string;
    contentType?: string;
    token?: string | null;
    headers?: Record<string, string>;
  } = {},
) {
  const ip = options.ip ?? '203.0.113.7';
  if (body && typeof body === 'object' && !('token' in body) && options.token !== null)
    body = { token: options.token ?? (await pageToken(ip)), ...body };
  const res = await h.t.app.inject({
    method: 'POST',
    url: insightPaths.events,
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/121.0 Mobile Safari/537.36',
      ...options.headers,
    },
    remoteAddress: ip,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.statusCode,
    body: res.json() as { success: boolean; message?: string },
    res,
  };
}

const rows = async () =>
  (await h.t.ctx.db.query<Record<string, unknown>>('SELECT * FROM insight_events ORDER BY id'))
    .rows;

describe('POST /api/insight/events', () => {
  it('stores a valid batch with the server time and the coarse context only', async () => {
    const batch: Omit<InsightBatch, 'token'> = {
      context,
      events: [
        ev(1, 'login', 'login', 'entered'),
        ev(1, 'login', 'login', 'failed', { error: 'loginFailed', durationMs: 4200 }),
      ],
    };
    const r = await post(batch);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const stored = await rows();
    expect(stored).toHaveLength(2);
    // The journey is stored under the id the server made for it: a UUID v4 from a keyed hash, one
    // per journey, never the browser's own (issue 29 item 6).
    expect(stored[0]!.journey).toBe(storedJourneyId(h.t.ctx.secrets.otpSecret, J(1)));
    expect(stored[1]!.journey).toBe(stored[0]!.journey);
    expect(stored[0]!.journey).not.toBe(J(1));
    expect(stored[0]!.journey).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(stored[1]).toMatchObject({
      source: 'browser',
      flow: 'login',
      step: 'login',
      outcome: 'failed',
      error: 'loginFailed',
      duration_ms: 4200,
      attempt: 1,
      device: 'mobile',
      browser: 'chrome',
      network: '4g',
    });
    expect(new Date(stored[0]!.at as string).getTime()).toBe(FakeClock.START);
    // Neither the address nor the user agent is kept anywhere in the row.
    expect(Object.keys(stored[0]!).sort()).toEqual(
      [
        'id',
        'at',
        'source',
        'journey',
        'seq',
        'flow',
        'step',
        'outcome',
        'error',
        'duration_ms',
        'attempt',
        'device',
        'browser',
        'network',
      ].sort(),
    );
    expect(JSON.stringify(stored)).not.toMatch(/203\.0\.113|Android|Mozilla/);
  });

  it('takes the text/plain body navigator.sendBeacon sends', async () => {
    const r = await post(
      { context, events: [ev(2, 'recovery', 'request', 'entered')] },
      { contentType: 'text/plain;charset=UTF-8', ip: '10.3.0.1' },
    );
    expect(r.status).toBe(200);
    expect(await rows()).toHaveLength(1);
  });

  const refused: Array<[string, unknown]> = [
    [
      'an unknown field (a phone)',
      { context, events: [{ ...ev(3, 'login', 'login', 'entered'), phone: '0981123456' }] },
    ],
    [
      'an unknown context field (the user agent)',
      {
        context: { ...context, userAgent: 'Mozilla' },
        events: [ev(3, 'login', 'login', 'entered')],
      },
    ],
    [
      'an unknown flow',
      { context, events: [{ ...ev(3, 'login', 'login', 'entered'), flow: 'payments' }] },
    ],
    ['a step of another flow', { context, events: [ev(3, 'login', 'selfie', 'entered')] }],
    [
      'an unknown outcome',
      { context, events: [ev(3, 'login', 'login', 'abandoned' as 'entered')] },
    ],
    [
      'an unknown error code',
      {
        context,
        events: [ev(3, 'login', 'login', 'failed', { error: 'pin 482915' as 'network' })],
      },
    ],
    [
      'an engine reason from a browser',
      {
        context,
        events: [
          ev(3, 'onboarding', 'document', 'failed', { error: 'mrz_unreadable' as 'network' }),
        ],
      },
    ],
    ['a failure without its code', { context, events: [ev(3, 'login', 'login', 'failed')] }],
    [
      'a code without a failure',
      { context, events: [ev(3, 'login', 'login', 'passed', { error: 'network' })] },
    ],
    [
      'a journey that is not a random UUID',
      { context, events: [{ ...ev(3, 'login', 'login', 'entered'), journey: '1234567' }] },
    ],
    [
      'a negative duration',
      { context, events: [ev(3, 'login', 'login', 'passed', { durationMs: -1 })] },
    ],
    // Issue 29 item 6: numbers bounded by what they mean, so none carries a phone or a document.
    [
      'a sequence number past a journey (a mobile in seq)',
      { context, events: [{ ...ev(3, 'login', 'login', 'entered'), seq: 981123456 }] },
    ],
    [
      'a duration longer than an hour (a document in durationMs)',
      { context, events: [ev(3, 'login', 'login', 'passed', { durationMs: 4_567_890 })] },
    ],
    [
      'an attempt past 100',
      { context, events: [ev(3, 'login', 'login', 'entered', { attempt: 4567 })] },
    ],
    ['no token', { token: undefined, context, events: [ev(3, 'login', 'login', 'entered')] }],
    ['no events', { context, events: [] }],
    [
      'more events than a batch holds',
      {
        context,
        events: Array.from({ length: INSIGHT_MAX_BATCH + 1 }, () =>
          ev(3, 'login', 'login', 'entered'),
        ),
      },
    ],
    ['no context', { events: [ev(3, 'login', 'login', 'entered')] }],
  ];
  it.each(refused)('refuses %s: 400 in Spanish, nothing stored', async (name, body) => {
    // Its own address: the per-address cap counts in memory across tests.
    const r = await post(body, { ip: `10.1.${refused.findIndex(([n]) => n === name)}.1` });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, message: 'Los eventos enviados no son válidos.' });
    expect(await rows()).toHaveLength(0);
  });

  it('refuses a body that is not JSON, as text/plain too', async () => {
    for (const contentType of ['application/json', 'text/plain']) {
      const r = await post('{"context":', { contentType, ip: '10.2.0.1' });
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      expect(r.body.message).toMatch(/JSON/);
    }
  });

  it('caps requests per client address per minute: 429 with Retry-After, other addresses unaffected', async () => {
    const batch = { context, events: [ev(4, 'login', 'login', 'entered')] };
    const ip = '10.9.9.9';
    for (let i = 0; i < 5; i++) expect((await post(batch, { ip })).status).toBe(200);
    const over = await post(batch, { ip });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/^Demasiados intentos\. Esperá /);
    expect(Number(over.res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(batch, { ip: '198.51.100.9' })).status).toBe(200);
    h.t.clock.advance(60_001);
    expect((await post(batch, { ip })).status).toBe(200);
  });
});

describe('retention and the engine', () => {
  it('deletes events older than the retention (90 days by default), keeps the rest', async () => {
    expect(loadInsightSettings({}).retentionMs).toBe(90 * 86_400_000);
    expect(loadInsightSettings({ INSIGHT_RETENTION_DAYS: '7' }).retentionMs).toBe(7 * 86_400_000);
    const day = 86_400_000;
    for (const age of [91, 90.5, 89, 1])
      await h.t.ctx.db.query(
        `INSERT INTO insight_events (at, source, flow, step, outcome) VALUES ($1, 'engine', 'onboarding', 'selfie', 'passed')`,
        [new Date(FakeClock.START - age * day)],
      );
    expect(await h.t.app.insight.purge()).toBe(2);
    expect(
      (await rows()).map((r) =>
        Math.round((FakeClock.START - new Date(r.at as string).getTime()) / day),
      ),
    ).toEqual([89, 1]);
  });

  it("records the engine's decisions with reason codes and timings, no journey", async () => {
    // The recorder the app gives its engine (server/app.ts), over this app's writer.
    const recorder = createEngineRecorder((d) => h.t.app.insight.record(d));
    recorder.liveness({
      decider: 'blink',
      state: { startedAt: 1000, blinks: 0 },
      now: 31_000,
      live: false,
      timeUp: true,
    });
    recorder.liveness({
      decider: 'kiosk',
      state: { startedAt: 0, blinks: 1 },
      now: 2500,
      live: true,
      timeUp: false,
    });
    recorder.liveness({
      decider: 'blink',
      state: null,
      now: 0,
      live: false,
      timeUp: false,
      steps: [
        { gates: ['too_dark', 'no_face'] },
        { gates: ['too_dark'] },
        { replay: true, gates: [] },
      ],
    });
    recorder.liveness({
      decider: 'blink',
      state: null,
      now: 0,
      live: false,
      timeUp: false,
      refused: 'frame_cap',
    });
    recorder.document({ reason: 'mrz_unreadable', durationMs: 812.4 });
    recorder.document({ reason: 'no_face_on_document', durationMs: 905 });
    recorder.document({ durationMs: 1500 });
    recorder.record({
      flow: 'faceLogin',
      step: 'recognition',
      outcome: 'failed',
      error: 'not_recognised',
      durationMs: 22,
    });
    await h.t.app.insight.flush();
    const stored = await rows();
    expect(stored.map((r) => [r.flow, r.step, r.outcome, r.error, r.duration_ms])).toEqual([
      ['onboarding', 'selfie', 'failed', 'eyes_never_closed', 30000],
      ['faceLogin', 'recognition', 'passed', null, 2500],
      ['onboarding', 'selfie', 'failed', 'too_dark', null],
      ['onboarding', 'selfie', 'failed', 'no_face', null],
      ['onboarding', 'selfie', 'failed', 'replay', null],
      ['onboarding', 'selfie', 'failed', 'frame_cap', null],
      ['onboarding', 'document', 'failed', 'mrz_unreadable', 812],
      ['onboarding', 'document', 'failed', 'no_face_on_document', 905],
      ['onboarding', 'document', 'passed', null, 1500],
      ['faceLogin', 'recognition', 'failed', 'not_recognised', 22],
    ]);
    expect(stored.every((r) => r.source === 'engine' && r.journey === null)).toBe(true);
  });

  it("records the selfie challenge's signals apart from failures, and the report has a line per signal", async () => {
    const recorder = createEngineRecorder((d) => h.t.app.insight.record(d));
    // Two sessions raise a virtual camera's label, one of them also frame times ahead; one is refused.
    recorder.liveness({
      decider: 'blink',
      state: null,
      now: 0,
      live: false,
      timeUp: false,
      signals: ['virtual_camera', 'clock_ahead'],
    });
    recorder.liveness({
      decider: 'blink',
      state: null,
      now: 0,
      live: false,
      timeUp: false,
      refused: 'cues_missed',
      signals: ['virtual_camera'],
    });
    await h.t.app.insight.flush();
    const stored = await rows();
    expect(stored.map((r) => [r.step, r.outcome, r.error])).toEqual([
      ['selfie', 'signal', 'virtual_camera'],
      ['selfie', 'signal', 'clock_ahead'],
      ['selfie', 'signal', 'virtual_camera'],
      ['selfie', 'failed', 'cues_missed'],
    ]);
    // Paraguay's day of the app's clock (UTC-3), the report's days.
    const day = new Date(h.t.clock.now() - 3 * 3_600_000).toISOString().slice(0, 10);
    const report = await buildReport(h.t.ctx.db, reportRange(day, day)!);
    expect(report.signals).toEqual([
      { signal: 'virtual_camera', sessions: 2 },
      { signal: 'clock_backwards', sessions: 0 },
      { signal: 'clock_ahead', sessions: 1 },
      { signal: 'tag_mismatch', sessions: 0 },
    ]);
    // Not among the engine's failures: only the refusal is.
    expect(report.onboarding.engineReasons.map((r) => r.error)).toEqual(['cues_missed']);
    const text = reportText(report);
    expect(text).toMatch(/Cámara virtual \(señal\)\s+2/);
    expect(text).toMatch(/Tiempos de imagen hacia atrás \(señal\)\s+0/);
    expect(reportHtml(report, new Date())).toContain('Cámara virtual (señal)');
  });
});

describe('who may write journey insight (issue 29 item 7)', () => {
  const one = (n: number, extra: Partial<InsightEvent> = {}) => ({
    context,
    events: [ev(n, 'login', 'login', 'entered', extra)],
  });

  it('needs a token this server signed and that has not expired: 401 otherwise, nothing stored', async () => {
    const forged = await post(one(30), { token: `${FakeClock.START + 60_000}.bm9uY2U.c2ln` });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe('La sesión de métricas venció. Recargá la página.');
    const token = await pageToken();
    expect((await post(one(30), { token })).status).toBe(200);
    h.t.clock.advance(120 * 60_000 + 1);
    expect((await post(one(30), { token })).status).toBe(401);
    expect(await rows()).toHaveLength(1);
  });

  it('caps the events of a journey under its token (500): 429, the batch not stored', async () => {
    const token = await pageToken('10.7.0.1');
    const batch = (from: number) => ({
      context,
      events: Array.from({ length: 50 }, (_, i) => ({
        ...ev(32, 'login', 'login', 'entered'),
        seq: (from + i) % 500,
      })),
    });
    for (let i = 0; i < 10; i++) {
      h.t.clock.advance(60_001);
      expect((await post(batch(i * 50), { token, ip: '10.7.0.1' })).status).toBe(200);
    }
    h.t.clock.advance(60_001);
    expect((await post(batch(0), { token, ip: '10.7.0.1' })).status).toBe(429);
    expect(await rows()).toHaveLength(500);
  });

  it.each([
    ['a cross-site fetch or beacon (Sec-Fetch-Site)', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site but other origin page', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin (a sandboxed page)', { origin: 'null' }],
  ])('refuses %s: 403, nothing stored', async (_name, headers) => {
    const r = await post(one(33), { headers });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Solicitud rechazada: no viene de este sitio.');
    const token = await h.t.app.inject({ method: 'GET', url: insightPaths.token, headers });
    expect(token.statusCode).toBe(403);
    expect(await rows()).toHaveLength(0);
  });

  it("takes the page's own origin", async () => {
    const headers = { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' };
    expect((await post(one(34), { headers })).status).toBe(200);
  });
});

describe('the ingestion guard', () => {
  const settings = {
    ...loadInsightSettings({}),
    eventsPerToken: 3,
    eventsPerDay: 5,
  };
  const event = (journey: string) => ({ ...ev(0, 'login', 'login', 'entered'), journey });

  it('caps events per token and per day, counting nothing of a refused batch', () => {
    const guard = createIngestGuard('secret-secret-secret-secret-secret!', settings);
    const now = FakeClock.START;
    const a = guard.issue(now).token;
    const b = guard.issue(now).token;
    expect(guard.admit(a, [event(J(1)), event(J(2)), event(J(2))], now)).toHaveLength(3);
    expect(() => guard.admit(a, [event(J(1))], now)).toThrow(/Demasiados intentos/);
    expect(guard.admit(b, [event(J(1)), event(J(1))], now)).toHaveLength(2);
    // 5 events today: the next one waits for tomorrow, whatever the token.
    const c = guard.issue(now).token;
    expect(() => guard.admit(c, [event(J(1))], now)).toThrow(/Demasiados intentos/);
    const tomorrow = now + 86_400_000;
    expect(guard.admit(guard.issue(tomorrow).token, [event(J(1))], tomorrow)).toHaveLength(1);
  });

  it('refuses a token signed with another secret', () => {
    const mine = createIngestGuard('secret-secret-secret-secret-secret!', settings);
    const theirs = createIngestGuard('another-another-another-another-xx', settings);
    const token = theirs.issue(FakeClock.START).token;
    expect(() => mine.admit(token, [event(J(1))], FakeClock.START)).toThrow(HttpError);
  });
});

describe('migration 021', () => {
  it("renames face authentication's stored events to the flow's one name, 'faceLogin'", async () => {
    const insert = (flow: string) =>
      h.t.ctx.db.query(
        `INSERT INTO insight_events (at, source, flow, step, outcome) VALUES ($1, 'engine', $2, 'recognition', 'passed')`,
        [new Date(FakeClock.START), flow],
      );
    await insert('faceAuth');
    await insert('onboarding');
    const sql = await readFile(
      new URL('../../server/db/migrations/021_face_login_insight.sql', import.meta.url),
      'utf8',
    );
    await h.t.ctx.db.query(sql);
    expect((await rows()).map((r) => r.flow)).toEqual(['faceLogin', 'onboarding']);
  });
});

describe('the report on a seeded set', () => {
  /** Posts one journey's events at the clock's time. */
  const journey = async (events: InsightEvent[]) =>
    expect((await post({ context, events }, { ip: `192.0.2.${seq % 200}` })).status).toBe(200);
  /** An onboarding event of journey `n`. */
  const o = (
    n: number,
    step: string,
    outcome: InsightEvent['outcome'],
    extra: Partial<InsightEvent> = {},
  ) => ev(n, 'onboarding', step, outcome, extra);

  async function seed() {
    // 2025-03-03 (Paraguay): three registrations.
    await journey([
      o(1, 'registration', 'entered'),
      o(1, 'registration', 'passed', { durationMs: 10_000 }),
      o(1, 'verification', 'passed', { durationMs: 20_000 }),
      o(1, 'pin', 'passed', { durationMs: 5000 }),
      // Passed by itself, no time to measure: 'sin datos', not 0.0 s (issue 29 item 19).
      o(1, 'welcome', 'passed', { durationMs: 0 }),
      o(1, 'selfie', 'passed', { durationMs: 30_000 }),
      o(1, 'document', 'passed', { durationMs: 40_000 }),
      o(1, 'register', 'passed', { durationMs: 2000 }),
    ]);
    await journey([
      o(2, 'registration', 'entered'),
      o(2, 'registration', 'passed', { durationMs: 20_000 }),
      o(2, 'verification', 'passed', { durationMs: 40_000 }),
      o(2, 'pin', 'passed', { durationMs: 7000 }),
      o(2, 'selfie', 'failed', { error: 'livenessNotDetected', durationMs: 120_000 }),
      o(2, 'selfie', 'retried'),
      o(2, 'selfie', 'passed', { durationMs: 60_000, attempt: 2 }),
    ]);
    await journey([
      o(3, 'registration', 'entered'),
      o(3, 'registration', 'passed', { durationMs: 30_000 }),
      o(3, 'verification', 'failed', { error: 'wrongCode' }),
      o(3, 'verification', 'failed', { error: 'wrongCode' }),
    ]);
    const r = (
      n: number,
      step: string,
      outcome: InsightEvent['outcome'],
      extra: Partial<InsightEvent> = {},
    ) => ev(n, 'recovery', step, outcome, extra);
    await journey([
      r(10, 'request', 'entered'),
      r(10, 'request', 'passed', { durationMs: 8000 }),
      r(10, 'verification', 'passed', { durationMs: 15_000 }),
      r(10, 'newPin', 'passed', { durationMs: 4000 }),
    ]);
    await journey([
      r(11, 'request', 'entered'),
      r(11, 'request', 'failed', { error: 'sendFailed' }),
    ]);
    const k = (outcome: InsightEvent['outcome'], extra: Partial<InsightEvent>) =>
      ev(20, 'faceLogin', 'recognition', outcome, extra);
    await journey([
      k('passed', { durationMs: 3000 }),
      k('passed', { durationMs: 5000 }),
      k('failed', { error: 'notRecognised', durationMs: 4000 }),
    ]);
    h.t.app.insight.record({
      flow: 'onboarding',
      step: 'selfie',
      outcome: 'failed',
      error: 'eyes_never_closed',
    });
    await h.t.app.insight.flush();
    // 2025-03-04: one more registration started; 2025-03-05: outside the range.
    h.t.clock.advance(86_400_000);
    await journey([o(4, 'registration', 'entered')]);
    h.t.clock.advance(86_400_000);
    await journey([o(5, 'registration', 'entered')]);
  }

  it("a person's verification is a way into 'Registrado' beside the document (issue 43 item 11)", async () => {
    // A registration handed to a person at the selfie, and the journey its SMS link resumed,
    // which registered without a document step of its own.
    await journey([
      o(30, 'registration', 'entered'),
      o(30, 'verification', 'passed'),
      o(30, 'pin', 'passed'),
      o(30, 'selfie', 'failed', { error: 'assisted' }),
    ]);
    await journey([o(31, 'supplementary', 'passed'), o(31, 'register', 'passed')]);
    // The case a person approved that day (and one still open, and one rejected).
    for (const [status, decided] of [
      ['approved', true],
      ['open', false],
      ['rejected', true],
    ] as const)
      await h.t.ctx.db.query(
        `INSERT INTO cases (id, kind, status, trigger, step, opened_at, expected_by, decided_at)
         VALUES (gen_random_uuid(), 'centro', $1, 'no_camera', 'selfie', $2, $2, $3)`,
        [status, new Date(h.t.clock.now()), decided ? new Date(h.t.clock.now() + 3_600_000) : null],
      );
    const report = await buildReport(h.t.ctx.db, reportRange('2025-03-03', '2025-03-03')!);
    expect(report.onboarding.funnel.map((s) => [s.key, s.count, s.conversion])).toEqual([
      ['started', 1, null],
      ['phoneVerified', 1, 1],
      ['pinCreated', 1, 1],
      ['selfiePassed', 0, 0],
      ['documentPassed', 0, null],
      // Another way to the same place: no conversion of its own...
      ['verifiedByPerson', 1, null],
      // ...and 'Registrado' is of both ways in (0 + 1), not 1 out of 0.
      ['registered', 1, 1],
    ]);
    const text = reportText(report);
    expect(text).toMatch(/Verificado por una persona\s+1/);
  });

  it('funnels, conversions, exact medians and p90, top reasons, kiosk and daily series', async () => {
    await seed();
    const report = await buildReport(h.t.ctx.db, reportRange('2025-03-03', '2025-03-04')!);
    expect(report.onboarding.funnel.map((s) => [s.key, s.count, s.conversion])).toEqual([
      ['started', 4, null],
      ['phoneVerified', 2, 0.5],
      ['pinCreated', 2, 1],
      ['selfiePassed', 2, 1],
      ['documentPassed', 1, 0.5],
      ['verifiedByPerson', 0, null],
      ['registered', 1, 1],
    ]);
    expect(report.onboarding.funnel.at(-1)!.overall).toBe(0.25);
    const time = (step: string) => report.onboarding.times.find((t) => t.step === step)!;
    expect(time('registration')).toMatchObject({ n: 3, median: 20_000, p90: 28_000 });
    expect(time('verification')).toMatchObject({ n: 2, median: 30_000, p90: 38_000 });
    expect(time('selfie')).toMatchObject({ n: 2, median: 45_000, p90: 57_000 });
    expect(time('register')).toMatchObject({ n: 1, median: 2000, p90: 2000 });
    expect(report.onboarding.times.map((t) => t.step)).toEqual([
      'registration',
      'verification',
      'pin',
      'selfie',
      'document',
      'register',
      'welcome',
    ]);
    expect(time('welcome')).toEqual({
      step: 'welcome',
      n: 0,
      median: null,
      p90: null,
      quantiles: null,
    });
    // One failure, once: the refused selfie is the page's 'livenessNotDetected'; the engine's
    // 'eyes_never_closed' for it is a breakdown beside, not a second failure (issue 29 item 19).
    expect(report.onboarding.reasons).toEqual([
      { step: 'verification', error: 'wrongCode', source: 'browser', count: 2 },
      { step: 'selfie', error: 'livenessNotDetected', source: 'browser', count: 1 },
    ]);
    expect(report.onboarding.engineReasons).toEqual([
      { step: 'selfie', error: 'eyes_never_closed', source: 'engine', count: 1 },
    ]);
    expect(report.onboarding.daily).toEqual([
      { day: '2025-03-03', started: 3, completed: 1 },
      { day: '2025-03-04', started: 1, completed: 0 },
    ]);
    expect(report.recovery.funnel.map((s) => s.count)).toEqual([2, 1, 1, 1]);
    expect(report.recovery.reasons).toEqual([
      { step: 'request', error: 'sendFailed', source: 'browser', count: 1 },
    ]);
    expect(report.kiosk).toMatchObject({ attempts: 3, recognised: 2, notRecognised: 1 });
    expect(report.kiosk.time).toMatchObject({ median: 4000, p90: 4800 });

    // Only some journeys (support, the e2e spec).
    const one = await buildReport(h.t.ctx.db, reportRange('2025-03-03', '2025-03-05')!, {
      journeys: [J(2), J(5)].map((j) => storedJourneyId(h.t.ctx.secrets.otpSecret, j)),
    });
    expect(one.onboarding.funnel.map((s) => s.count)).toEqual([2, 1, 1, 1, 0, 0, 0]);
    expect(one.onboarding.reasons).toEqual([
      { step: 'selfie', error: 'livenessNotDetected', source: 'browser', count: 1 },
    ]);

    const text = reportText(report);
    expect(text).toContain('Registro iniciado');
    expect(text).toMatch(/Código SMS\s+2\s+30\.0 s\s+38\.0 s/);
    expect(text).toMatch(/Bienvenida\s+0\s+sin datos\s+sin datos/);
    expect(text).not.toMatch(/(^|\s)0\.0 s/);
    // The engine's breakdown comes after the failures, under its own heading.
    const engine = text.indexOf('Detalle del motor de identidad');
    expect(engine).toBeGreaterThan(text.indexOf('Tiempo agotado sin prueba de vida'));
    expect(text.indexOf('Nunca parpadeó (motor)')).toBeGreaterThan(engine);
    const html = reportHtml(report, new Date(FakeClock.START));
    expect(html.match(/<svg role="img" aria-label="[^"]+"/g)!.length).toBeGreaterThanOrEqual(12);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    // The step with no time: a table row saying so, and no box in the chart.
    expect(html).toMatch(/<th scope="row">Bienvenida<\/th><td>0<\/td><td>sin datos<\/td>/);
    expect(html).not.toMatch(/aria-label="Tiempo por paso del registro:[^"]*Bienvenida/);
    expect(html).not.toMatch(/>0\.0 s</);
    // Readable at 360 px: every table scrolls in its own focusable box, never the page.
    expect(html.match(/<div class="scroll"[^>]*tabindex="0"><table>/g)!.length).toBe(
      html.match(/<table>/g)!.length,
    );
  });

  it('writes reports to informes/, which git ignores, as it does .data-dev (issue 29 item 19)', () => {
    // git check-ignore exits 0 when the path is ignored (-q takes one path).
    for (const file of ['informes/informe-2026-11-01-2026-11-30.html', '.data-dev/pglite']) {
      expect(() =>
        execFileSync('git', ['check-ignore', '-q', file], {
          stdio: 'ignore',
          cwd: fileURLToPath(new URL('../..', import.meta.url)),
        }),
      ).not.toThrow();
    }
  });

  it('refuses a range that is not days or is backwards', () => {
    expect(reportRange('2025-03-04', '2025-03-03')).toBeNull();
    expect(reportRange('2025-02-30', '2025-03-03')).toBeNull();
    expect(reportRange('03/03/2025', '2025-03-03')).toBeNull();
    expect(reportRange('2025-03-03', '2025-03-03')).toMatchObject({
      from: new Date('2025-03-03T03:00:00Z'),
      to: new Date('2025-03-04T03:00:00Z'),
    });
  });
});
