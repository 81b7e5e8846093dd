import type { Meta, StoryObj } from '@storybook/react-vite';
import { dashboardFixtures } from '../machines/dashboard/dashboard.fixtures';
import { dashboardMachine } from '../machines/dashboard/dashboard.machine';
import { sessionFixtures } from '../machines/session/session.fixtures';
import { DashboardActor } from '../src/flows/dashboard/dashboard.context';
import { DashboardScreen } from '../src/flows/dashboard/DashboardScreen';
import { SessionActor } from '../src/flows/session/session.context';
import { AtSnapshot, storySessionMachine, type StoryParameters } from './support';

const meta = {
  title: 'Dashboard/DashboardScreen',
  component: DashboardScreen,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={SessionActor.Provider}
        logic={storySessionMachine}
        snapshot={sessionFixtures.authenticated}
      >
        <AtSnapshot
          Provider={DashboardActor.Provider}
          logic={dashboardMachine}
          snapshot={(parameters as StoryParameters).snapshot}
        >
          <Story />
        </AtSnapshot>
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof DashboardScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/dashboard' },
});

export const Idle = at(dashboardFixtures.idle);
export const MenuOpen = at(dashboardFixtures.menuOpen);
export const Notice = at(dashboardFixtures.notice);
export const Emergency = at(dashboardFixtures.emergency);
