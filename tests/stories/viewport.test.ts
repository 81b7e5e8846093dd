import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';

type ViewportOption = { styles: { width: string } };

describe("Storybook's viewport", () => {
  it("opens every story at a phone's width, as patients see the app", () => {
    const chosen = (preview.initialGlobals?.viewport as { value?: string } | undefined)?.value;
    const options = preview.parameters?.viewport?.options as
      Record<string, ViewportOption> | undefined;
    expect(chosen).toBeDefined();
    const width = Number.parseInt(options?.[chosen!]?.styles.width ?? '', 10);
    // The theme's first breakpoint is 600 px: below it is a phone.
    expect(width).toBeGreaterThan(0);
    expect(width).toBeLessThan(600);
  });
});
