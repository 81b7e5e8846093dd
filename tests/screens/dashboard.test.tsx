import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import * as stories from '../../stories/dashboard.stories';
import { dashboard as copy } from '../../src/copy/es';

// The dashboard as its stories render it (issue 43 item 5): SOS answers with the emergency numbers
// as links that dial, never with 'Próximamente'.

setProjectAnnotations(preview);
const s = composeStories(stories);

const sosButton = () => screen.getByRole('button', { name: copy.features.sos });

describe('dashboard, SOS', () => {
  it('one tap on SOS shows SEME 141 and 911 as links that dial, and no "Próximamente"', async () => {
    render(<s.Idle />);
    await screen.findByRole('heading', { level: 1 });
    expect(sosButton()).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(sosButton());
    expect(sosButton()).toHaveAttribute('aria-expanded', 'true');
    const panel = screen.getByRole('region', { name: copy.sos.title });
    expect(within(panel).getByRole('link', { name: /SEME 141/ })).toHaveAttribute(
      'href',
      'tel:141',
    );
    expect(within(panel).getByRole('link', { name: /^911/ })).toHaveAttribute('href', 'tel:911');
    expect(screen.queryByText(/Próximamente/)).toBeNull();
    await waitFor(() =>
      expect(within(panel).getByRole('heading', { name: copy.sos.title })).toHaveFocus(),
    );
  });

  it('the Emergency story shows the numbers; "Cerrar" hides them and gives the focus back to SOS', async () => {
    render(<s.Emergency />);
    const panel = await screen.findByRole('region', { name: copy.sos.title });
    expect(
      within(panel)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['tel:141', 'tel:911']);
    fireEvent.click(within(panel).getByRole('button', { name: copy.sos.close }));
    expect(screen.queryByRole('region', { name: copy.sos.title })).toBeNull();
    expect(sosButton()).toHaveFocus();
  });

  it('the other buttons still say "Próximamente"', async () => {
    render(<s.Idle />);
    await screen.findByRole('heading', { level: 1 });
    fireEvent.click(screen.getByRole('button', { name: copy.features.historial }));
    expect(screen.getByText(copy.comingSoon(copy.features.historial))).toBeInTheDocument();
  });
});

describe('dashboard, the menu (issue 43 item 10)', () => {
  it('open, it takes its own room under the bar instead of lying over the greeting', async () => {
    render(<s.Idle />);
    const greeting = await screen.findByRole('heading', { level: 1 });
    fireEvent.click(screen.getByRole('button', { name: copy.menuLabel }));
    const menu = screen.getByRole('menu', { name: copy.menuLabel });
    // Laid out in the page's flow (not floating above it, where it covered the greeting's line)...
    for (let el: HTMLElement | null = menu; el && el !== document.body; el = el.parentElement)
      expect(['absolute', 'fixed']).not.toContain(getComputedStyle(el).position);
    // ...and before the greeting, which it pushes down.
    expect(menu.compareDocumentPosition(greeting) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: copy.logout })).toHaveFocus();
  });
});
