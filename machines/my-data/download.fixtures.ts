import type { SnapshotFrom } from 'xstate';
import type { DownloadReady } from '../../contract/my-data-download';
import { downloadMachine } from './download.machine';
import { MY_DATA_LOADED } from './my-data.fixtures';
import { myDataMachine } from './my-data.machine';
import { secondaryUseMachine } from './secondary-use.machine';

/** A ready file; its link far ahead, so a story never sees it expire. */
export const DOWNLOAD_READY: DownloadReady = {
  success: true,
  status: 'ready',
  token: 'kF3s9vQ1x7Lm2Rb8Tz0Wc5Yh4Jn6Pd1Ae9Gu3Io7Sq2',
  expiresAt: '2099-11-28T14:15:00.000Z',
  fileName: 'mis-datos-2026-11-28.zip',
  size: 418_304,
};

const download = (
  value: string,
  context: Partial<SnapshotFrom<typeof downloadMachine>['context']>,
) =>
  downloadMachine.resolveState({
    value,
    context: { ready: null, retryAfterMs: 1000, error: null, ...context },
  });

export const downloadFixtures = {
  asking: download('asking', {}),
  building: download('building', {}),
  waiting: download('waiting', {}),
  ready: download('ready', { ready: DOWNLOAD_READY }),
  expired: download('expired', { ready: DOWNLOAD_READY }),
  failed: download('failed', { error: { code: 'network' } }),
  sessionEnded: download('failed', { error: { code: 'server', status: 401 } }),
};

const secondary = (
  value: string | Record<string, string>,
  context: Partial<SnapshotFrom<typeof secondaryUseMachine>['context']>,
) =>
  secondaryUseMachine.resolveState({
    value,
    context: { saved: null, chosen: null, error: null, ...context },
  });
const SAVED_IN = { optedOut: false, changedAt: null };
const SAVED_OUT = { optedOut: true, changedAt: '2026-11-28T14:00:00.000Z' };

export const secondaryUseFixtures = {
  loading: secondary('loading', {}),
  loadFailed: secondary('loadFailed', { error: { code: 'network' } }),
  showing: secondary({ showing: 'idle' }, { saved: SAVED_IN }),
  optedOut: secondary({ showing: 'idle' }, { saved: SAVED_OUT }),
  saving: secondary({ showing: 'saving' }, { saved: SAVED_IN, chosen: true }),
  saved: secondary({ showing: 'saved' }, { saved: SAVED_OUT }),
  saveFailed: secondary(
    { showing: 'saveFailed' },
    { saved: SAVED_IN, chosen: true, error: { code: 'network' } },
  ),
};

type MyDataSnapshot = SnapshotFrom<typeof myDataMachine>;

/**
 * Mis datos on a section with its child restored at one of its fixtures, the way a persisted
 * snapshot carries its children: an actor started from it (a story) runs the child in that state.
 */
function withChild(
  section: 'download' | 'secondaryUse',
  child: SnapshotFrom<typeof downloadMachine> | SnapshotFrom<typeof secondaryUseMachine>,
): MyDataSnapshot {
  return {
    ...myDataMachine.resolveState({
      value: { showing: section },
      context: { loaded: MY_DATA_LOADED, error: null },
    }),
    children: { [section]: { snapshot: child, src: section, syncSnapshot: false } },
  } as unknown as MyDataSnapshot;
}

const on = <T extends Record<string, Parameters<typeof withChild>[1]>>(
  section: 'download' | 'secondaryUse',
  fixtures: T,
) =>
  Object.fromEntries(
    Object.entries(fixtures).map(([name, child]) => [name, withChild(section, child)]),
  ) as Record<keyof T, MyDataSnapshot>;

/** Mis datos at every state of the download's and the secondary uses' sections. */
export const myDataDownloadFixtures = on('download', downloadFixtures);
export const myDataSecondaryUseFixtures = on('secondaryUse', secondaryUseFixtures);
