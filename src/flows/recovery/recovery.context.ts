import { createActorContext } from '@xstate/react';
import { recoveryMachine } from '../../../machines/recovery/recovery.machine';

export const RecoveryActor = createActorContext(recoveryMachine);
