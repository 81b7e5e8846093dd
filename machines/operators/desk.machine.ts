import { assign, setup } from 'xstate';
import type { CameraInput } from '../shared/camera';
import { camera, DESK_CAPTURE, frameCapture } from './operators.actors';
import { operatorErrorFrom } from './operators.errors';
import type { DeskContext, DeskEvent } from './operators.types';

/** The desk's camera looks at the patient across the desk (the front camera of a laptop). */
export const DESK_CAMERA: CameraInput = { facing: 'user', width: 1280, height: 720 };

/** The desk camera as it opens. */
export const initialDeskContext = (): DeskContext => ({
  stream: null,
  cameraError: null,
  photo: null,
  error: null,
});

/**
 * The desk camera (a child of the case, for centro cases): the patient's live photo at the health
 * centre. The camera runs while the child does (leaving the desk stops it); 'Tomar foto' captures
 * the whole frame and ends with the photo, which the case uploads. A capture that fails goes back
 * to the live camera.
 */
export const deskMachine = setup({
  types: {
    context: {} as DeskContext,
    events: {} as DeskEvent,
    output: {} as Blob,
    tags: {} as 'busy' | 'error',
    children: {} as { camera: 'camera'; frameCapture: 'frameCapture' },
  },
  actors: { camera, frameCapture },
  actions: {
    assignStream: assign({
      stream: ({ event }) => (event.type === 'camera.ready' ? event.stream : null),
      cameraError: null,
    }),
    clearStream: assign({ stream: null }),
  },
}).createMachine({
  id: 'operatorDesk',
  context: initialDeskContext,
  invoke: { id: 'camera', src: 'camera', input: DESK_CAMERA },
  exit: 'clearStream',
  initial: 'opening',
  on: {
    'camera.error': {
      target: '.cameraFailed',
      actions: assign({ cameraError: ({ event }) => event.code }),
    },
    'camera.released': { target: '.opening', actions: 'clearStream' },
  },
  states: {
    opening: { on: { 'camera.ready': { target: 'live', actions: 'assignStream' } } },
    live: { on: { 'desk.capture': 'capturing' } },
    capturing: {
      tags: ['busy'],
      invoke: {
        id: 'frameCapture',
        src: 'frameCapture',
        input: ({ context }) => ({ stream: context.stream!, options: DESK_CAPTURE }),
        onDone: { target: 'done', actions: assign({ photo: ({ event }) => event.output }) },
        onError: {
          target: 'live',
          actions: assign({ error: ({ event }) => operatorErrorFrom(event.error) }),
        },
      },
    },
    cameraFailed: {
      tags: ['error'],
      on: {
        'camera.ready': { target: 'live', actions: 'assignStream' },
        'camera.retry': {
          actions: ({ self }) => self.getSnapshot().children.camera?.send({ type: 'camera.retry' }),
        },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context.photo!,
});

export type DeskMachine = typeof deskMachine;
