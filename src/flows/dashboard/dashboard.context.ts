import { createActorContext } from '@xstate/react';
import { dashboardMachine } from '../../../machines/dashboard/dashboard.machine';

export const DashboardActor = createActorContext(dashboardMachine);
