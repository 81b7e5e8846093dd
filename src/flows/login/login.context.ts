import { createActorContext } from '@xstate/react';
import { loginMachine } from '../../../machines/login/login.machine';

export const LoginActor = createActorContext(loginMachine);
