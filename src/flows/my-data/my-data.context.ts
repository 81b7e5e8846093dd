import { createActorContext } from '@xstate/react';
import { myDataMachine } from '../../../machines/my-data/my-data.machine';

export const MyDataActor = createActorContext(myDataMachine);
