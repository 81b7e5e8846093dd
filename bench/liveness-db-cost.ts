/**
 * The database's share of a liveness request (figures, not a test): with face inference on
 * onnxruntime-node, the statements of a selfie request (session checks, the replay and duplicate
 * searches, the frames stored, the progress saved) are a large share of its CPU, and on PGlite they
 * run on the Node main thread (one core for every session).
 *
 * The real liveness service (server/identity/liveness-sessions.ts, liveness-decision.ts,
 * duplicates.ts, store/) runs against a stand-in face pool that answers at once with analyses made
 * beforehand, so this process's CPU is the main thread's database work (PGlite runs in it) plus the
 * service's own JS (the fine thumbnail comparisons): no face model runs. Each frame's fingerprint is
 * the worker's (`fingerprint` of a 160x180 frame: one of 23 fixture faces, tests/fixtures/faces,
 * where the patient's head sits, hand-held jitter, sensor noise); the frames of a request are the
 * browser's frame policy over 125 ms captures; eye ratios follow bench/_patient.ts' blinks, and a
 * frame whose eyes did not change is skipped as the worker would.
 *
 * The store is not empty: `stored` frames (default 6000) of earlier sessions (120 frames each, one
 * person each, the same 23 faces) in the last 48 h, then every finished bench session's. With
 * `faces` = 1 every patient and earlier session shows the blink fixture's face (as the identity
 * benches' patients do): every frame shares dHash bands with thousands of stored ones, the
 * crowded case of the replay and duplicate searches.
 *
 * Prints per database: statements per request by kind, with their wall and CPU time (serial: one
 * request at a time, sessions interleaved), request wall and CPU p50/p95, the main thread's CPU per
 * request (/proc/self/task), and a paced run (`sessions` concurrent sessions, default 12, each
 * polling every 700 ms as the browser does, ~17 requests/s): request p50/p95, main-thread CPU per
 * second and per request (on PostgreSQL also the database server's, from /proc), load average.
 *   npx tsx bench/liveness-db-cost.ts [stored=6000] [pglite|postgres|both=both] [paced seconds=20] [sessions=12] [faces=23]
 * PostgreSQL: BENCH_DATABASE_URL / TEST_DATABASE_URL, else a throwaway cluster (scripts/pg-test-cluster.sh).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Db } from '../server/db/client';
import { loadIdentityConfig } from '../server/identity/config';
import { fingerprint } from '../server/identity/image';
import { blinkDecider, type LivenessDecider } from '../server/identity/liveness';
import { createLivenessSessions } from '../server/identity/liveness-sessions';
import { silentLog } from '../server/identity/log';
import type { FacePool } from '../server/identity/pool';
import * as store from '../server/identity/store';
import type { FrameAnalysis } from '../server/identity/types';
import { selfieFramePolicy as policy, bufferFrame } from '../contract/frame-policy';
import { rng } from '../tests/fixtures/cedula';
import { fixture } from '../tests/identity/frames';
import { benchDb, percentile, runIfMain } from './_identity';
import { eyesAt, makePatient } from './_patient';
import { benchPostgres, cpuSeconds } from './_process';

const FRAMES_PER_STORED_SESSION = 120;
const POLLS_PER_PATIENT = 24;
const SERIAL_REQUESTS = 160;
const WARMUP = 20;

const config = loadIdentityConfig({ ...process.env, IDENTITY_POOL_SIZE: '1' });
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** The main thread's CPU seconds so far (/proc/self/task/<pid>: not the GC or libuv threads). */
function mainThreadCpu(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

// ---------------------------------------------------------------------------------------------
// Fingerprints made beforehand.

type Fp = { thumb: Buffer; dhash: bigint };
type Request = { images: Buffer[] };
type Patient = { requests: Request[] };

/** What the stand-in pool answers for each image (by identity). */
const analyses = new Map<Uint8Array, FrameAnalysis & { closed: number }>();

const FACES = [
  ...Array.from({ length: 21 }, (_, i) => `person-${String(i + 1).padStart(2, '0')}.jpg`),
  'blink-open.jpg',
  'blink-b-open.jpg',
];

/** A fixture face at the oval's aspect, larger than a frame so that a head can sit off centre. */
const rawFaces = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();
function rawFace(name: string) {
  let raw = rawFaces.get(name);
  if (!raw) {
    raw = sharp(fixture('faces', name))
      .resize(192, 216, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, width: info.width, height: info.height }));
    rawFaces.set(name, raw);
  }
  return raw;
}

/** A person in front of the camera: a face, where the head sits, the light. */
type Sitter = { face: string; head: [number, number]; brightness: number };
function sitter(seed: number, faces: string[]): Sitter {
  const r = rng(seed * 31 + 5);
  return {
    face: faces[seed % faces.length]!,
    head: [Math.round(r() * 20) - 10, Math.round(r() * 20) - 10],
    brightness: 0.85 + r() * 0.3,
  };
}

/**
 * One 160x180 frame of a sitter, fingerprinted as the worker does: the head where it sits, with
 * hand-held jitter as tests/identity/frames.ts' ovalFrame makes it at this size (up to 1 degree,
 * 1.5% zoom, 0.75 px) and sensor noise, so two frames of one sitter measure as two captures (1.8-8
 * apart, dHashes 0-5 bits), not as a duplicate. No JPEG round trip; the eyes are the stand-in
 * pool's business, not the pixels'.
 */
async function frameOf(who: Sitter, seed: number): Promise<Fp> {
  const src = await rawFace(who.face);
  const r = rng(seed * 7907 + 3);
  const u = () => r() * 2 - 1;
  const angle = (u() * Math.PI) / 180;
  const zoom = 1 + u() * 0.015;
  const tx = who.head[0] + u() * 0.75;
  const ty = who.head[1] + u() * 0.75;
  const cos = Math.cos(angle) / zoom;
  const sin = Math.sin(angle) / zoom;
  const W = 160;
  const H = 180;
  const { width: sw, height: sh, data } = src;
  const out = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const X = x - W / 2 - tx;
      const Y = y - H / 2 - ty;
      const sx = Math.min(sw - 1.001, Math.max(0, cos * X + sin * Y + sw / 2));
      const sy = Math.min(sh - 1.001, Math.max(0, -sin * X + cos * Y + sh / 2));
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = (y0 * sw + x0) * 3;
      const i01 = i00 + sw * 3;
      for (let c = 0; c < 3; c++) {
        const v =
          (data[i00 + c]! * (1 - fx) * (1 - fy) +
            data[i00 + 3 + c]! * fx * (1 - fy) +
            data[i01 + c]! * (1 - fx) * fy +
            data[i01 + 3 + c]! * fx * fy) *
            who.brightness +
          (r() + r() + r() - 1.5) * 3;
        out[(y * W + x) * 3 + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  return fingerprint({ data: out, width: W, height: H });
}

/**
 * What makes one frame's analysis: its fingerprint (base64 thumbnail, dHash), how closed its eyes
 * are (0 open ... 1 closed) and where the face box sits.
 */
type FrameFacts = { thumb: string; dhash: string; closed: number; at: [number, number] };
/** A patient: its face's description, and its requests, each its frames. */
type PatientFrames = { embedding: number[]; requests: FrameFacts[][] };

/** The analysis the stand-in pool answers for a frame (one face, eye ratio from its eyes). */
function analysisOf(f: FrameFacts, embedding: number[]): FrameAnalysis & { closed: number } {
  const ear = 0.3 - 0.16 * f.closed;
  return {
    width: 160,
    height: 180,
    luminance: 120,
    closed: f.closed,
    faces: [
      {
        box: [f.at[0], f.at[1], 84, 96],
        score: 0.95,
        ear: { left: ear, right: ear, mean: ear },
        luminance: 120,
        embedding,
      },
    ],
    fingerprint: { thumb: f.thumb, dhash: f.dhash },
    timings: { decodeMs: 0, detectMs: 0 },
  };
}

/**
 * A simulated patient's requests: the browser's policy over 125 ms captures, blinks as
 * bench/_patient.ts' patients blink (1.5-4 s apart, 100-250 ms closed), eye ratios from them.
 */
async function makeBenchPatient(seed: number, faces: string[]): Promise<PatientFrames> {
  const p = makePatient(seed, POLLS_PER_PATIENT * policy.pollEveryMs);
  const who = sitter(seed, faces);
  const r = rng(seed);
  const embedding = Array.from({ length: 1024 }, () => Number((r() - 0.5).toFixed(4)));
  const requests: FrameFacts[][] = [];
  let next = 0;
  for (let poll = 1; poll <= POLLS_PER_PATIENT; poll++) {
    let buffer: Array<{ capturedAt: number; data: number }> = [];
    for (; next <= poll * policy.pollEveryMs; next += policy.captureEveryMs)
      buffer = bufferFrame(policy, buffer, { capturedAt: next, data: next });
    const frames: FrameFacts[] = [];
    for (const f of policy.select(buffer)) {
      const fp = await frameOf(who, seed * 1000 + f.capturedAt);
      const jitter = () => Number(((r() - 0.5) * 2).toFixed(2));
      frames.push({
        thumb: fp.thumb.toString('base64'),
        dhash: fp.dhash.toString(),
        closed: eyesAt(p, f.capturedAt),
        at: [40 + jitter(), 45 + jitter()],
      });
    }
    requests.push(frames);
  }
  return { embedding, requests };
}

type Fingerprints = { stored: Array<{ fps: Fp[]; hoursAgo: number }>; patients: Patient[] };

/**
 * The store's and the patients' fingerprints, made once and kept in the system's temporary folder
 * (making them takes a minute or more on a busy machine; the figures do not depend on it). Every
 * image is a copy of one real 160x180 JPEG: only the upload checks and the stand-in pool (by
 * identity) read them.
 */
async function fingerprints(
  storedFrames: number,
  needed: number,
  faces: string[],
): Promise<Fingerprints> {
  const file = path.join(
    os.tmpdir(),
    `liveness-db-cost-v4-${storedFrames}-${needed}-${faces.length}.json`,
  );
  type Cached = {
    stored: Array<{ fps: Array<[string, string]>; hoursAgo: number }>;
    patients: PatientFrames[];
  };
  let cached: Cached | null = null;
  try {
    cached = JSON.parse(readFileSync(file, 'utf8')) as Cached;
  } catch {
    cached = null;
  }
  if (!cached) {
    const made = await makeFingerprints(storedFrames, needed, faces);
    cached = {
      stored: made.stored.map((s) => ({
        fps: s.fps.map((f) => [f.thumb.toString('base64'), f.dhash.toString()]),
        hoursAgo: s.hoursAgo,
      })),
      patients: made.patients,
    };
    writeFileSync(file, JSON.stringify(cached));
  }
  const jpeg = await sharp(fixture('faces', 'blink-open.jpg'))
    .resize(160, 180, { fit: 'cover' })
    .jpeg({ quality: 60 })
    .toBuffer();
  return {
    stored: cached.stored.map((s) => ({
      fps: s.fps.map(([t, h]) => ({ thumb: Buffer.from(t, 'base64'), dhash: BigInt(h) })),
      hoursAgo: s.hoursAgo,
    })),
    patients: cached.patients.map((p) => ({
      requests: p.requests.map((r) => ({
        images: r.map((f) => {
          const image = Buffer.from(jpeg);
          analyses.set(image, analysisOf(f, p.embedding));
          return image;
        }),
      })),
    })),
  };
}

/** Earlier sessions (120 frames each, one sitter each) and the bench's patients. */
async function makeFingerprints(storedFrames: number, needed: number, faces: string[]) {
  const stored: Array<{ fps: Fp[]; hoursAgo: number }> = [];
  const r = rng(7);
  let total = 0;
  for (let s = 0; total < storedFrames; s++) {
    const count = Math.min(FRAMES_PER_STORED_SESSION, storedFrames - total);
    total += count;
    const who = sitter(500_000 + s, faces);
    const fps: Fp[] = [];
    for (let i = 0; i < count; i++) fps.push(await frameOf(who, (500_000 + s) * 1000 + i));
    stored.push({ fps, hoursAgo: 1 + r() * 47 });
  }
  const patients: PatientFrames[] = [];
  for (let i = 0; i < needed; i++) patients.push(await makeBenchPatient(1000 + i, faces));
  return { stored, patients };
}

/**
 * The stand-in face pool: the precomputed analyses, with the worker's skipping (a frame whose eyes
 * did not change since the last analysed one of the request, once the baseline is measured) and
 * descriptions only where the decider's plan asks for them (the first frame when `describeFirst`,
 * the reopening after a closed frame, a moved face never here).
 */
const pool = {
  async analyzeFrames(
    images: Uint8Array[],
    opts: { describeFirst: boolean; analyseAll?: boolean; blink?: { closed: boolean } },
  ): Promise<FrameAnalysis[]> {
    let lastClosed: boolean | null = opts.blink?.closed ?? null;
    let lastAnalysed = -1;
    return images.map((img, i) => {
      const a = analyses.get(img)!;
      const closed = a.closed >= 0.5;
      if (!opts.analyseAll && lastAnalysed >= 0 && lastClosed === closed)
        return { ...a, faces: [], skipped: { of: lastAnalysed, change: 8 } };
      const describe = (i === 0 && opts.describeFirst) || (lastClosed === true && !closed);
      lastClosed = closed;
      lastAnalysed = i;
      const face = a.faces[0]!;
      return { ...a, faces: [{ ...face, embedding: describe ? face.embedding : undefined }] };
    });
  },
} as unknown as FacePool;

// ---------------------------------------------------------------------------------------------
// Statements counted and timed by kind.

const KINDS: Array<[RegExp, string]> = [
  [/^SELECT id, status, decider[\s\S]*FOR UPDATE/, 'loadSession FOR UPDATE'],
  [/^SELECT id, status, decider/, 'loadSession'],
  [/^UPDATE kyc_sessions SET frames_received/, 'countFrames'],
  [/pg_advisory_xact_lock/, 'lockBands'],
  [/^SELECT set_config/, 'set_config'],
  [/^WITH (scanned|probes)/, 'replay search'],
  [/unnest\(\$1::uuid\[\], \$2::int\[\]\)/, 'frameThumbs'],
  [/^SELECT (seq, encode\(thumb|f\.seq, f\.dhash)/, 'session duplicates'],
  [/^INSERT INTO liveness_frames/, 'insert frames'],
  [/^UPDATE kyc_sessions SET liveness_state/, 'saveLivenessProgress'],
];
const kindOf = (sql: string) =>
  KINDS.find(([re]) => re.test(sql.trim()))?.[1] ?? sql.trim().replace(/\s+/g, ' ').slice(0, 40);

type Tally = Map<string, { n: number; wall: number; cpu: number }>;
function tally(t: Tally, kind: string, wall: number, cpu: number) {
  const e = t.get(kind) ?? { n: 0, wall: 0, cpu: 0 };
  e.n++;
  e.wall += wall;
  e.cpu += cpu;
  t.set(kind, e);
}

/** `db` with every statement counted and timed into `current.t` (BEGIN and COMMIT: 'transaction'). */
function counting(db: Db, current: { t: Tally }): Db {
  const wrap = (inner: Db, top: boolean): Db => ({
    kind: inner.kind,
    async query(sql, params) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      try {
        return await inner.query(sql, params);
      } finally {
        tally(current.t, kindOf(sql), performance.now() - t0, cpuMs(process.cpuUsage(c0)));
      }
    },
    async transaction(fn) {
      if (!top) return fn(wrap(inner, false));
      const t = current.t;
      const e = t.get('BEGIN + COMMIT') ?? { n: 0, wall: 0, cpu: 0 };
      e.n += 2;
      t.set('BEGIN + COMMIT', e);
      return inner.transaction((tx) => fn(wrap(tx, false)));
    },
    close: () => inner.close(),
  });
  return wrap(db, true);
}

// ---------------------------------------------------------------------------------------------

async function fillStore(db: Db, stored: Array<{ fps: Fp[]; hoursAgo: number }>) {
  for (const s of stored) {
    const id = randomUUID();
    await store.insertSession(db, id, 'blink', {}, 30 * 60_000);
    await db.query(
      `INSERT INTO liveness_frames (session_id, seq, thumb, dhash, b0, b1, b2, b3, counted, created_at)
       SELECT $1, i, t, h, h >> 48 & 65535, h >> 32 & 65535, h >> 16 & 65535, h & 65535, true,
              now() - ($4::float8 * interval '1 hour') + (i * interval '125 milliseconds')
         FROM unnest($2::bytea[], $3::bigint[]) WITH ORDINALITY AS x(t, h, i)`,
      [
        id,
        s.fps.map((f) => f.thumb),
        s.fps.map((f) => BigInt.asIntN(64, f.dhash).toString()),
        s.hoursAgo,
      ],
    );
  }
}

type Slot = { patient: number; request: number; sessionId: string | null };

async function runOn(
  url: string | undefined,
  stored: Array<{ fps: Fp[]; hoursAgo: number }>,
  patients: Patient[],
  pacedSeconds: number,
  concurrent: number,
) {
  const database = await benchDb(url);
  const current = { t: new Map() as Tally };
  const db = counting(database.db, current);
  const clock = { now: Date.now(), real: false };
  const decider = blinkDecider({
    ...config.liveness,
    continuityThreshold: config.continuityThreshold,
  }) as LivenessDecider<unknown>;
  const sessions = createLivenessSessions({
    config,
    pool,
    log: silentLog,
    now: () => (clock.real ? Date.now() : clock.now),
    decider,
  });
  const pgPids = async () =>
    url
      ? (await database.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map(
          (r) => r.pid,
        )
      : [];
  const serverCpu = (pids: number[]) =>
    pids.reduce((s, pid) => {
      try {
        return s + cpuSeconds(pid);
      } catch {
        return s;
      }
    }, 0);
  try {
    const t0 = performance.now();
    await fillStore(database.db, stored);
    const n = stored.reduce((a, s) => a + s.fps.length, 0);
    console.log(
      `\n${database.kind}: ${n} frames of ${stored.length} earlier sessions stored in ${Math.round((performance.now() - t0) / 1000)} s; load average ${loadavg()}`,
    );
    if (url) await database.db.query('ANALYZE');

    let nextPatient = 0;
    /** The slot's next request, starting the next patient's session when one ends. */
    const step = async (slot: Slot): Promise<{ wall: number; cpu: number; t: Tally }> => {
      if (!slot.sessionId || slot.request >= patients[slot.patient]!.requests.length) {
        slot.patient = nextPatient++ % patients.length;
        if (nextPatient > patients.length) throw new Error('bench: more patients needed');
        slot.request = 0;
        slot.sessionId = (await sessions.startSession(db)).sessionId;
      }
      const req = patients[slot.patient]!.requests[slot.request++]!;
      // Serial: each session sees 700 ms between its own requests.
      clock.now += policy.pollEveryMs / concurrent;
      const t: Tally = new Map();
      current.t = t;
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const answer = await sessions.livenessFrames(db, slot.sessionId, req.images);
      const wall = performance.now() - w0;
      const cpu = cpuMs(process.cpuUsage(c0));
      if (answer.liveness_detected || answer.time_up) slot.sessionId = null;
      return { wall, cpu, t };
    };

    // Serial: one request at a time, `concurrent` sessions interleaved.
    const slots: Slot[] = Array.from({ length: concurrent }, () => ({
      patient: 0,
      request: 0,
      sessionId: null,
    }));
    const walls: number[] = [];
    const cpus: number[] = [];
    const total: Tally = new Map();
    let main0 = 0;
    let server0 = new Map<number, number>();
    for (let i = 0; i < WARMUP + SERIAL_REQUESTS; i++) {
      if (i === WARMUP) {
        main0 = mainThreadCpu();
        server0 = new Map((await pgPids()).map((pid) => [pid, serverCpu([pid])]));
      }
      const r = await step(slots[i % concurrent]!);
      if (i < WARMUP) continue;
      walls.push(r.wall);
      cpus.push(r.cpu);
      for (const [k, v] of r.t) {
        const e = total.get(k) ?? { n: 0, wall: 0, cpu: 0 };
        e.n += v.n;
        e.wall += v.wall;
        e.cpu += v.cpu;
        total.set(k, e);
      }
    }
    const mainPerRequest = ((mainThreadCpu() - main0) * 1000) / SERIAL_REQUESTS;
    const serverSerial = (await pgPids()).reduce(
      (sum, pid) => sum + serverCpu([pid]) - (server0.get(pid) ?? 0),
      0,
    );
    const per = (x: number) => Number((x / SERIAL_REQUESTS).toFixed(2));
    const statements = [...total.values()].reduce((a, e) => a + e.n, 0);
    console.log(
      `serial, ${SERIAL_REQUESTS} requests (${concurrent} sessions interleaved): ${per(statements)} statements per request; wall p50 ${percentile(walls, 50).toFixed(1)} ms, p95 ${percentile(walls, 95).toFixed(1)} ms; CPU p50 ${percentile(cpus, 50).toFixed(1)} ms, p95 ${percentile(cpus, 95).toFixed(1)} ms; main thread ${mainPerRequest.toFixed(1)} ms per request${url ? `, PostgreSQL server ${((serverSerial * 1000) / SERIAL_REQUESTS).toFixed(1)} ms per request` : ''}; load average ${loadavg()}`,
    );
    console.table(
      Object.fromEntries(
        [...total.entries()]
          .sort((a, b) => b[1].cpu - a[1].cpu)
          .map(([k, e]) => [
            k,
            { perRequest: per(e.n), wallMsPerRequest: per(e.wall), cpuMsPerRequest: per(e.cpu) },
          ]),
      ),
    );

    // Paced: each session polls every 700 ms (the next request 700 ms after the last was sent, or
    // at once when its answer came later), as the browser does.
    if (pacedSeconds > 0) {
      clock.real = true;
      const lat: number[] = [];
      let count = 0;
      let statementsPaced = 0;
      const before = new Map((await pgPids()).map((pid) => [pid, serverCpu([pid])]));
      const m0 = mainThreadCpu();
      const c0 = process.cpuUsage();
      const start = performance.now();
      const end = start + pacedSeconds * 1000;
      await Promise.all(
        Array.from({ length: concurrent }, async (_, k) => {
          const slot: Slot = { patient: 0, request: 0, sessionId: null };
          // Spread the sessions' first polls over one period.
          await new Promise((r) => setTimeout(r, (k * policy.pollEveryMs) / concurrent));
          while (performance.now() < end) {
            const sent = performance.now();
            const r = await step(slot);
            lat.push(r.wall);
            count++;
            statementsPaced += [...r.t.values()].reduce((a, e) => a + e.n, 0);
            const wait = sent + policy.pollEveryMs - performance.now();
            if (wait > 0) await new Promise((res) => setTimeout(res, wait));
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const main = mainThreadCpu() - m0;
      const proc = cpuMs(process.cpuUsage(c0)) / 1000;
      // Backends that connected during the run count from zero.
      const server = (await pgPids()).reduce(
        (sum, pid) => sum + serverCpu([pid]) - (before.get(pid) ?? 0),
        0,
      );
      console.log(
        `paced, ${concurrent} sessions polling every ${policy.pollEveryMs} ms for ${Math.round(seconds)} s: ${(count / seconds).toFixed(1)} requests/s, ${(statementsPaced / count).toFixed(1)} statements per request; request p50 ${percentile(lat, 50).toFixed(1)} ms, p95 ${percentile(lat, 95).toFixed(1)} ms; main thread ${((main * 1000) / seconds).toFixed(0)} ms/s (${((main * 1000) / count).toFixed(1)} ms per request), process ${((proc * 1000) / count).toFixed(1)} ms per request${url ? `, PostgreSQL server ${((server * 1000) / count).toFixed(1)} ms per request` : ''}; load average ${loadavg()}`,
      );
    }
  } finally {
    await database.close();
  }
}

export async function main() {
  const storedFrames = Number(process.argv[2] ?? 6000);
  const which = process.argv[3] ?? 'both';
  const pacedSeconds = Number(process.argv[4] ?? 20);
  const concurrent = Number(process.argv[5] ?? 12);
  // One face: everybody shares dHash bands with everybody (the crowded case: bench/identity-*
  // benches' patients are all the blink fixture's face).
  const faceCount = Number(process.argv[6] ?? FACES.length);
  const faces = faceCount === 1 ? ['blink-open.jpg'] : FACES.slice(0, faceCount);
  console.log(
    `liveness request DB cost, ${faces.length} face(s); ${os.cpus().length} cores, load average ${loadavg()}; preparing fingerprints`,
  );
  const t0 = performance.now();
  // Patients: enough for the serial and the paced runs (a patient passes in ~10-20 polls).
  const needed = Math.ceil(
    (WARMUP + SERIAL_REQUESTS + (concurrent * pacedSeconds * 1000) / policy.pollEveryMs) / 6 +
      concurrent * 2,
  );
  const { stored, patients } = await fingerprints(storedFrames, needed, faces);
  console.log(
    `${storedFrames} stored and ${patients.length} patients' fingerprints ready in ${Math.round((performance.now() - t0) / 1000)} s`,
  );

  if (which !== 'postgres') await runOn(undefined, stored, patients, pacedSeconds, concurrent);
  if (which !== 'pglite') {
    const postgres = await benchPostgres();
    if (!postgres) console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or install postgresql');
    else
      try {
        await runOn(postgres.url, stored, patients, pacedSeconds, concurrent);
      } finally {
        await postgres.stop();
      }
  }
}

runIfMain(import.meta.url, main);
