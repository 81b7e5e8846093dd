/**
 * PIN recovery's equal answers, timed (issue 8): does send-pin-otp answer a real document with its
 * registered mobile as fast as a real document with another mobile and an unknown document? And
 * does validate-pin-otp with a wrong code? In-process (app.inject) on an in-memory PGlite, with
 * the development outbox and with a simulated SMS gateway that takes 200 ms per message (the SMS
 * goes out after the answer, so the gateway's latency must not show). Prints p50/p95 in ms and
 * the p50 differences; no budget is enforced (shared, noisy machine).
 *
 *   npx tsx bench/recovery-timing.ts        (BENCH_RECOVERY_N samples per kind, default 60)
 */
import { pathToFileURL } from 'node:url';
import { benchApp, pct } from './_api';
import { loadOnboardingSettings } from '../server/onboarding/config';
import { upsertPatient } from '../server/patients/service';
import { recoveryIdle } from '../server/recovery/service';
import type { SmsSender } from '../server/sms/sender';

const N = Number(process.env.BENCH_RECOVERY_N ?? 60);

const phone = (prefix: string, i: number) => `098${prefix}${String(i).padStart(6, '0')}`;

async function run(label: string, slowGateway: boolean): Promise<void> {
  const gateway: SmsSender = {
    provider: 'http',
    send: () => new Promise((resolve) => setTimeout(resolve, 200)),
  };
  const { app, ctx, close } = await benchApp(
    {},
    {
      onboarding: loadOnboardingSettings({ SMS_MAX_PER_CLIENT_HOUR: '100000' }, 'test'),
      ...(slowGateway ? { sms: gateway } : {}),
    },
  );
  // One patient per sample, so no document, mobile or address reaches a cap.
  for (let i = 0; i < N; i++) {
    await upsertPatient(ctx, {
      numero_documento: String(2_000_000 + i),
      pin: '739154',
      nombre: 'B',
      apellido: 'B',
      celular: phone('1', i),
    });
  }
  const time = async (url: string, body: object, ip: string, status: number) => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url, payload: body, remoteAddress: ip });
    const ms = performance.now() - t0;
    if (res.statusCode !== status) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    // The SMS work a real send started runs after its answer; it must not land in the next sample.
    await recoveryIdle(ctx);
    return ms;
  };
  const send = (documento: string, celular: string, ip: string) =>
    time('/api/auth/send-pin-otp', { numero_documento: documento, celular }, ip, 200);
  const validate = (documento: string, celular: string, ip: string) =>
    time(
      '/api/auth/validate-pin-otp',
      { numero_documento: documento, celular, otp: '000000' },
      ip,
      401,
    );
  const runs = {
    'send: real document + its mobile': [] as number[],
    'send: real document + other mobile': [] as number[],
    'send: unknown document': [] as number[],
    'validate (wrong code): real document': [] as number[],
    'validate (wrong code): unknown document': [] as number[],
  };
  const [real, otherMobile, unknown, vReal, vUnknown] = Object.values(runs);
  for (let i = 0; i < N; i++) {
    // Interleaved, so machine noise hits every kind alike.
    real!.push(await send(String(2_000_000 + i), phone('1', i), `10.1.${i >> 8}.${i & 255}`));
    otherMobile!.push(
      await send(String(2_000_000 + i), phone('2', i), `10.2.${i >> 8}.${i & 255}`),
    );
    unknown!.push(await send(String(3_000_000 + i), phone('3', i), `10.3.${i >> 8}.${i & 255}`));
    vReal!.push(await validate(String(2_000_000 + i), phone('1', i), `10.4.${i >> 8}.${i & 255}`));
    vUnknown!.push(
      await validate(String(3_000_000 + i), phone('3', i), `10.5.${i >> 8}.${i & 255}`),
    );
  }
  console.log(`recovery-timing (${label}): ${N} samples each, in-process (app.inject)`);
  for (const [name, xs] of Object.entries(runs)) {
    console.log(
      `  ${name.padEnd(40)} p50 ${pct(xs, 50).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms`,
    );
  }
  const diff = (a: number[], b: number[]) => (pct(a, 50) - pct(b, 50)).toFixed(2);
  console.log(`  send p50 difference, real - unknown document: ${diff(real!, unknown!)} ms`);
  console.log(`  send p50 difference, real - other mobile:     ${diff(real!, otherMobile!)} ms`);
  console.log(`  validate p50 difference, real - unknown:      ${diff(vReal!, vUnknown!)} ms`);
  await close();
}

export async function main(): Promise<void> {
  await run('development outbox', false);
  await run('SMS gateway taking 200 ms', true);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
