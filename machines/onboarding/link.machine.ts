import { assign, setup } from 'xstate';
import { openLink } from './onboarding.actors';
import { linkRefusalOf } from './onboarding.errors';
import type { LinkContext, LinkInput, LinkOutput } from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

/**
 * The phone opened the SMS link, the wizard's `linkOpening` child: POST open-link with the link's
 * token. It ends with the registration the link continues, or with the reason it was refused (used,
 * expired, not valid); the wizard continues at the registration's first unfinished step, or offers
 * the SMS code instead.
 */
export const linkOpeningMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as LinkContext,
    input: {} as LinkInput,
    output: {} as LinkOutput,
    tags: {} as 'busy',
  },
  actors: { openLink },
}).createMachine({
  id: 'linkOpening',
  meta: { insight: { step: 'link' } },
  context: ({ input }) => ({ linkToken: input.linkToken, registration: null, error: null }),
  initial: 'opening',
  states: {
    opening: {
      tags: ['busy'],
      invoke: {
        id: 'openLink',
        src: 'openLink',
        input: ({ context }) => ({ linkToken: context.linkToken }),
        onDone: {
          target: 'opened',
          actions: assign({ registration: ({ event }) => event.output.registration }),
        },
        onError: {
          target: 'refused',
          actions: assign({ error: ({ event }) => linkRefusalOf(event.error) }),
        },
      },
    },
    // Each end's context field was set by the transition into it.
    opened: {
      type: 'final',
      output: ({ context }): LinkOutput => ({
        outcome: 'opened',
        registration: context.registration!,
      }),
    },
    refused: {
      type: 'final',
      output: ({ context }): LinkOutput => ({ outcome: 'refused', error: context.error! }),
    },
  },
  output: ({ event }) => event.output as LinkOutput,
});
