import { assign, setup } from 'xstate';
import { loginOptions, passkeyPrompt, passkeyVerify } from './operators.actors';
import { errorOf, operatorErrorFrom } from './operators.errors';
import type { PasskeyContext, PasskeyInput, PasskeyOutput } from './operators.types';

/**
 * One WebAuthn ceremony (a child of the back office's session, `passkey`): the server's options
 * (asked for on a login; an enrolment link brings its own), the browser's prompt, the server's
 * verification. Ends with the operator logged in, or with why not (as a code). The login and the
 * enrolment link's 'Crear llave de acceso' both run it; nothing of it stays once it ends.
 */
export const passkeyMachine = setup({
  types: {
    context: {} as PasskeyContext,
    input: {} as PasskeyInput,
    output: {} as PasskeyOutput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      loginOptions: 'loginOptions';
      passkeyPrompt: 'passkeyPrompt';
      passkeyVerify: 'passkeyVerify';
    },
  },
  actors: { loginOptions, passkeyPrompt, passkeyVerify },
  guards: { hasOptions: ({ context }) => context.options !== null },
  actions: {
    /** why it failed: on a login a refusal is the passkey; on a link, the link or the passkey */
    assignPromptError: assign({
      error: ({ context, event }) =>
        operatorErrorFrom(errorOf({ event }), context.ceremony === 'login' ? 'login' : 'enrol'),
    }),
    assignVerifyError: assign({
      error: ({ context, event }) =>
        operatorErrorFrom(
          errorOf({ event }),
          context.ceremony === 'login' ? 'login' : 'enrolVerify',
        ),
    }),
  },
}).createMachine({
  id: 'operatorPasskey',
  context: ({ input }) => ({
    ceremony: input.ceremony,
    key: input.ceremony === 'enrol' ? input.token : null,
    options: input.ceremony === 'enrol' ? input.options : null,
    credential: null,
    operator: null,
    error: null,
  }),
  tags: ['busy'],
  initial: 'options',
  states: {
    options: {
      always: { guard: 'hasOptions', target: 'prompting' },
      invoke: {
        id: 'loginOptions',
        src: 'loginOptions',
        onDone: {
          target: 'prompting',
          actions: assign({
            options: ({ event }) => event.output.options,
            key: ({ event }) => event.output.challengeId,
          }),
        },
        onError: { target: 'failed', actions: 'assignPromptError' },
      },
    },
    /** the browser's passkey prompt */
    prompting: {
      invoke: {
        id: 'passkeyPrompt',
        src: 'passkeyPrompt',
        input: ({ context }) => ({ ceremony: context.ceremony, options: context.options! }),
        onDone: {
          target: 'verifying',
          actions: assign({ credential: ({ event }) => event.output }),
        },
        onError: { target: 'failed', actions: 'assignPromptError' },
      },
    },
    verifying: {
      invoke: {
        id: 'passkeyVerify',
        src: 'passkeyVerify',
        input: ({ context }) => ({
          ceremony: context.ceremony,
          key: context.key!,
          credential: context.credential!,
        }),
        onDone: {
          target: 'done',
          actions: assign({ operator: ({ event }) => event.output.operator }),
        },
        onError: { target: 'failed', actions: 'assignVerifyError' },
      },
    },
    done: { type: 'final' },
    failed: { type: 'final' },
  },
  output: ({ context }) =>
    context.operator
      ? { operator: context.operator, error: null }
      : { operator: null, error: context.error ?? { code: 'passkeyFailed' } },
});

export type PasskeyMachine = typeof passkeyMachine;
