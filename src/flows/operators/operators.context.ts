import { createActorContext, useSelector } from '@xstate/react';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import type { ActorRefFrom, AnyStateMachine, SnapshotFrom } from 'xstate';
import type { CaseMachine } from '../../../machines/operators/case.machine';
import { operatorAuthMachine } from '../../../machines/operators/operators.machine';
import type { QueueMachine } from '../../../machines/operators/queue.machine';

/** The back office's session machine; the desk's children reach their views by reference. */
export const OperatorActor = createActorContext(operatorAuthMachine);

/** A child actor handed to the views under it (the parent machine invoked it). */
function childActorContext<TMachine extends AnyStateMachine>(name: string) {
  const Context = createContext<ActorRefFrom<TMachine> | null>(null);
  const useRef = (): ActorRefFrom<TMachine> => {
    const ref = useContext(Context);
    if (!ref) throw new Error(`${name}: no actor above this component`);
    return ref;
  };
  return {
    RefProvider({ actorRef, children }: { actorRef: ActorRefFrom<TMachine>; children: ReactNode }) {
      return createElement(Context.Provider, { value: actorRef }, children);
    },
    useActorRef: useRef,
    useSelector<T>(selector: (snapshot: SnapshotFrom<TMachine>) => T): T {
      return useSelector(useRef(), selector as (s: unknown) => T);
    },
  };
}

export const QueueActor = childActorContext<QueueMachine>('QueueActor');
export const CaseActor = childActorContext<CaseMachine>('CaseActor');
