import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, waitFor } from 'xstate';
import {
  cameraConstraints,
  cameraErrorFrom,
  createCameraActor,
  type CameraEnv,
  type CameraErrorCode,
  type CameraEvent,
} from '../../machines/shared/camera';

class Listeners {
  private map = new Map<string, Set<() => void>>();
  addEventListener(type: string, l: () => void) {
    (this.map.get(type) ?? this.map.set(type, new Set()).get(type)!).add(l);
  }
  removeEventListener(type: string, l: () => void) {
    this.map.get(type)?.delete(l);
  }
  emit(type: string) {
    this.map.get(type)?.forEach((l) => l());
  }
  count(type: string) {
    return this.map.get(type)?.size ?? 0;
  }
}

class FakeTrack {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

function fakeStream() {
  const tracks = [new FakeTrack(), new FakeTrack()];
  return { tracks, stream: { getTracks: () => tracks } as unknown as MediaStream };
}

const denied = () => Object.assign(new Error('denied'), { name: 'NotAllowedError' });

function fakeEnv(opts: { secure?: boolean; media?: boolean; answers: Array<'ok' | Error> }) {
  const permission = Object.assign(new Listeners(), { state: 'prompt' as PermissionState });
  const page = Object.assign(new Listeners(), {
    visibilityState: 'visible' as DocumentVisibilityState,
  });
  const opened: ReturnType<typeof fakeStream>[] = [];
  const calls: MediaStreamConstraints[] = [];
  const env: CameraEnv = {
    isSecureContext: () => opts.secure ?? true,
    mediaDevices: () =>
      opts.media === false
        ? undefined
        : {
            getUserMedia: async (c?: MediaStreamConstraints) => {
              calls.push(c ?? {});
              const a = opts.answers.shift() ?? 'ok';
              if (a !== 'ok') throw a;
              const s = fakeStream();
              opened.push(s);
              return s.stream;
            },
          },
    cameraPermission: async () => permission,
    visibility: () => page,
  };
  return { env, permission, page, opened, calls };
}

/** A parent that keeps the camera invoked while `on` and records what it reports. */
function host(env: CameraEnv) {
  const machine = setup({
    types: {
      context: {} as { events: CameraEvent[] },
      events: {} as CameraEvent | { type: 'leave' } | { type: 'retry' },
    },
    actors: { camera: createCameraActor(env) },
  }).createMachine({
    context: { events: [] },
    initial: 'on',
    on: {
      'camera.ready': {
        actions: assign({ events: ({ context, event }) => [...context.events, event] }),
      },
      'camera.error': {
        actions: assign({ events: ({ context, event }) => [...context.events, event] }),
      },
      'camera.released': {
        actions: assign({ events: ({ context, event }) => [...context.events, event] }),
      },
    },
    states: {
      on: {
        invoke: { id: 'camera', src: 'camera', input: { facing: 'user', width: 640, height: 480 } },
        on: {
          leave: 'off',
          retry: {
            actions: ({ self }) =>
              self.getSnapshot().children.camera?.send({ type: 'camera.retry' }),
          },
        },
      },
      off: {},
    },
  });
  return createActor(machine).start();
}

const types = (a: ReturnType<typeof host>) =>
  a.getSnapshot().context.events.map((e) => (e.type === 'camera.error' ? e.code : e.type));

afterEach(() => vi.useRealTimers());

describe('camera actor (machines/shared/camera.ts)', () => {
  it('opens the camera with the facing mode and ideal resolution, and stops every track when its state is left', async () => {
    const f = fakeEnv({ answers: ['ok'] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    expect(types(actor)).toEqual(['camera.ready']);
    expect(f.calls[0]).toEqual({
      audio: false,
      video: { facingMode: { ideal: 'user' }, width: { ideal: 640 }, height: { ideal: 480 } },
    });
    expect(f.opened[0]!.tracks.every((t) => !t.stopped)).toBe(true);
    actor.send({ type: 'leave' });
    expect(f.opened[0]!.tracks.every((t) => t.stopped)).toBe(true);
    expect(f.page.count('visibilitychange')).toBe(0);
  });

  it.each<[string, { secure?: boolean; media?: boolean }, CameraErrorCode]>([
    ['an insecure origin', { secure: false }, 'insecureContext'],
    ['a browser without getUserMedia', { media: false }, 'unsupported'],
  ])('reports %s as a code without asking for the camera', async (_l, o, code) => {
    const f = fakeEnv({ ...o, answers: [] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    expect(types(actor)).toEqual([code]);
    expect(f.calls).toHaveLength(0);
  });

  it.each<[string, CameraErrorCode]>([
    ['NotAllowedError', 'permissionDenied'],
    ['SecurityError', 'permissionDenied'],
    ['NotFoundError', 'notFound'],
    ['OverconstrainedError', 'notFound'],
    ['NotReadableError', 'openFailed'],
    ['AbortError', 'openFailed'],
  ])('maps %s to %s', (name, code) => {
    expect(cameraErrorFrom(Object.assign(new Error(name), { name }))).toBe(code);
  });

  it('falls back to any camera when the preferred one is not there', async () => {
    const nf = Object.assign(new Error('nf'), { name: 'OverconstrainedError' });
    const f = fakeEnv({ answers: [nf, 'ok'] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    expect(types(actor)).toEqual(['camera.ready']);
    expect(f.calls[1]).toEqual({ audio: false, video: true });
  });

  it('reports notFound when there is no camera at all', async () => {
    const nf = () => Object.assign(new Error('nf'), { name: 'NotFoundError' });
    const f = fakeEnv({ answers: [nf(), nf()] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    expect(types(actor)).toEqual(['notFound']);
  });

  it('after a denial, opens the camera by itself when the permission changes to granted', async () => {
    const f = fakeEnv({ answers: [denied(), 'ok'] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    expect(types(actor)).toEqual(['permissionDenied']);
    await vi.waitFor(() => expect(f.permission.count('change')).toBe(1));
    f.permission.state = 'granted';
    f.permission.emit('change');
    await waitFor(actor, (s) => s.context.events.length > 1);
    expect(types(actor)).toEqual(['permissionDenied', 'camera.ready']);
    actor.send({ type: 'leave' });
    expect(f.permission.count('change')).toBe(0);
    expect(f.opened[0]!.tracks.every((t) => t.stopped)).toBe(true);
  });

  it('retries on camera.retry from its parent', async () => {
    const f = fakeEnv({
      answers: [Object.assign(new Error('busy'), { name: 'NotReadableError' }), 'ok'],
    });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.context.events.length > 1);
    expect(types(actor)).toEqual(['openFailed', 'camera.ready']);
  });

  it('releases the camera while the tab is hidden and reopens it when visible again', async () => {
    const f = fakeEnv({ answers: ['ok', 'ok'] });
    const actor = host(f.env);
    await waitFor(actor, (s) => s.context.events.length > 0);
    f.page.visibilityState = 'hidden';
    f.page.emit('visibilitychange');
    expect(f.opened[0]!.tracks.every((t) => t.stopped)).toBe(true);
    expect(types(actor)).toEqual(['camera.ready', 'camera.released']);
    f.page.visibilityState = 'visible';
    f.page.emit('visibilitychange');
    await waitFor(actor, (s) => s.context.events.length > 2);
    expect(types(actor)).toEqual(['camera.ready', 'camera.released', 'camera.ready']);
    expect(f.opened).toHaveLength(2);
  });

  it('stops a stream that arrives after its state was left', async () => {
    let resolve!: (s: MediaStream) => void;
    const s = fakeStream();
    const env: CameraEnv = {
      ...fakeEnv({ answers: [] }).env,
      mediaDevices: () => ({ getUserMedia: () => new Promise<MediaStream>((r) => (resolve = r)) }),
    };
    const actor = host(env);
    await vi.waitFor(() => expect(resolve).toBeTypeOf('function'));
    actor.send({ type: 'leave' });
    resolve(s.stream);
    await vi.waitFor(() => expect(s.tracks.every((t) => t.stopped)).toBe(true));
    expect(actor.getSnapshot().context.events).toEqual([]);
  });

  it('asks for no audio and only the constraints given', () => {
    expect(cameraConstraints({ facing: 'environment', width: 1920, height: 1080 })).toEqual({
      audio: false,
      video: {
        facingMode: { ideal: 'environment' },
        width: { ideal: 1920 },
        height: { ideal: 1080 },
      },
    });
  });
});
