import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorOptions, ActorRefFrom, SnapshotFrom } from 'xstate';
import { loginMachine, type LoginMachine } from '../../../machines/login/login.machine';

type LoginActorRef = ActorRefFrom<LoginMachine>;
const Context = createContext<LoginActorRef | null>(null);

function useLoginActorRef(): LoginActorRef {
  const actorRef = useContext(Context);
  if (!actorRef) throw new Error('LoginActor: no login actor above this component');
  return actorRef;
}

/**
 * The login form's actor for the views under it. In the app it is the session machine's child
 * (`RefProvider`, src/flows/login/LoginFlow.tsx): the session machine invokes the login machine and
 * learns from its final state that the login is done. Stories and screen tests run a login machine
 * of their own (`Provider`, the same props as @xstate/react's createActorContext Provider).
 */
export const LoginActor = {
  RefProvider({ actorRef, children }: { actorRef: LoginActorRef; children: ReactNode }) {
    return createElement(Context.Provider, { value: actorRef }, children);
  },
  Provider({
    logic = loginMachine,
    options,
    children,
  }: {
    logic?: LoginMachine;
    options?: ActorOptions<LoginMachine>;
    children: ReactNode;
  }) {
    const actorRef = useActorRef(logic, options);
    return createElement(Context.Provider, { value: actorRef }, children);
  },
  useActorRef: useLoginActorRef,
  useSelector<T>(
    selector: (snapshot: SnapshotFrom<LoginMachine>) => T,
    compare?: (a: T, b: T) => boolean,
  ): T {
    return useSelector(useLoginActorRef(), selector, compare);
  },
};
