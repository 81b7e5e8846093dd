import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { Place } from '../../contract/onboarding';
import { supplementaryFixtures } from '../../machines/kyc/supplementary.fixtures';
import {
  emptySupplementaryForm,
  supplementaryMachine,
} from '../../machines/kyc/supplementary.machine';
import { selectSupplementaryView } from '../../machines/kyc/supplementary.selectors';
import type { SupplementaryInput } from '../../machines/kyc/supplementary.types';
import { ApiError } from '../../machines/shared/errors';
import { controlled } from './controlled';

// 'Datos complementarios', the KYC machine's child (its wiring: tests/machines/kyc.test.ts).

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function harness(
  input: SupplementaryInput = { form: emptySupplementaryForm, hasDocumentNumber: true },
) {
  const departments = controlled<Place[], void>();
  const cities = controlled<Place[], { departmentId: string }>();
  const machine = supplementaryMachine.provide({
    actors: { loadDepartments: departments.logic as never, loadCities: cities.logic },
  });
  const actor = createActor(machine, { input }).start();
  const flush = () => vi.advanceTimersByTimeAsync(0);
  return {
    actor,
    departments,
    cities,
    flush,
    view: () => selectSupplementaryView(actor.getSnapshot()),
    async loaded(list: Place[] = [{ id: '11', nombre: 'Central' }]) {
      departments.calls.at(-1)!.answer.resolve(list);
      await flush();
    },
  };
}

const central = [
  { id: '11-1', nombre: 'Areguá' },
  { id: '11-7', nombre: 'Luque' },
];

describe('kyc supplementary form', () => {
  it('loads the departments; a failure can be retried', async () => {
    const h = harness();
    expect(h.actor.getSnapshot().machine.id).toBe('kycSupplementary');
    expect(h.view()).toMatchObject({ loadingDepartments: true });
    h.departments.calls[0]!.answer.reject(new TypeError('Failed to fetch'));
    await h.flush();
    expect(h.view()).toMatchObject({
      departmentsFailed: true,
      error: { code: 'departmentsFailed' },
      canRetryPlaces: true,
    });
    h.actor.send({ type: 'places.retry' });
    h.departments.calls[1]!.answer.resolve([{ id: '11', nombre: 'Central' }]);
    await h.flush();
    expect(h.view()).toMatchObject({
      departments: [{ id: '11', nombre: 'Central' }],
      citiesDisabled: true,
      error: null,
      form: { tipoSangre: 'No sé', direccion: '', departamento: '', ciudad_id: '' },
    });
  });

  it('the city list follows the department: disabled until one is chosen, reset on change, failures retried', async () => {
    const h = harness();
    await h.loaded([
      { id: '11', nombre: 'Central' },
      { id: '0', nombre: 'Asunción' },
    ]);
    h.actor.send({ type: 'department.change', value: '11' });
    expect(h.cities.calls[0]!.input).toEqual({ departmentId: '11' });
    expect(h.view()).toMatchObject({ loadingCities: true, citiesDisabled: true });
    h.cities.calls[0]!.answer.resolve(central);
    await h.flush();
    h.actor.send({ type: 'city.change', value: '11-7' });
    expect(h.actor.getSnapshot().context.form.ciudad_id).toBe('11-7');
    // A city that is not in the list is not kept.
    h.actor.send({ type: 'city.change', value: '99-1' });
    expect(h.actor.getSnapshot().context.form.ciudad_id).toBe('');
    h.actor.send({ type: 'city.change', value: '11-7' });
    h.actor.send({ type: 'department.change', value: '0' });
    expect(h.actor.getSnapshot().context.form).toMatchObject({ departamento: '0', ciudad_id: '' });
    expect(h.actor.getSnapshot().context.cities).toEqual([]);
    h.cities.calls[1]!.answer.reject(new ApiError('server', 500, undefined));
    await h.flush();
    expect(h.view()).toMatchObject({
      citiesFailed: true,
      error: { code: 'citiesFailed' },
      citiesDisabled: true,
    });
    h.actor.send({ type: 'places.retry' });
    h.cities.calls[2]!.answer.resolve([{ id: '0-1', nombre: 'Asunción' }]);
    await h.flush();
    expect(h.view()).toMatchObject({ citiesDisabled: false, error: null });
    h.actor.send({ type: 'department.change', value: '' });
    expect(h.view()).toMatchObject({ citiesDisabled: true, cities: [] });
  });

  it('answers given before are kept: a chosen department loads its cities again, a city it lacks is reset', async () => {
    const h = harness({
      form: { tipoSangre: 'A+', direccion: 'Palma 1', departamento: '11', ciudad_id: '11-9' },
      hasDocumentNumber: true,
    });
    await h.loaded();
    expect(h.cities.calls[0]!.input).toEqual({ departmentId: '11' });
    h.cities.calls[0]!.answer.resolve(central);
    await h.flush();
    expect(h.view()).toMatchObject({
      form: { tipoSangre: 'A+', direccion: 'Palma 1', departamento: '11', ciudad_id: '' },
      citiesDisabled: false,
    });
  });

  it("'Finalizar' counts refused submits (the focus goes to the first field to fix) and ends with the answers", async () => {
    const h = harness();
    await h.loaded();
    h.actor.send({ type: 'supplementary.submit' });
    h.actor.send({ type: 'supplementary.submit' });
    expect(h.view()).toMatchObject({ failures: 2, focus: 'departamento' });
    h.actor.send({ type: 'address.change', value: 'x'.repeat(250) });
    h.actor.send({ type: 'department.change', value: '11' });
    h.cities.calls[0]!.answer.resolve(central);
    await h.flush();
    h.actor.send({ type: 'supplementary.submit' });
    expect(h.view()).toMatchObject({ failures: 3, focus: 'ciudad_id' });
    h.actor.send({ type: 'city.change', value: '11-1' });
    h.actor.send({ type: 'supplementary.submit' });
    expect(h.actor.getSnapshot().status).toBe('done');
    expect(h.actor.getSnapshot().output).toEqual({
      tipoSangre: 'No sé',
      direccion: 'x'.repeat(200),
      departamento: '11',
      ciudad_id: '11-1',
    });
  });

  it("refuses to finish without a document number ('No se encontró el número de documento.')", () => {
    const snapshot = supplementaryFixtures.ready;
    const actor = createActor(supplementaryMachine, {
      input: { form: snapshot.context.form, hasDocumentNumber: false },
      snapshot: supplementaryMachine.resolveState({
        value: { form: 'ready' },
        context: { ...snapshot.context, hasDocumentNumber: false },
      }),
    }).start();
    actor.send({ type: 'supplementary.submit' });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context.error).toEqual({ code: 'documentMissing' });
  });
});
