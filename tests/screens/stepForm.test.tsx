import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { StepForm } from '../../src/components/StepForm';

// A step's title takes the focus when the step appears (keyboard and screen reader users land on
// it), but a prerendered page that React hydrates leaves the focus where the patient put it, if
// anywhere: they may be typing in a field already (e2e/prerender.spec.ts 'typing across hydration').

const step = (
  <StepForm back={null} title="Registrate" onSubmit={() => {}}>
    <label>
      Celular
      <input name="celular" />
    </label>
  </StepForm>
);

afterEach(() => document.body.replaceChildren());

describe('StepForm title focus', () => {
  it('takes the focus when the step is rendered on the client', () => {
    render(step);
    expect(screen.getByRole('heading', { name: 'Registrate' })).toHaveFocus();
  });

  async function hydrate(before: () => void) {
    const container = document.createElement('div');
    container.innerHTML = renderToString(step);
    document.body.append(container);
    before();
    const root = await act(async () => hydrateRoot(container, step));
    return () => act(() => root.unmount());
  }

  it('takes it when React hydrates the prerendered step and nothing has the focus yet', async () => {
    const unmount = await hydrate(() => {});
    expect(screen.getByRole('heading', { name: 'Registrate' })).toHaveFocus();
    unmount();
  });

  it('leaves it in the field being typed in when React hydrates the prerendered step', async () => {
    const unmount = await hydrate(() => {
      const field = screen.getByLabelText<HTMLInputElement>('Celular');
      field.focus();
      field.value = '981';
    });
    expect(screen.getByLabelText('Celular')).toHaveFocus();
    expect(screen.getByLabelText('Celular')).toHaveValue('981');
    unmount();
  });
});

describe('StepForm back arrow', () => {
  it("is the wizard's 'Volver al inicio' button when given onBack, disabled by backDisabled", async () => {
    const backs: string[] = [];
    const wizardStep = (disabled: boolean) => (
      <StepForm
        title="Registrate"
        onBack={() => backs.push('back')}
        backDisabled={disabled}
        onSubmit={() => {}}
      >
        <input aria-label="Celular" />
      </StepForm>
    );
    const { rerender } = render(wizardStep(false));
    const back = screen.getByRole('button', { name: 'Volver al inicio' });
    expect(back).toBeEnabled();
    act(() => back.click());
    expect(backs).toEqual(['back']);
    rerender(wizardStep(true));
    expect(screen.getByRole('button', { name: 'Volver al inicio' })).toBeDisabled();
  });

  it('is the arrow the step gives (a link) when given back', () => {
    render(
      <StepForm back={<a href="/login">Volver</a>} title="Recuperar Pin" onSubmit={() => {}}>
        <input aria-label="Celular" />
      </StepForm>,
    );
    expect(screen.getByRole('link', { name: 'Volver' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Volver al inicio' })).toBeNull();
  });
});
