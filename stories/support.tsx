import type { ComponentType, ReactNode } from 'react';
import { fromPromise, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import type { SessionResponse } from '../contract/session';
import { sessionMachine } from '../machines/session/session.machine';

/**
 * What the story-coverage test reads: the machine snapshot a story renders. Every story of a flow
 * sets `parameters.snapshot` to a fixture (machines/<flow>/<flow>.fixtures.ts).
 */
export type StoryParameters = {
  snapshot: SnapshotFrom<AnyStateMachine>;
  path?: string;
  /** What the rendering test waits for before checking (default: the screen's h1). */
  readySelector?: string;
};

type ActorProvider<TLogic extends AnyStateMachine> = ComponentType<{
  children: ReactNode;
  logic?: TLogic;
  options?: { snapshot?: SnapshotFrom<TLogic> };
}>;

/**
 * Renders children inside a flow's actor Provider restored at a fixture snapshot. `logic` is the
 * machine with story-safe actors (never-settling promises), so no story calls the API or a camera.
 */
export function AtSnapshot<TLogic extends AnyStateMachine>({
  Provider,
  logic,
  snapshot,
  children,
}: {
  Provider: ActorProvider<TLogic>;
  logic: TLogic;
  snapshot: SnapshotFrom<TLogic>;
  children: ReactNode;
}) {
  return (
    <Provider logic={logic} options={{ snapshot }}>
      {children}
    </Provider>
  );
}

/** An actor body that never settles: stories stay in the state they show. */
export const pending = <T,>() => new Promise<T>(() => {});

/** The app-level session for stories: it never asks the server. */
export const storySessionMachine = sessionMachine.provide({
  actors: {
    fetchSession: fromPromise(() => pending<SessionResponse>()),
    endSession: fromPromise(() => pending<void>()),
  },
});
