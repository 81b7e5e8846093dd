import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { dashboardMachine, NOTICE_MS } from '../../machines/dashboard/dashboard.machine';
import { selectDashboardView } from '../../machines/dashboard/dashboard.selectors';

describe('dashboard machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const start = () => {
    const actor = createActor(dashboardMachine).start();
    return { actor, view: () => selectDashboardView(actor.getSnapshot()) };
  };

  it('opens and closes the menu', () => {
    const { actor, view } = start();
    actor.send({ type: 'menu.toggle' });
    expect(view().menuOpen).toBe(true);
    actor.send({ type: 'menu.close' });
    expect(view().menuOpen).toBe(false);
  });

  it('shows "Próximamente" for the chosen feature, then hides it after the timeout', () => {
    const { actor, view } = start();
    actor.send({ type: 'feature.select', feature: 'sos' });
    expect(view().notice).toBe('sos');
    vi.advanceTimersByTime(NOTICE_MS - 1);
    expect(view().notice).toBe('sos');
    vi.advanceTimersByTime(1);
    expect(view().notice).toBeNull();
  });

  it('another button restarts the notice and its timer', () => {
    const { actor, view } = start();
    actor.send({ type: 'feature.select', feature: 'sos' });
    vi.advanceTimersByTime(NOTICE_MS - 100);
    actor.send({ type: 'feature.select', feature: 'historial' });
    vi.advanceTimersByTime(NOTICE_MS - 100);
    expect(view().notice).toBe('historial');
    actor.send({ type: 'notice.dismiss' });
    expect(view().notice).toBeNull();
  });
});
