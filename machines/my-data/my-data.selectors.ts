import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { DeletionMachine } from './deletion.machine';
import type { MyDataMachine } from './my-data.machine';
import type { MyFaceMachine } from './my-face.machine';
import type { MyDataSection } from './my-data.types';

type Snapshot = SnapshotFrom<MyDataMachine>;

/** The screen to show: loading, one section of the loaded data, or the failure. */
export type MyDataScreen = 'loading' | MyDataSection | 'failed';

export const selectMyDataScreen = (s: Snapshot): MyDataScreen => {
  if (s.matches({ showing: 'accesses' })) return 'accesses';
  if (s.matches({ showing: 'download' })) return 'download';
  if (s.matches({ showing: 'secondaryUse' })) return 'secondaryUse';
  if (s.matches({ showing: 'deletion' })) return 'deletion';
  if (s.matches({ showing: 'face' })) return 'face';
  if (s.matches({ showing: 'corrections' })) return 'corrections';
  if (s.matches('showing')) return 'data';
  if (s.hasTag('error')) return 'failed';
  return 'loading';
};

export const selectMyData = (s: Snapshot) => s.context.loaded?.data ?? null;
export const selectAccesses = (s: Snapshot) => s.context.loaded?.accesses ?? [];

/** The failure: the session ended (401: log in again) or anything else (try again). */
export const selectMyDataFailure = (s: Snapshot) => {
  const error = s.context.error;
  if (!s.hasTag('error') || !error) return null;
  return { sessionEnded: error.status === 401, error };
};

/** The 'Eliminar mi cuenta' child while its section is open (issue 45 item 6). */
export const selectDeletionActor = (s: Snapshot) =>
  s.children.deletion as ActorRefFrom<DeletionMachine> | undefined;

/** 'Mi rostro': the child machine of the face section, while it is shown. */
export const selectMyFaceRef = (s: Snapshot) =>
  (s.children.myFace ?? null) as ActorRefFrom<MyFaceMachine> | null;
