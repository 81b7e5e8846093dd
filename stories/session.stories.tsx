import type { Meta, StoryObj } from '@storybook/react-vite';
import { sessionFixtures } from '../machines/session/session.fixtures';
import { SessionActor } from '../src/flows/session/session.context';
import { AuthRoutes } from '../src/flows/session/AuthArea';
import { AtSnapshot, storySessionMachine, type StoryParameters } from './support';

/** The app-level session as the guarded routes show it, at /dashboard. */
const meta = {
  title: 'Session/Guarded routes',
  component: AuthRoutes,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={SessionActor.Provider}
        logic={storySessionMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof AuthRoutes>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/dashboard' },
});

/** 'Cargando...' while the server is asked. */
export const Checking: Story = {
  parameters: {
    snapshot: sessionFixtures.checking,
    path: '/dashboard',
    readySelector: '[role=status]',
  },
};
/** The dashboard. */
export const Authenticated = at(sessionFixtures.authenticated);
/** The dashboard while logout is under way. */
export const LoggingOut = at(sessionFixtures.loggingOut);
/** No session: /dashboard redirects to the login screen. */
export const Anonymous = at(sessionFixtures.anonymous);
