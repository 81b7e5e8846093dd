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
    actor.send({ type: 'feature.select', feature: 'autoconsulta' });
    expect(view().notice).toBe('autoconsulta');
    vi.advanceTimersByTime(NOTICE_MS - 1);
    expect(view().notice).toBe('autoconsulta');
    vi.advanceTimersByTime(1);
    expect(view().notice).toBeNull();
  });

  it('another button restarts the notice and its timer', () => {
    const { actor, view } = start();
    actor.send({ type: 'feature.select', feature: 'autoconsulta' });
    vi.advanceTimersByTime(NOTICE_MS - 100);
    actor.send({ type: 'feature.select', feature: 'historial' });
    vi.advanceTimersByTime(NOTICE_MS - 100);
    expect(view().notice).toBe('historial');
    actor.send({ type: 'notice.dismiss' });
    expect(view().notice).toBeNull();
  });

  // Issue 43 item 5: a patient who taps SOS may be in trouble; SOS is not 'Próximamente'.
  it('SOS shows the emergency numbers (SEME 141, 911) until closed, with no timer', () => {
    const { actor, view } = start();
    actor.send({ type: 'sos.open' });
    expect(view()).toMatchObject({
      notice: null,
      emergency: [
        { line: 'seme', dial: '141' },
        { line: 'police', dial: '911' },
      ],
    });
    vi.advanceTimersByTime(NOTICE_MS * 10);
    expect(view().emergency).not.toBeNull();
    actor.send({ type: 'sos.open' });
    expect(view().emergency).not.toBeNull();
    actor.send({ type: 'sos.close' });
    expect(view().emergency).toBeNull();
  });

  it('SOS replaces a notice; another button or the menu closes the numbers', () => {
    const { actor, view } = start();
    actor.send({ type: 'feature.select', feature: 'historial' });
    actor.send({ type: 'sos.open' });
    expect(view()).toMatchObject({ notice: null, emergency: expect.any(Array) });
    actor.send({ type: 'feature.select', feature: 'autoconsulta' });
    expect(view()).toMatchObject({ notice: 'autoconsulta', emergency: null });
    actor.send({ type: 'sos.open' });
    actor.send({ type: 'menu.toggle' });
    expect(view()).toMatchObject({ menuOpen: true, emergency: null });
    actor.send({ type: 'sos.open' });
    expect(view()).toMatchObject({ menuOpen: false, emergency: expect.any(Array) });
  });
});
