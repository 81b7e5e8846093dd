import type { SnapshotFrom } from 'xstate';
import { downloadHref } from '../../contract/my-data-download';
import type { DownloadMachine } from './download.machine';
import type { MyDataMachine } from './my-data.machine';
import type { SecondaryUseMachine } from './secondary-use.machine';

type Parent = SnapshotFrom<MyDataMachine>;
type Download = SnapshotFrom<DownloadMachine>;
type SecondaryUse = SnapshotFrom<SecondaryUseMachine>;

/** The children of the download's and the secondary uses' sections (undefined elsewhere). */
export const selectDownloadActor = (s: Parent) => s.children.download;
export const selectSecondaryUseActor = (s: Parent) => s.children.secondaryUse;

export type DownloadScreen = 'asking' | 'building' | 'ready' | 'expired' | 'failed';

/** What the download's section shows: its state, the link while it works, the failure. */
export function selectDownloadView(s: Download) {
  const screen: DownloadScreen = s.matches('ready')
    ? 'ready'
    : s.matches('expired')
      ? 'expired'
      : s.hasTag('error')
        ? 'failed'
        : s.hasTag('busy')
          ? 'building'
          : 'asking';
  const ready = s.matches('ready') ? s.context.ready : null;
  return {
    screen,
    link: ready
      ? {
          href: downloadHref(ready.token),
          fileName: ready.fileName,
          size: ready.size,
          expiresAt: ready.expiresAt,
        }
      : null,
    error: s.hasTag('error') ? s.context.error : null,
    sessionEnded: s.context.error?.status === 401,
  };
}

export type SecondaryUseScreen = 'loading' | 'loadFailed' | 'showing';

/** The choice shown (the one being saved, or the saved one), and how saving went. */
export function selectSecondaryUseView(s: SecondaryUse) {
  const screen: SecondaryUseScreen = s.matches('showing')
    ? 'showing'
    : s.matches('loadFailed')
      ? 'loadFailed'
      : 'loading';
  return {
    screen,
    optedOut: s.context.chosen ?? s.context.saved?.optedOut ?? false,
    changedAt: s.context.saved?.changedAt ?? null,
    saving: s.matches({ showing: 'saving' }),
    saved: s.matches({ showing: 'saved' }),
    saveFailed: s.matches({ showing: 'saveFailed' }),
    sessionEnded: s.context.error?.status === 401,
  };
}
