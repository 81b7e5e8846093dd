import { createActorContext } from '@xstate/react';
import { sessionMachine } from '../../../machines/session/session.machine';

export const SessionActor = createActorContext(sessionMachine);
