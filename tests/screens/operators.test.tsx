import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import type {
  CaseDetail,
  ClaimResponse,
  DecisionRequest,
  DecisionResponse,
  EnrolOptionsResponse,
  LoginOptionsResponse,
  QueueResponse,
} from '../../contract/operators';
import { OPERATOR_ENROL_PATH, OPERATOR_HOST_IS_IP, OPERATOR_PATH } from '../../contract/operators';
import { AppRoutes } from '../../src/app/routes';
import { caseMachine } from '../../machines/operators/case.machine';
import { deskMachine } from '../../machines/operators/desk.machine';
import { passkeyMachine } from '../../machines/operators/passkey.machine';
import {
  cardMissingCase,
  selfieMissingCase,
  fixtureCase,
  fixtureOperator,
} from '../../machines/operators/operators.fixtures';
import { operatorAuthMachine } from '../../machines/operators/operators.machine';
import { queueMachine } from '../../machines/operators/queue.machine';
import type { Correction, LoadedCase } from '../../machines/operators/operators.types';
import { ApiError } from '../../machines/shared/errors';
import { caseCopy, operador, operadorTerms, queueCopy } from '../../src/copy/es.operators';
import { OperatorActor } from '../../src/flows/operators/operators.context';
import { OperatorEnrolmentFlow } from '../../src/flows/operators/OperatorFlow';
import { OperatorScreens } from '../../src/flows/operators/OperatorScreens';

const session = { success: true as const, operator: fixtureOperator };
const unauthorized = () => new ApiError('server', 401, undefined);
const named = (name: string) => Object.assign(new Error(name), { name });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

type Fakes = {
  fetchSession?: () => Promise<typeof session>;
  usePasskey?: () => Promise<Record<string, unknown>>;
  createPasskey?: () => Promise<Record<string, unknown>>;
  fetchQueue?: () => Promise<QueueResponse>;
  claimNext?: () => Promise<ClaimResponse>;
  lookupCode?: (code: string) => Promise<string>;
  loadCase?: () => Promise<LoadedCase>;
  saveCorrection?: (c: Correction) => Promise<CaseDetail>;
  decide?: (d: DecisionRequest) => Promise<DecisionResponse>;
};

/** The back office with every call answered by a fake (a test gives the ones it exercises). */
function app(fakes: Fakes, enrolToken: string | null = null) {
  const never = <T,>() => new Promise<T>(() => {});
  const machine = operatorAuthMachine.provide({
    actors: {
      fetchSession: fromPromise(() => (fakes.fetchSession ?? never)()),
      // The passkey ceremony (the child `passkey`): the login's prompt or the link's creation.
      passkey: passkeyMachine.provide({
        actors: {
          loginOptions: fromPromise<LoginOptionsResponse>(async () => ({
            success: true as const,
            challengeId: 'ch',
            options: { challenge: 'x' },
          })),
          passkeyPrompt: fromPromise(({ input }) =>
            ((input.ceremony === 'login' ? fakes.usePasskey : fakes.createPasskey) ?? never)(),
          ),
          passkeyVerify: fromPromise(async () => session),
        },
      }),
      enrolOptions: fromPromise<EnrolOptionsResponse, { token: string }>(async () => ({
        success: true as const,
        operator: fixtureOperator,
        options: { rp: 'x' },
      })),
      endSession: fromPromise(async () => {}),
      queue: queueMachine.provide({
        actors: {
          fetchQueue: fromPromise(() => (fakes.fetchQueue ?? never)()),
          claimNext: fromPromise(() => (fakes.claimNext ?? never)()),
          lookupCode: fromPromise(({ input }) => (fakes.lookupCode ?? never)(input.code)),
        },
      }),
      case: caseMachine.provide({
        actors: {
          imageKeeper: fromCallback(() => () => {}),
          loadCase: fromPromise(() => (fakes.loadCase ?? never)()),
          saveCorrection: fromPromise(({ input }) =>
            (fakes.saveCorrection ?? never)(input.correction),
          ),
          decide: fromPromise(({ input }) => (fakes.decide ?? never)(input.decision)),
          desk: deskMachine.provide({ actors: { camera: fromCallback(() => () => {}) } }),
        },
      }),
    },
  });
  render(
    <OperatorActor.Provider logic={machine} options={{ input: { enrolToken } }}>
      <OperatorScreens />
    </OperatorActor.Provider>,
  );
  return userEvent.setup();
}

const queue: QueueResponse = {
  success: true,
  cases: [
    {
      id: 'c1',
      kind: 'review',
      trigger: 'face_mismatch',
      openedAt: minutesAgo(185),
      needsSupervisor: true,
    },
    {
      id: 'c2',
      kind: 'centro',
      trigger: 'no_camera',
      openedAt: minutesAgo(5),
      needsSupervisor: false,
    },
  ],
  total: 2,
};
const images = { selfie: 'blob:s', portrait: 'blob:p', front: 'blob:f', back: 'blob:b' };

afterEach(() => vi.unstubAllGlobals());

describe('the back office at /operador', () => {
  it('logs in with the passkey, lists the queue, takes a case, approves it: pending a supervisor', async () => {
    const decisions: DecisionRequest[] = [];
    const user = app({
      fetchSession: () => Promise.reject(unauthorized()),
      usePasskey: async () => ({ id: 'cred' }),
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: fixtureCase, images }),
      decide: async (d) => {
        decisions.push(d);
        return { success: true, outcome: 'awaiting_supervisor' };
      },
    });
    await user.click(await screen.findByRole('button', { name: operador.login.submit }));

    // the queue: total, age in words, trigger in words, the supervisor badge; no personal data
    expect(await screen.findByRole('heading', { name: queueCopy.title })).toBeInTheDocument();
    expect(await screen.findByText(queueCopy.total(2))).toBeInTheDocument();
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('hace 3 horas')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(operadorTerms.triggers.face_mismatch)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(queueCopy.needsSupervisor)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('hace 5 minutos')).toBeInTheDocument();
    expect(within(rows[2]!).queryByText(queueCopy.needsSupervisor)).toBeNull();
    expect(screen.getByText(`${fixtureOperator.nombre} (Revisor)`)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: queueCopy.claim }));
    // the case: the selfie beside the card's portrait, front and back, the fields, reasons in words
    expect(await screen.findByRole('img', { name: operadorTerms.images.selfie })).toHaveAttribute(
      'src',
      'blob:s',
    );
    for (const image of ['portrait', 'front', 'back'] as const)
      expect(screen.getByRole('img', { name: operadorTerms.images[image] })).toBeInTheDocument();
    expect(screen.getByText(caseCopy.similarityValue(46, 60))).toBeInTheDocument();
    const reasons = screen.getByRole('list', { name: caseCopy.reasons });
    expect(within(reasons).getAllByText(operadorTerms.reasons.face_mismatch)).toHaveLength(2);
    expect(screen.getByText(fixtureCase.fields.FullName)).toBeInTheDocument();
    // which fields the engine read and which one an operator typed
    expect(screen.getAllByText(caseCopy.origins.read)).toHaveLength(5);
    expect(screen.getByText(caseCopy.origins.typed)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Corregir/ })).toHaveLength(6);
    expect(screen.getByRole('button', { name: 'Corregir nombre completo' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: caseCopy.approve }));
    expect(
      screen.getByRole('heading', { name: caseCopy.approveConfirm.title }),
    ).toBeInTheDocument();
    expect(decisions).toEqual([]);
    // the confirmation names what nobody read, and the version approved
    expect(
      screen.getByText(caseCopy.approveConfirm.typed('fecha de nacimiento')),
    ).toBeInTheDocument();
    expect(screen.getByText(caseCopy.version('3F9A-1C7E'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: caseCopy.approveConfirm.confirm }));
    expect(await screen.findByText('Queda pendiente de un supervisor')).toBeInTheDocument();
    expect(decisions).toEqual([{ decision: 'approve', digest: fixtureCase.digest }]);
    await user.click(screen.getByRole('button', { name: caseCopy.backToQueue }));
    expect(await screen.findByRole('heading', { name: queueCopy.title })).toBeInTheDocument();
  });

  it("'No hay casos para tomar' when the claim finds nothing", async () => {
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => ({ success: true, cases: [], total: 0 }),
      claimNext: async () => ({ success: true, caseId: null }),
    });
    expect(await screen.findByText(queueCopy.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: queueCopy.claim }));
    expect(await screen.findByText(queueCopy.nothingToTake)).toBeInTheDocument();
  });

  it('the passkey prompt closed by the operator: said, and the button is there again', async () => {
    const user = app({
      fetchSession: () => Promise.reject(unauthorized()),
      usePasskey: () => Promise.reject(named('NotAllowedError')),
    });
    await user.click(await screen.findByRole('button', { name: operador.login.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(operador.errors.cancelled);
    expect(screen.getByRole('button', { name: operador.login.submit })).toBeEnabled();
  });

  it('a session over (401) in the queue: the login with the notice', async () => {
    app({ fetchSession: async () => session, fetchQueue: () => Promise.reject(unauthorized()) });
    expect(await screen.findByText(operador.notices.sessionExpired)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: operador.login.submit })).toBeInTheDocument();
  });

  it("'Buscar por código': XXXX-XXXX as typed; too many look-ups show the wait", async () => {
    const codes: string[] = [];
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      lookupCode: (code) => {
        codes.push(code);
        return Promise.reject(new ApiError('tooManyAttempts', 429, undefined, 120));
      },
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.searchCode }));
    const field = screen.getByLabelText(queueCopy.code.label);
    await user.type(field, 'acde');
    await user.click(screen.getByRole('button', { name: queueCopy.code.submit }));
    expect(field).toHaveAccessibleDescription(queueCopy.code.incomplete);
    await user.type(field, 'fghj');
    expect(field).toHaveValue('ACDE-FGHJ');
    await user.click(screen.getByRole('button', { name: queueCopy.code.submit }));
    expect(await screen.findByText(queueCopy.code.limited(120))).toBeInTheDocument();
    expect(codes).toEqual(['ACDEFGHJ']);
    expect(screen.getByRole('button', { name: queueCopy.code.submit })).toBeDisabled();
  });

  it("'Corregir' sex from its list, with the reason; the correction is saved with it", async () => {
    const saved: Correction[] = [];
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: fixtureCase, images }),
      saveCorrection: async (c) => {
        saved.push(c);
        return { ...fixtureCase, fields: { ...fixtureCase.fields, Gender: c.value } };
      },
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    await user.click(await screen.findByRole('button', { name: 'Corregir sexo' }));
    expect(screen.getByRole('heading', { name: caseCopy.correctField('Sexo') })).toHaveFocus();
    const value = screen.getByLabelText(caseCopy.correction.value);
    expect(value).toHaveValue('F');
    await user.selectOptions(value, 'MASCULINO');
    await user.click(screen.getByRole('button', { name: caseCopy.correction.save }));
    expect(screen.getByLabelText(caseCopy.correction.reason)).toHaveAccessibleDescription(
      expect.stringContaining(caseCopy.correction.reasonMissing),
    );
    expect(saved).toEqual([]);
    await user.type(screen.getByLabelText(caseCopy.correction.reason), 'Error de lectura');
    await user.click(screen.getByRole('button', { name: caseCopy.correction.save }));
    await waitFor(() =>
      expect(saved).toEqual([{ field: 'Gender', value: 'M', reason: 'Error de lectura' }]),
    );
    expect(await screen.findByRole('button', { name: caseCopy.approve })).toBeInTheDocument();
  });

  it("a document number by login's rule: refused in the form before it is sent; the server's refusal in the form", async () => {
    const saved: Correction[] = [];
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: fixtureCase, images }),
      saveCorrection: async (c) => {
        saved.push(c);
        throw new ApiError('server', 400, 'El número de documento no se puede usar.');
      },
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    await user.click(await screen.findByRole('button', { name: 'Corregir número de documento' }));
    const value = screen.getByLabelText(caseCopy.correction.value);
    await user.clear(value);
    await user.type(value, 'ABC');
    await user.type(screen.getByLabelText(caseCopy.correction.reason), 'Error de lectura');
    await user.click(screen.getByRole('button', { name: caseCopy.correction.save }));
    expect(value).toHaveAccessibleDescription(
      expect.stringContaining(caseCopy.correction.invalid.DocumentNumber),
    );
    expect(saved).toEqual([]);
    await user.clear(value);
    await user.type(value, '7654321');
    await user.click(screen.getByRole('button', { name: caseCopy.correction.save }));
    expect(await screen.findByText('El número de documento no se puede usar.')).toBeInTheDocument();
    expect(saved).toEqual([
      { field: 'DocumentNumber', value: '7654321', reason: 'Error de lectura' },
    ]);
    expect(
      screen.getByRole('heading', { name: caseCopy.correctField('Número de documento') }),
    ).toBeInTheDocument();
  });

  it('a remote case where nobody saw a card: typed fields marked, and why it is not approved here', async () => {
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: cardMissingCase, images: { selfie: 'blob:s' } }),
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    const approve = await screen.findByRole('button', { name: caseCopy.approve });
    expect(approve).toBeDisabled();
    expect(approve).toHaveAccessibleDescription(caseCopy.needsCard);
    expect(screen.getAllByText(caseCopy.origins.typed)).toHaveLength(2);
    expect(screen.getAllByText(caseCopy.origins.missing)).toHaveLength(4);
    expect(screen.getByRole('button', { name: caseCopy.repeat })).toBeEnabled();
  });

  it('a remote review with no selfie: no desk photo asked, not approved here, the repeat first (issue 43 item 2)', async () => {
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: selfieMissingCase, images: { front: 'blob:f' } }),
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    const approve = await screen.findByRole('button', { name: caseCopy.approve });
    expect(approve).toBeDisabled();
    expect(approve).toHaveAccessibleDescription(caseCopy.needsSelfie);
    expect(screen.queryByText(caseCopy.needsDeskPhoto)).toBeNull();
    expect(screen.queryByRole('button', { name: caseCopy.desk.start })).toBeNull();
    expect(screen.getByRole('button', { name: caseCopy.repeat })).toBeEnabled();
  });

  it("'Rechazar' with a reason from the list; 'Pedir que repita' one step", async () => {
    const decisions: DecisionRequest[] = [];
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c1' }),
      loadCase: async () => ({ detail: fixtureCase, images }),
      decide: async (d) => {
        decisions.push(d);
        return { success: true, outcome: d.decision === 'reject' ? 'rejected' : 'repeat' };
      },
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    await user.click(await screen.findByRole('button', { name: caseCopy.reject }));
    const confirm = screen.getByRole('button', { name: caseCopy.rejectForm.confirm });
    expect(confirm).toBeDisabled();
    await user.selectOptions(
      screen.getByLabelText(caseCopy.rejectForm.reason),
      operadorTerms.rejectReasons.document_invalid,
    );
    await user.click(confirm);
    expect(await screen.findByText(caseCopy.outcomes.rejected)).toBeInTheDocument();
    expect(decisions).toEqual([{ decision: 'reject', reason: 'document_invalid' }]);

    await user.click(screen.getByRole('button', { name: caseCopy.backToQueue }));
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    await user.click(await screen.findByRole('button', { name: caseCopy.repeat }));
    await user.click(screen.getByRole('radio', { name: operadorTerms.steps.back }));
    await user.click(screen.getByRole('button', { name: caseCopy.repeatForm.confirm }));
    expect(await screen.findByText(caseCopy.outcomes.repeat)).toBeInTheDocument();
    expect(decisions[1]).toEqual({ decision: 'repeat', step: 'back' });
  });

  it("a centro case: 'Aprobar' waits for the desk photo, and says why", async () => {
    const user = app({
      fetchSession: async () => session,
      fetchQueue: async () => queue,
      claimNext: async () => ({ success: true, caseId: 'c2' }),
      loadCase: async () => ({
        detail: { ...fixtureCase, kind: 'centro', trigger: 'no_camera', approvalRule: 'one' },
        images,
      }),
    });
    await user.click(await screen.findByRole('button', { name: queueCopy.claim }));
    const approve = await screen.findByRole('button', { name: caseCopy.approve });
    expect(approve).toBeDisabled();
    expect(approve).toHaveAccessibleDescription(caseCopy.needsDeskPhoto);
    await user.click(screen.getByRole('button', { name: caseCopy.desk.start }));
    expect(screen.getByRole('heading', { name: caseCopy.desk.title })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: caseCopy.desk.capture })).toBeDisabled();
  });

  it("the enrolment: the operator's name, then 'Crear llave de acceso'; a cancelled prompt can be retried", async () => {
    const user = app(
      { createPasskey: () => Promise.reject(named('NotAllowedError')) },
      'a'.repeat(43),
    );
    expect(await screen.findByText(`Hola, ${fixtureOperator.nombre}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: operador.enrolment.submit }));
    expect(await screen.findByRole('alert')).toHaveTextContent(operador.errors.cancelled);
    expect(screen.getByRole('button', { name: operador.enrolment.retry })).toBeInTheDocument();
  });
});

describe('/operador/alta#<token>', () => {
  it('reads the token once from the fragment, takes it out of the address, asks for the options', async () => {
    const token = 'Q'.repeat(43);
    window.history.replaceState(null, '', `/operador/alta#${token}`);
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ success: true, operator: fixtureOperator, options: { rp: 'x' } }),
          { status: 200 },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    render(<OperatorEnrolmentFlow />);
    expect(
      await screen.findByRole('button', { name: operador.enrolment.submit }),
    ).toBeInTheDocument();
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/operador/alta');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/operador/alta/opciones');
    expect(JSON.parse(init.body as string)).toEqual({ token });
  });
});

describe('opened on an IP address (issue 43 item 3)', () => {
  it('says what to do (localhost or the site name), not that the service is down', async () => {
    window.history.replaceState(null, '', `/operador/alta#${'Q'.repeat(43)}`);
    // What the server answers when the page's host is an IP address (server/operators/auth.ts).
    const body = {
      success: false,
      message: 'Las llaves de acceso no funcionan en una dirección IP.',
      reason: OPERATOR_HOST_IS_IP,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status: 503 })),
    );
    render(<OperatorEnrolmentFlow />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(operador.errors.hostIsIp);
    expect(operador.errors.hostIsIp).toMatch(/localhost/);
    expect(alert).not.toHaveTextContent(/no está disponible/);
    // Trying again on the same address cannot help.
    expect(screen.queryByRole('button', { name: operador.enrolment.retry })).toBeNull();
  });
});

describe('the routes', () => {
  it('/operador (OPERATOR_PATH) loads the back office lazily: no session, the passkey login', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ success: false }), { status: 401 })),
    );
    render(
      <MemoryRouter initialEntries={[OPERATOR_PATH]}>
        <AppRoutes />
      </MemoryRouter>,
    );
    expect(
      await screen.findByRole('button', { name: operador.login.submit }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(OPERATOR_ENROL_PATH).toBe(`${OPERATOR_PATH}/alta`);
  });
});
