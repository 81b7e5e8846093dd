/**
 * 'Descargar mis datos' (issue 45 item 2): the time to build a patient's file with a full history,
 * on PGlite in memory: a registration with its KYC session, a case that still keeps its images
 * (selfie, portrait, front, back: the committed fixtures, sealed as the cases area seals them) and
 * its fields, DOWNLOAD_AUDIT (40) rows of the case's record, and DOWNLOAD_LOGINS (1,000) logins
 * (a session and an access-log row each). Prints p50/p95 over DOWNLOAD_RUNS (20) of: the build alone
 * (reads, summary, zip), a first request (the build, sealed and stored, the log row), and a request
 * again within the window (the same file: the reads and their digest, no summary, zip or seal); the
 * file's size; os.loadavg().
 *   npx tsx bench/my-data-download.ts
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { caseSealer } from '../server/cases/seal';
import { buildDownloadFile, requestDownload } from '../server/my-data/download';
import { upsertPatient } from '../server/patients/service';
import { benchApp, pct } from './_api';
import { runIfMain } from './_identity';

const RUNS = Number(process.env.DOWNLOAD_RUNS ?? 20);
const LOGINS = Number(process.env.DOWNLOAD_LOGINS ?? 1000);
const AUDIT = Number(process.env.DOWNLOAD_AUDIT ?? 40);
const fixture = (name: string) => readFile(new URL(`../tests/fixtures/${name}`, import.meta.url));

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main() {
  const { app, ctx, close } = await benchApp();
  try {
    const { id } = await upsertPatient(ctx, {
      numero_documento: '4444444',
      pin: '739154',
      nombre: 'MARÍA JOSÉ',
      apellido: 'GONZÁLEZ BENÍTEZ',
      celular: '0981444444',
    });
    const db = ctx.db;
    const kyc = randomUUID();
    const now = new Date();
    await db.query(
      `INSERT INTO kyc_sessions (id, status, decider, liveness_state, expires_at, created_at, completed_at)
       VALUES ($1, 'completed', 'engine', '{}'::jsonb, $2, $2, $2)`,
      [kyc, now],
    );
    await db.query(
      'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, $3)',
      [kyc, id, now],
    );
    const caseId = randomUUID();
    const seal = caseSealer(ctx);
    const images = {
      selfie: await fixture('faces/blink-open.jpg'),
      portrait: await fixture('faces/blink-b-open.jpg'),
      front: await fixture('cedulas/card-1-front.jpg'),
      back: await fixture('cedulas/card-1-back.jpg'),
    };
    await db.query(
      `INSERT INTO cases (id, kind, status, trigger, step, kyc_session_id, opened_at, expected_by,
                          decided_at, selfie, portrait, front, back, fields, purge_after)
       VALUES ($1, 'review', 'approved', 'face_mismatch', 'selfie', $2, $3, $3, $3, $4, $5, $6, $7, $8, $9)`,
      [
        caseId,
        kyc,
        now,
        seal.seal(caseId, 'selfie', images.selfie),
        seal.seal(caseId, 'portrait', images.portrait),
        seal.seal(caseId, 'front', images.front),
        seal.seal(caseId, 'back', images.back),
        seal.sealJson(caseId, 'fields', { FullName: 'MARÍA JOSÉ GONZÁLEZ BENÍTEZ' }),
        new Date(now.getTime() + 30 * 86_400_000),
      ],
    );
    await db.query(
      `INSERT INTO case_audit (case_id, operator_id, operator_usuario, action, at)
       SELECT $1, NULL, 'revisora', CASE WHEN i % 3 = 0 THEN 'view' ELSE 'image:selfie' END, $2
         FROM generate_series(1, $3) AS i`,
      [caseId, now, AUDIT],
    );
    await db.query(
      `INSERT INTO sessions (id_hash, patient_id, created_at, last_seen_at, expires_at, ended_at)
       SELECT md5(i::text), $1, $2::timestamptz - i * interval '1 hour', $2::timestamptz - i * interval '1 hour', $2::timestamptz, $2::timestamptz
         FROM generate_series(1, $3) AS i`,
      [id, now, LOGINS],
    );
    await db.query(
      `INSERT INTO patient_access_log (patient_id, kind, result, at)
       SELECT $1, 'login', CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'ok' END, $2::timestamptz - i * interval '1 hour'
         FROM generate_series(1, $3) AS i`,
      [id, now, LOGINS],
    );

    let size = 0;
    const build: number[] = [];
    const first: number[] = [];
    const again: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      build.push(await time(async () => (size = (await buildDownloadFile(ctx, id)).length)));
      await db.query('DELETE FROM my_data_downloads');
      first.push(await time(() => requestDownload(ctx, id)));
      again.push(await time(() => requestDownload(ctx, id)));
    }
    const line = (name: string, xs: number[]) =>
      `${name.padEnd(34)} p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms   p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms`;
    console.log(
      `my-data download: ${LOGINS} logins, ${AUDIT} case audit rows, 1 case with 4 images (${(
        Object.values(images).reduce((n, b) => n + b.length, 0) / 1024
      ).toFixed(0)} kB), ${RUNS} runs, PGlite in memory`,
    );
    console.log(line('build (read, summary, zip)', build));
    console.log(line('first request (build, seal, store)', first));
    console.log(line('again within the window', again));
    console.log(`file: ${(size / 1024).toFixed(0)} kB`);
    console.log(
      `load average: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await close();
    void app;
  }
}

runIfMain(import.meta.url, main);
