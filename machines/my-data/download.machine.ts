import { assign, setup } from 'xstate';
import type { DownloadReady } from '../../contract/my-data-download';
import { toFlowError, type FlowError } from '../shared/errors';
import { requestDownload } from './download.actors';

/**
 * 'Descargar mis datos' (issue 45 item 2), the child the myData machine invokes on its section:
 * asking, building (the server builds it once per window; while another request builds it, ask
 * again after the wait it gives), ready with the link until it expires, expired, failed.
 */
export type DownloadContext = {
  ready: DownloadReady | null;
  /** how long the server said to wait while another request builds the file */
  retryAfterMs: number;
  error: FlowError | null;
};
export type DownloadEvent = { type: 'download.request' } | { type: 'download.retry' };

export const downloadMachine = setup({
  types: {} as { context: DownloadContext; events: DownloadEvent },
  actors: { requestDownload },
  delays: {
    /** until the link expires (the server's time, read on this device's clock) */
    linkLeft: ({ context }) =>
      Math.max(0, Date.parse(context.ready?.expiresAt ?? '') - Date.now() || 0),
    buildingWait: ({ context }) => context.retryAfterMs,
  },
}).createMachine({
  id: 'myDataDownload',
  context: { ready: null, retryAfterMs: 1000, error: null },
  initial: 'asking',
  states: {
    asking: { on: { 'download.request': 'building' } },
    building: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'requestDownload',
        src: 'requestDownload',
        onDone: [
          {
            guard: ({ event }) => event.output.status === 'ready',
            target: 'ready',
            actions: assign({ ready: ({ event }) => event.output as DownloadReady }),
          },
          {
            target: 'waiting',
            actions: assign({
              retryAfterMs: ({ event }) =>
                event.output.status === 'building' ? event.output.retryAfterMs : 1000,
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toFlowError(event.error) }),
        },
      },
    },
    // Another request is building the file: ask again after the server's wait.
    waiting: { tags: ['busy'], after: { buildingWait: 'building' } },
    ready: { after: { linkLeft: 'expired' } },
    expired: { on: { 'download.request': 'building' } },
    failed: { tags: ['error'], on: { 'download.retry': 'building' } },
  },
});

export type DownloadMachine = typeof downloadMachine;
