import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { upsertPatient } from '../../server/patients/service';
import { loadRecoverySettings } from '../../server/recovery/config';
import { recoveryIdle } from '../../server/recovery/service';
import { FakeClock, useTestApp } from './helpers';

/**
 * PIN recovery's send-pin-otp must not tell, by the latency of the NEXT request, whether the
 * document and mobile belong together (issue 21, item 3): the work after the answer is the same
 * task for every input, started some time after the answer. With the development outbox (an
 * INSERT per SMS) on in-memory PGlite, whose queries run on the event loop like the embedded
 * database of a real server.
 */
const TRIALS = 40;

/**
 * The one test that measures the delivery delay for real: its clock sleeps on the wall clock
 * (every other test runs the delay on the fake clock, which advances at once).
 */
class WallSleepClock extends FakeClock {
  override sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
}

const h = useTestApp({
  clock: new WallSleepClock(),
  deps: {
    recovery: { ...loadRecoverySettings({}), deliveryDelayMs: { min: 150, max: 250 } },
  },
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};

describe('send-pin-otp and the request right after it', () => {
  it('a follow-up request is not slower after a matching pair than after a non-matching one', async () => {
    const patients = Array.from({ length: TRIALS / 2 }, (_, i) => ({
      numero_documento: String(6100000 + i),
      pin: '739154',
      nombre: 'ANA',
      apellido: 'RUIZ',
      celular: `0981${String(600000 + i)}`,
    }));
    for (const p of patients) await upsertPatient(h.t.ctx, p);
    // Over real HTTP (a kept-alive connection), as the probe measured it.
    await h.t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.t.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const ready = () =>
      fetch(`${base}/api/ready`).then((r) => r.arrayBuffer().then(() => r.status));
    for (let i = 0; i < 4; i++) await ready(); // warm up

    const times: Record<'match' | 'other', number[]> = { match: [], other: [] };
    for (let i = 0; i < TRIALS; i++) {
      const group = i % 2 === 0 ? 'match' : 'other';
      const p = patients[i >> 1]!;
      const celular = group === 'match' ? p.celular : `0982${String(700000 + i)}`;
      const res = await fetch(`${base}/api/auth/send-pin-otp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-test-trial': String(i) },
        body: JSON.stringify({ numero_documento: p.numero_documento, celular }),
      });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      const t0 = performance.now();
      expect(await ready()).toBe(200);
      times[group].push(performance.now() - t0);
      await recoveryIdle(h.t.ctx);
      h.t.clock.advance(60 * 60_000); // a fresh hour for the address's SMS cap
    }
    const m = { match: median(times.match), other: median(times.other) };
    console.log(
      `follow-up latency medians over ${TRIALS / 2} + ${TRIALS / 2} trials: match ${m.match.toFixed(2)} ms, other ${m.other.toFixed(2)} ms`,
    );
    // Every matching pair got its code; the groups' follow-ups are within noise of each other.
    const { rows } = await h.t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sms_outbox',
    );
    expect(rows[0]!.n).toBe(TRIALS / 2);
    expect(m.match).toBeLessThan(m.other * 1.5 + 0.5);
  }, 60_000);
});

describe('the work after the send-pin-otp answer', () => {
  const statements: string[] = [];
  let recording = false;
  const s = useTestApp({
    clock: new WallSleepClock(),
    deps: {
      recovery: { ...loadRecoverySettings({}), deliveryDelayMs: { min: 100, max: 100 } },
    },
  });
  const spy = () => {
    const db = s.t.ctx.db;
    const query = db.query.bind(db);
    db.query = ((sql: string, params?: unknown[]) => {
      // The follow-up's own statements (readiness) aside.
      if (recording && !/^SELECT 1$|schema_migrations/.test(sql.trim()))
        statements.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      return query(sql, params);
    }) as typeof db.query;
    return () => (db.query = query as typeof db.query);
  };

  it('is the same for every input: nothing right behind the answer, one later task each', async () => {
    const p = { numero_documento: '6200001', pin: '739154', nombre: 'A', apellido: 'B' };
    await upsertPatient(s.t.ctx, { ...p, celular: '0981620001' });
    const restore = spy();
    const seen: Record<string, string[]> = {};
    try {
      for (const [name, celular] of [
        ['match', '0981620001'],
        ['other', '0982620002'],
      ] as const) {
        const res = await s.t.app.inject({
          method: 'POST',
          url: '/api/auth/send-pin-otp',
          payload: { numero_documento: p.numero_documento, celular },
          remoteAddress: `10.41.0.${name.length}`,
        });
        expect(res.statusCode).toBe(200);
        // What runs between the answer and a request sent right after it.
        statements.length = 0;
        recording = true;
        await s.t.app.inject({ method: 'GET', url: '/api/ready' });
        for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
        recording = false;
        seen[name] = [...statements];
        await recoveryIdle(s.t.ctx);
      }
    } finally {
      restore();
    }
    expect(seen.match).toEqual([]);
    expect(seen.other).toEqual(seen.match);
    // The matching pair's code went out later.
    const { rows } = await s.t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM otp_codes',
    );
    expect(rows[0]!.n).toBe(1);
  });
});
