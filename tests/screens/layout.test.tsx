import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import type { ComponentType } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { appName } from '../../src/copy/es';
import { formatCelular } from '../../src/copy/es.onboarding';
import LandingPage from '../../src/pages/LandingPage';
import NotFoundPage from '../../src/pages/NotFoundPage';
import TycPage from '../../src/pages/TycPage';

// Issue 29 item 18: the logo on every screen, from one component in the shared layout (Page), once;
// a phone number that never breaks across lines.

setProjectAnnotations(preview);

const storyModules = import.meta.glob(
  [
    '../../stories/login.stories.tsx',
    '../../stories/session.stories.tsx',
    '../../stories/dashboard.stories.tsx',
    '../../stories/face-login.stories.tsx',
    '../../stories/recovery/*.stories.tsx',
  ],
  { eager: true },
);

type StoryModule = Parameters<typeof composeStories>[0];

describe('the logo', () => {
  it.each([
    ['/', LandingPage],
    ['/tyc', TycPage],
    ['/no-existe', NotFoundPage],
  ])('shows once on %s', (path, Page) => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>,
    );
    expect(screen.getAllByRole('img', { name: appName })).toHaveLength(1);
  });

  describe.each(Object.entries(storyModules))('%s', (_file, mod) => {
    const stories = Object.entries(composeStories(mod as StoryModule)) as [
      string,
      ComponentType & { parameters: Record<string, unknown> },
    ][];
    it.each(stories)('%s shows it once', async (_name, Story) => {
      const { container } = render(<Story />);
      const ready = (Story.parameters as { readySelector?: string }).readySelector ?? 'h1';
      await waitFor(() => expect(container.querySelector(ready)).not.toBeNull());
      expect(screen.getAllByRole('img', { name: appName })).toHaveLength(1);
    });
  });
});

describe('a phone number as patients read it', () => {
  it('is grouped by no-break spaces, so it never breaks across lines', () => {
    expect(formatCelular('0981123456')).toBe('0981\u00a0123\u00a0456');
    expect(formatCelular('0981123456')).not.toMatch(/[ \t]/);
  });
});
