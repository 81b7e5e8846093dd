import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { DownloadResponse, SecondaryUseResponse } from '../../contract/my-data-download';
import { DOWNLOAD_READY } from '../../machines/my-data/download.fixtures';
import { downloadMachine } from '../../machines/my-data/download.machine';
import {
  selectDownloadActor,
  selectDownloadView,
  selectSecondaryUseActor,
  selectSecondaryUseView,
} from '../../machines/my-data/download.selectors';
import { MY_DATA_LOADED } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { selectMyDataScreen } from '../../machines/my-data/my-data.selectors';
import { secondaryUseMachine } from '../../machines/my-data/secondary-use.machine';
import { ApiError } from '../../machines/shared/errors';

function startDownload(answers: Array<() => DownloadResponse>) {
  const calls: number[] = [];
  const machine = downloadMachine.provide({
    actors: {
      requestDownload: fromPromise(async () => {
        calls.push(1);
        const next = answers.shift();
        if (!next) throw new Error('no answer left');
        return next();
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls, view: () => selectDownloadView(actor.getSnapshot()) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('myDataDownload machine (issue 45 item 2)', () => {
  it('asks, gets the link (its token in the query), and the link expires on time', async () => {
    vi.useFakeTimers();
    const ready = { ...DOWNLOAD_READY, expiresAt: new Date(Date.now() + 60_000).toISOString() };
    const { actor, view, calls } = startDownload([() => ready, () => ready]);
    expect(view().screen).toBe('asking');
    actor.send({ type: 'download.request' });
    expect(view().screen).toBe('building');
    await waitFor(actor, (s) => s.matches('ready'));
    expect(view().link).toEqual({
      href: `/api/mis-datos/descarga?t=${ready.token}`,
      fileName: ready.fileName,
      size: ready.size,
      expiresAt: ready.expiresAt,
    });
    vi.advanceTimersByTime(59_000);
    expect(view().screen).toBe('ready');
    vi.advanceTimersByTime(1_000);
    expect(view().screen).toBe('expired');
    expect(view().link).toBeNull();
    actor.send({ type: 'download.request' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toHaveLength(2);
  });

  it('while another request builds the file, asks again after the wait the server gave', async () => {
    vi.useFakeTimers();
    const { actor, calls } = startDownload([
      () => ({ success: true, status: 'building', retryAfterMs: 1500 }),
      () => DOWNLOAD_READY,
    ]);
    actor.send({ type: 'download.request' });
    await waitFor(actor, (s) => s.matches('waiting'));
    vi.advanceTimersByTime(1499);
    expect(calls).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(calls).toHaveLength(2);
  });

  it('a failure can be retried; a 401 says the session ended; a request while building is ignored', async () => {
    const { actor, view, calls } = startDownload([
      () => {
        throw new ApiError('network', undefined, undefined);
      },
      () => {
        throw new ApiError('server', 401, 'Tu sesión terminó.');
      },
    ]);
    actor.send({ type: 'download.request' });
    actor.send({ type: 'download.request' });
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(calls).toHaveLength(1);
    expect(view()).toMatchObject({ screen: 'failed', sessionEnded: false });
    actor.send({ type: 'download.retry' });
    await waitFor(actor, (s) => s.hasTag('error') && s.context.error?.status === 401);
    expect(view()).toMatchObject({ screen: 'failed', sessionEnded: true });
  });
});

function startSecondaryUse(save: (optedOut: boolean) => Promise<SecondaryUseResponse>) {
  const saves: boolean[] = [];
  const machine = secondaryUseMachine.provide({
    actors: {
      loadSecondaryUse: fromPromise<SecondaryUseResponse>(async () => ({
        success: true,
        optedOut: false,
        changedAt: null,
      })),
      storeSecondaryUse: fromPromise<SecondaryUseResponse, { optedOut: boolean }>(
        async ({ input }) => {
          saves.push(input.optedOut);
          return save(input.optedOut);
        },
      ),
    },
  });
  const actor = createActor(machine).start();
  return { actor, saves, view: () => selectSecondaryUseView(actor.getSnapshot()) };
}

describe('secondaryUse machine (issue 45 item 7)', () => {
  it('loads the choice, saves a change, shows it saved', async () => {
    const { actor, view, saves } = startSecondaryUse(async (optedOut) => ({
      success: true,
      optedOut,
      changedAt: '2026-11-28T14:00:00.000Z',
    }));
    expect(view().screen).toBe('loading');
    await waitFor(actor, (s) => s.matches('showing'));
    expect(view()).toMatchObject({ screen: 'showing', optedOut: false, saved: false });
    actor.send({ type: 'secondaryUse.choose', optedOut: true });
    expect(view()).toMatchObject({ saving: true, optedOut: true });
    // A second click while saving is not a second request.
    actor.send({ type: 'secondaryUse.choose', optedOut: false });
    await waitFor(actor, (s) => s.matches({ showing: 'saved' }));
    expect(saves).toEqual([true]);
    expect(view()).toMatchObject({ optedOut: true, changedAt: '2026-11-28T14:00:00.000Z' });
  });

  it('a failed save keeps what the patient chose on screen, and saves it again on retry', async () => {
    let fail = true;
    const { actor, view, saves } = startSecondaryUse(async (optedOut) => {
      if (fail) throw new ApiError('network', undefined, undefined);
      return { success: true, optedOut, changedAt: '2026-11-28T14:00:00.000Z' };
    });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'secondaryUse.choose', optedOut: true });
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(view()).toMatchObject({ saveFailed: true, optedOut: true });
    fail = false;
    actor.send({ type: 'secondaryUse.retry' });
    await waitFor(actor, (s) => s.matches({ showing: 'saved' }));
    expect(saves).toEqual([true, true]);
    expect(view().optedOut).toBe(true);
  });
});

describe('myData machine: the download and secondary-use sections run their children', () => {
  it('each section starts its child; leaving the section stops it', async () => {
    const machine = myDataMachine.provide({
      actors: {
        loadMyData: fromPromise(async () => MY_DATA_LOADED),
        secondaryUse: secondaryUseMachine.provide({
          actors: {
            loadSecondaryUse: fromPromise<SecondaryUseResponse>(async () => ({
              success: true,
              optedOut: true,
              changedAt: null,
            })),
          },
        }),
      },
    });
    const actor = createActor(machine).start();
    await waitFor(actor, (s) => s.matches('showing'));
    expect(selectDownloadActor(actor.getSnapshot())).toBeUndefined();
    actor.send({ type: 'section.show', section: 'download' });
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('download');
    const child = selectDownloadActor(actor.getSnapshot())!;
    expect(selectDownloadView(child.getSnapshot()).screen).toBe('asking');
    actor.send({ type: 'section.show', section: 'secondaryUse' });
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('secondaryUse');
    expect(selectDownloadActor(actor.getSnapshot())).toBeUndefined();
    expect(child.getSnapshot().status).toBe('stopped');
    const secondary = selectSecondaryUseActor(actor.getSnapshot())!;
    await waitFor(secondary, (s) => s.matches('showing'));
    expect(selectSecondaryUseView(secondary.getSnapshot()).optedOut).toBe(true);
  });
});
