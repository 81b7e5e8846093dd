import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { StepForm } from '../../src/components/StepForm';

// A step's title takes the focus when the step appears (keyboard and screen reader users land on
// it), but a prerendered page that React hydrates leaves the focus where the patient put it: they
// may be typing in a field already (e2e/prerender.spec.ts 'typing across hydration').

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

  it('leaves it in the field being typed in when React hydrates the prerendered step', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(step);
    document.body.append(container);
    const field = screen.getByLabelText<HTMLInputElement>('Celular');
    field.focus();
    field.value = '981';
    const root = await act(async () => hydrateRoot(container, step));
    expect(field).toHaveFocus();
    expect(field).toHaveValue('981');
    act(() => root.unmount());
  });
});
