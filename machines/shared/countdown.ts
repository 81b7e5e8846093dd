import { assign, setup } from 'xstate';

type CountdownInput = { seconds: number };
type CountdownContext = { secondsLeft: number };
type CountdownOutput = { secondsLeft: 0 };

/**
 * Counts whole seconds down to 0 with a delayed transition, so the actor system's clock drives it
 * (Vitest fake timers or XState's SimulatedClock in tests) and stopping the actor cancels it.
 * A parent invokes it, reads `secondsLeft` through `onSnapshot` and moves on with `onDone`.
 * Reused by every timer the spec counts in seconds (OTP resend wait; later the KYC redirect and
 * kiosk cooldowns).
 */
export const countdownMachine = setup({
  types: {
    context: {} as CountdownContext,
    input: {} as CountdownInput,
    output: {} as CountdownOutput,
  },
  delays: { oneSecond: 1_000 },
  guards: { isOver: ({ context }) => context.secondsLeft <= 0 },
  actions: { trackSecond: assign({ secondsLeft: ({ context }) => context.secondsLeft - 1 }) },
}).createMachine({
  id: 'countdown',
  context: ({ input }) => ({ secondsLeft: Math.max(0, Math.floor(input.seconds)) }),
  initial: 'running',
  states: {
    running: {
      always: { guard: 'isOver', target: 'finished' },
      after: { oneSecond: { target: 'running', reenter: true, actions: 'trackSecond' } },
    },
    finished: { type: 'final' },
  },
  output: () => ({ secondsLeft: 0 as const }),
});
