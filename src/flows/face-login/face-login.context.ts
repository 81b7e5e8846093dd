import { createActorContext } from '@xstate/react';
import { faceLoginMachine } from '../../../machines/face-login/face-login.machine';

export const FaceLoginActor = createActorContext(faceLoginMachine);
