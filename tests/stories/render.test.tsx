import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import type { ComponentType } from 'react';
import { render, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';

setProjectAnnotations(preview);

const storyModules = import.meta.glob('../../stories/**/*.stories.tsx', { eager: true });

type StoryModule = Parameters<typeof composeStories>[0];

/** Every story renders in jsdom, shows something, and has no axe violations (contrast needs a real browser). */
describe.each(Object.entries(storyModules))('%s', (_file, mod) => {
  const stories = Object.entries(composeStories(mod as StoryModule)) as [
    string,
    ComponentType & { parameters: Record<string, unknown> },
  ][];
  it.each(stories)('%s renders without accessibility violations', async (_name, Story) => {
    const { container } = render(<Story />);
    // Lazy routes settle first: wait for the screen's title (or the selector a story names).
    const ready = (Story.parameters as { readySelector?: string }).readySelector ?? 'h1';
    await waitFor(() => expect(container.querySelector(ready)).not.toBeNull());
    expect(container.textContent?.trim().length).toBeGreaterThan(0);
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  });
});
