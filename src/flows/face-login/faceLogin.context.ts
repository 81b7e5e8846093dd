import { createActorContext } from '@xstate/react';
import { faceAuthMachine } from '../../../machines/faceAuth/faceAuth.machine';

export const FaceAuthActor = createActorContext(faceAuthMachine);
