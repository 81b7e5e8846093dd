import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { IdentityError, identityMessages, type IdentityErrorCode } from './errors';
import type { ImageLimits } from './image';
import type { FrameAnalysis } from './types';
import type { AnalyzeOptions, FramesOptions, FramesResult } from './worker/analyze';
import type { WorkerData, WorkerReady, WorkerResponse } from './worker/face-worker';
import { spawnTsWorker } from './worker/spawn';
import type { BackendSetting, InferenceBackend } from './worker/models';

type Work =
  | { op: 'analyze'; bytes: Uint8Array; opts: AnalyzeOptions }
  | { op: 'frames'; frames: Uint8Array[]; opts: FramesOptions };
type Task = {
  id: number;
  work: Work;
  resolve: (r: unknown) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
};
type Slot = {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  index: number;
  backend?: InferenceBackend;
};

type PoolOptions = {
  size: number;
  limits: ImageLimits;
  taskTimeoutMs: number;
  /** Refuse new work when this many tasks wait (backpressure), answered 503 'busy'. */
  maxQueue?: number;
  /** What runs the face models (IDENTITY_BACKEND); default `auto`. */
  backend?: BackendSetting;
  /** The onnxruntime-node package the workers load (default: the installed one). */
  onnxRuntime?: string;
  /**
   * Events: worker_ready, worker_error, worker_exit, worker_timeout, and native_unavailable (once
   * per pool, with the reason) when `auto` runs tfjs-wasm because onnxruntime cannot run.
   */
  onEvent?: (event: string, data: Record<string, unknown>) => void;
  /** Starts a face worker (default spawnFaceWorker); a wrapper may watch the workers it starts. */
  spawn?: (workerData: WorkerData) => Worker;
};

const workerUrl = new URL('./worker/face-worker.ts', import.meta.url);
/**
 * Where V8 starts the old generation's allocation limit in the isolates created from the pool's
 * start on (MiB; V8's --initial-old-space-size, which also floors the limit it recomputes after each
 * collection). V8's default made a busy face worker (31-33 MiB live) collect its old generation about
 * once every 9 selfie frames (69-72 full collections in a 12-patient bench run): its limit stayed
 * within a new space's size of the live heap, and V8 then starts marking at once. At 128 the same
 * runs made 10-20 and the server's CPU a selfie frame fell from 32.6 to 23.0-25.9 ms
 * (docs/measurements.md 'The face workers' full collections'); the pool's resident memory at its
 * traffic peak rose from 643-682 to 741-781 MiB (bench/identity-pool-memory.ts, 2 workers).
 * Process-wide (neither V8 nor Node's resourceLimits set it per isolate): the card and index
 * workers started later get it too; the main thread's isolate, created before, does not.
 */
export const WORKER_INITIAL_OLD_SPACE_MB = 128;
/** A face-analysis worker thread (worker/face-worker.ts). */
export const spawnFaceWorker = (workerData: WorkerData): Worker =>
  spawnTsWorker(workerUrl, workerData);

/**
 * A fixed pool of face-analysis workers (one model load each, warmed before ready), a FIFO queue,
 * a per-task timeout, and replacement of any worker that crashes or times out.
 */
export class FacePool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private readyWaiters: Array<() => void> = [];
  private startupFailures = 0;
  private fatal: Error | null = null;
  private fallbackLogged = false;
  replaced = 0;

  constructor(private readonly options: PoolOptions) {
    v8.setFlagsFromString(`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`);
    for (let i = 0; i < options.size; i++) this.slots.push(this.start(i));
  }

  /** Resolves when every worker has loaded and warmed its models. */
  async ready(): Promise<void> {
    while (!this.slots.every((s) => s.ready)) {
      if (this.fatal) throw this.fatal;
      if (this.closed) return;
      await new Promise<void>((r) => this.readyWaiters.push(r));
    }
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * What runs the face models in the ready workers: 'onnxruntime-node' or 'tfjs-wasm', 'mixed' if
   * they differ (a replaced worker could not load the native runtime), null before any is ready.
   */
  get backend(): InferenceBackend | 'mixed' | null {
    const running = new Set(this.slots.filter((s) => s.ready).map((s) => s.backend));
    if (running.size > 1) return 'mixed';
    return [...running][0] ?? null;
  }

  stats() {
    return {
      size: this.slots.length,
      busy: this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
      replaced: this.replaced,
      /** Tasks submitted since the pool started (model work asked for). */
      submitted: this.nextId - 1,
      backend: this.backend,
    };
  }

  analyze(bytes: Uint8Array, opts: AnalyzeOptions): Promise<FrameAnalysis> {
    return this.submit({ op: 'analyze', bytes, opts });
  }

  /** The frames of one liveness request, in order, in one task (one worker sees the whole sequence). */
  analyzeFrames(frames: Uint8Array[], opts: FramesOptions): Promise<FramesResult> {
    return this.submit({ op: 'frames', frames, opts });
  }

  private submit<T>(work: Work): Promise<T> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.closed) return Promise.reject(new IdentityError('busy', identityMessages.busy));
    const maxQueue = this.options.maxQueue ?? 64;
    if (this.queue.length >= maxQueue)
      return Promise.reject(new IdentityError('busy', identityMessages.busy));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        work,
        resolve: resolve as (r: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0))
      t.reject(new IdentityError('busy', identityMessages.busy));
    this.readyWaiters.splice(0).forEach((r) => r());
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private start(index: number): Slot {
    const { limits, backend = 'auto', onnxRuntime, spawn = spawnFaceWorker } = this.options;
    const worker = spawn({ limits, backend, onnxRuntime });
    const slot: Slot = { worker, ready: false, task: null, index };
    slot.worker.on('message', (msg: WorkerResponse | WorkerReady) => {
      if ('ready' in msg) {
        slot.ready = true;
        slot.backend = msg.backend;
        this.startupFailures = 0;
        if (msg.fallback !== undefined && !this.fallbackLogged) {
          // Once per pool: every worker of a machine meets the same reason.
          this.fallbackLogged = true;
          this.options.onEvent?.('native_unavailable', {
            reason: msg.fallback,
            backend: msg.backend,
          });
        }
        this.options.onEvent?.('worker_ready', { index, backend: msg.backend });
        this.readyWaiters.splice(0).forEach((r) => r());
        this.dispatch();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== msg.id) return;
      this.finish(slot);
      if (msg.ok) task.resolve(msg.result);
      else task.reject(new IdentityError(msg.error.code as IdentityErrorCode, msg.error.message));
      this.dispatch();
    });
    let lastError: string | undefined;
    slot.worker.on('error', (err) => {
      lastError = err.message;
      this.options.onEvent?.('worker_error', { index, error: err.message });
    });
    slot.worker.on('exit', (code) => {
      if (this.closed) return;
      const task = slot.task;
      this.options.onEvent?.('worker_exit', { index, code, hadTask: Boolean(task) });
      if (task) {
        this.finish(slot);
        task.reject(new IdentityError('worker_failed', identityMessages.busy));
      }
      if (!slot.ready && ++this.startupFailures >= 3 * this.options.size) {
        // The models cannot load at all (a broken install): fail loudly instead of respawning forever.
        this.fatal = new Error(`identity workers fail to start (${lastError ?? 'exit ' + code})`);
        for (const t of this.queue.splice(0)) t.reject(this.fatal);
        this.readyWaiters.splice(0).forEach((r) => r());
        return;
      }
      // Replace the dead worker in its slot; the queue waits for the replacement to warm up.
      const i = this.slots.indexOf(slot);
      if (i >= 0) {
        this.replaced++;
        this.slots[i] = this.start(index);
      }
    });
    return slot;
  }

  private finish(slot: Slot) {
    if (slot.task?.timer) clearTimeout(slot.task.timer);
    slot.task = null;
  }

  private dispatch() {
    for (const slot of this.slots) {
      if (!slot.ready || slot.task) continue;
      const task = this.queue.shift();
      if (!task) return;
      slot.task = task;
      task.timer = setTimeout(() => {
        // A stuck model call: kill the worker (the exit handler rejects the task and replaces it).
        this.options.onEvent?.('worker_timeout', {
          index: slot.index,
          ms: this.options.taskTimeoutMs,
        });
        void slot.worker.terminate();
      }, this.options.taskTimeoutMs);
      const w = task.work;
      if (w.op === 'analyze') {
        const copy = new Uint8Array(w.bytes);
        slot.worker.postMessage({ id: task.id, op: 'analyze', bytes: copy, opts: w.opts }, [
          copy.buffer,
        ]);
      } else {
        const copies = w.frames.map((f) => new Uint8Array(f));
        slot.worker.postMessage(
          { id: task.id, op: 'frames', frames: copies, opts: w.opts },
          copies.map((c) => c.buffer),
        );
      }
    }
  }
}
