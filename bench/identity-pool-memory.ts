/**
 * What a pool of identity workers holds in memory, per backend (IDENTITY_BACKEND onnx and wasm):
 * each run is a fresh child process with a FacePool of BENCH_POOL_SIZE workers (2), and its resident
 * set size (VmRSS, MiB) is read from /proc:
 *   - before: the child with its frames made, before the pool starts;
 *   - ready: every worker loaded (on onnx: converted, checked, swapped, tfjs weights released) and
 *     warmed;
 *   - traffic: peak of the samples while every worker analyses, BENCH_POOL_ROUNDS rounds (12) of: a
 *     liveness request of 8 oval frames, a kiosk frame, a card's front as the browser uploads it
 *     (2000 px wide, described at the engine's 1280 px) and a few fixture faces with descriptions;
 *   - idle: after the traffic, and the process' peak (VmHWM).
 * The backends (BENCH_POOL_BACKENDS, 'onnx,wasm') alternate, BENCH_POOL_RUNS runs each (2); the
 * pool's figure is RSS minus "before".
 * Prints the load average. RSS varies by 20-40 MiB from run to run (the workers load at the same
 * time, and what the allocator keeps depends on the interleaving): compare ranges. Figures, not a
 * test.
 *   npx tsx bench/identity-pool-memory.ts
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { FacePool } from '../server/identity/pool';
import type { BackendSetting } from '../server/identity/worker/models';
import { cameraFrame, fixture, fixtures, ovalFrame } from '../tests/identity/frames';
import { runIfMain } from './_process';

const SIZE = Number(process.env.BENCH_POOL_SIZE ?? 2);
const ROUNDS = Number(process.env.BENCH_POOL_ROUNDS ?? 12);
const RUNS = Number(process.env.BENCH_POOL_RUNS ?? 2);
const BACKENDS = (process.env.BENCH_POOL_BACKENDS ?? 'onnx,wasm').split(',') as BackendSetting[];
const limits = { maxUploadBytes: 8 << 20, maxPixels: 40_000_000, minImageSide: 64 };

type Figures = {
  backend: string;
  before: number;
  ready: number;
  traffic: number;
  idle: number;
  hwm: number;
  seconds: number;
};

function status(): { rss: number; hwm: number } {
  const s = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(s)?.[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Child side: one pool, its memory at each stage, printed as one JSON line. */
async function child(setting: BackendSetting) {
  const faces = readdirSync(path.join(fixtures, 'faces'))
    .filter((f) => f.endsWith('.jpg'))
    .map((f) => fixture('faces', f));
  const cards = await Promise.all(
    readdirSync(path.join(fixtures, 'cedulas'))
      .filter((f) => /front\.jpg$/.test(f))
      .map((f) => sharp(fixture('cedulas', f)).resize({ width: 2000 }).jpeg().toBuffer()),
  );
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const liveness = [];
    for (let k = 0; k < 8; k++)
      liveness.push(await ovalFrame({ seed: r * 8 + k + 1, width: 160, quality: 60 }));
    const kiosk = await cameraFrame('blink-open.jpg', { seed: r + 1 });
    rounds.push({ liveness, kiosk });
  }
  const before = status().rss;
  const t0 = performance.now();
  const pool = new FacePool({ size: SIZE, limits, taskTimeoutMs: 120_000, backend: setting });
  try {
    await pool.ready();
    const ready = status().rss;
    let traffic = ready;
    const sample = setInterval(() => (traffic = Math.max(traffic, status().rss)), 100);
    // Every worker busy: one liveness request, one kiosk frame and a few fixture faces per worker.
    for (const [r, { liveness, kiosk }] of rounds.entries())
      await Promise.all(
        Array.from({ length: SIZE }, async (_, w) => {
          await pool.analyzeFrames(liveness, { describeFirst: true, unchangedBelow: 0 });
          await pool.analyze(kiosk, { embedding: 'all', maxSide: 640, fingerprint: true });
          await pool.analyze(cards[(r * SIZE + w) % cards.length]!, { embedding: 'all' });
          for (let i = (r * SIZE + w) % 3; i < faces.length; i += 3 * SIZE)
            await pool.analyze(faces[i]!, { embedding: 'all', fingerprint: true });
        }),
      );
    clearInterval(sample);
    await delay(2000);
    const end = status();
    const figures: Figures = {
      backend: String(pool.backend),
      before,
      ready,
      traffic: Math.max(traffic, end.rss),
      idle: end.rss,
      hwm: end.hwm,
      seconds: (performance.now() - t0) / 1000,
    };
    console.log(JSON.stringify(figures));
  } finally {
    await pool.close();
  }
}

function run(setting: BackendSetting): Promise<Figures> {
  const self = fileURLToPath(import.meta.url);
  const p = spawn(process.execPath, ['--import', 'tsx', self, '--child', setting], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    p.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) reject(new Error(`${setting} child exited ${code}: ${out}`));
      else resolve(JSON.parse(line) as Figures);
    }),
  );
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const mib = (n: number) => n.toFixed(0).padStart(4);

export async function main() {
  console.log(
    `identity-pool-memory: ${SIZE} workers, ${ROUNDS} rounds, ${RUNS} runs per backend; load average ${loadavg()} on ${os.cpus().length} cores`,
  );
  const results = new Map<string, Figures[]>();
  for (let i = 0; i < RUNS; i++)
    for (const setting of i % 2 ? [...BACKENDS].reverse() : BACKENDS) {
      const f = await run(setting);
      results.set(f.backend, [...(results.get(f.backend) ?? []), f]);
      console.log(
        `  ${f.backend.padEnd(16)} RSS MiB: before ${mib(f.before)} | ready ${mib(f.ready)} (pool ${mib(f.ready - f.before)})` +
          ` | traffic peak ${mib(f.traffic)} (pool ${mib(f.traffic - f.before)}) | idle after ${mib(f.idle)} (pool ${mib(f.idle - f.before)})` +
          ` | VmHWM ${mib(f.hwm)} | ${f.seconds.toFixed(0)} s; load ${loadavg()}`,
      );
    }
  for (const [backend, fs] of results) {
    const range = (pick: (f: Figures) => number) => {
      const v = fs.map(pick);
      return `${mib(Math.min(...v))}-${mib(Math.max(...v)).trim()}`;
    };
    console.log(
      `  ${backend.padEnd(16)} pool RSS MiB (min-max of ${fs.length}): ready ${range((f) => f.ready - f.before)}, traffic peak ${range((f) => f.traffic - f.before)}, idle after ${range((f) => f.idle - f.before)}`,
    );
  }
}

const i = process.argv.indexOf('--child');
if (i >= 0) await child(process.argv[i + 1] as BackendSetting);
else runIfMain(import.meta.url, main);
