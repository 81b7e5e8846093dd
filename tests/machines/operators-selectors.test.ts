import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { caseMachine } from '../../machines/operators/case.machine';
import {
  caseFixtures,
  operatorFixtures,
  queueFixtures,
} from '../../machines/operators/operators.fixtures';
import {
  selectCase,
  selectCaseActor,
  selectCodeEntry,
  selectCorrection,
  selectDesk,
  selectEnrolment,
  selectLogin,
  selectOperator,
  selectOperatorScreen,
  selectQueue,
  selectQueueActor,
  selectRejection,
  selectRepeat,
} from '../../machines/operators/operators.selectors';
import { ageText, reasonText } from '../../src/copy/es.operators';

const o = operatorFixtures;
const q = queueFixtures;
// The case's fixtures restored as its actor would be: its children (the correction form, the desk
// camera) are actors the selectors read, as in the page.
const c = Object.fromEntries(
  Object.entries(caseFixtures).map(([name, f]) => [
    name,
    createActor(caseMachine, { snapshot: f, input: { caseId: f.context.caseId } }).getSnapshot(),
  ]),
) as typeof caseFixtures;

describe('operatorAuth selectors', () => {
  it('maps every state to its screen', () => {
    expect(selectOperatorScreen(o.checking)).toBe('checking');
    for (const f of [o.loggedOut, o.loginCancelled, o.authenticatingPrompting])
      expect(selectOperatorScreen(f)).toBe('login');
    for (const f of [o.enrolmentLoading, o.enrolmentReady, o.enrolmentLinkInvalid])
      expect(selectOperatorScreen(f)).toBe('enrolment');
    for (const f of [o.desk, o.deskCase, o.loggingOut])
      expect(selectOperatorScreen(f)).toBe('desk');
  });

  it('the login: busy while a ceremony runs, the error only after a failure, the notice', () => {
    expect(selectLogin(o.authenticatingVerifying)).toMatchObject({ busy: true, error: null });
    expect(selectLogin(o.loginUnsupported)).toMatchObject({
      busy: false,
      error: { code: 'unsupported' },
    });
    expect(selectLogin(o.loggedOutExpired).notice).toBe('sessionExpired');
  });

  it('the enrolment: its status, and a spent link cannot be retried', () => {
    expect(selectEnrolment(o.enrolmentLoading).status).toBe('loading');
    expect(selectEnrolment(o.enrolmentVerifying).status).toBe('registering');
    expect(selectEnrolment(o.enrolmentLinkInvalid)).toMatchObject({
      status: 'failed',
      canRetry: false,
    });
    expect(selectEnrolment(o.enrolmentCancelled)).toMatchObject({
      status: 'failed',
      canRetry: true,
    });
  });

  it('hands the desk its child: the queue or the case, never both', () => {
    expect(selectOperator(o.loggingOut).loggingOut).toBe(true);
    expect(selectQueueActor(o.desk)).toBeDefined();
    expect(selectCaseActor(o.desk)).toBeUndefined();
    expect(selectCaseActor(o.deskCase)).toBeDefined();
    expect(selectQueueActor(o.deskCase)).toBeUndefined();
    expect(selectQueueActor(o.loggingOut)).toBeUndefined();
  });
});

describe('operatorQueue selectors', () => {
  it('each case with its age from when the list was read', () => {
    const view = selectQueue(q.list);
    expect(view.status).toBe('showing');
    expect(view.cases.map((x) => x.ageMinutes)).toEqual([190, 42, 3]);
    expect(view.cases.map((x) => ageText(x.ageMinutes))).toEqual([
      'hace 3 horas',
      'hace 42 minutos',
      'hace 3 minutos',
    ]);
  });

  it('maps the states', () => {
    expect(selectQueue(q.loading).status).toBe('loading');
    expect(selectQueue(q.claiming).status).toBe('claiming');
    expect(selectQueue(q.nothingToTake).nothingToTake).toBe(true);
    expect(selectQueue(q.failed)).toMatchObject({ status: 'failed', error: { code: 'network' } });
    expect(selectQueue(q.taken).status).toBe('opening');
    expect(selectQueue(q.expired).status).toBe('expired');
    expect(selectQueue(q.codeEditing).status).toBe('code');
  });

  it('the code entry: when it can be submitted, and the error it shows', () => {
    expect(selectCodeEntry(q.codeEditing)).toMatchObject({ status: 'editing', canSubmit: true });
    expect(selectCodeEntry(q.codeIncomplete)).toMatchObject({ status: 'incomplete', error: null });
    expect(selectCodeEntry(q.codeLooking).canSubmit).toBe(false);
    expect(selectCodeEntry(q.codeNotFound).error?.code).toBe('notFound');
    expect(selectCodeEntry(q.codeLimited)).toMatchObject({
      status: 'limited',
      canSubmit: false,
      error: { retryAfterSeconds: 120 },
    });
  });
});

describe('operatorCase selectors', () => {
  it('the status and the open panel', () => {
    expect(selectCase(c.loading).status).toBe('loading');
    expect(selectCase(c.reviewing)).toMatchObject({ status: 'reviewing', panel: 'none' });
    expect(selectCase(c.correctingSaving).panel).toBe('correcting');
    expect(selectCase(c.confirmingApproval).panel).toBe('confirmingApproval');
    expect(selectCase(c.deskLive).panel).toBe('desk');
    expect(selectCase(c.uploading).panel).toBe('uploading');
    expect(selectCase(c.deciding).status).toBe('deciding');
    expect(selectCase(c.decidedAwaitingSupervisor).outcome).toBe('awaiting_supervisor');
    expect(selectCase(c.closed).status).toBe('closed');
    expect(selectCase(c.expired).status).toBe('closed');
  });

  it('who may decide, and a centro case waits for the desk photo', () => {
    expect(selectCase(c.reviewing)).toMatchObject({ canDecide: true, canApprove: true });
    expect(selectCase(c.reviewingReadOnly)).toMatchObject({ canDecide: false, canApprove: false });
    expect(selectCase(c.centro)).toMatchObject({ canApprove: false, needsDeskPhoto: true });
    expect(selectCase(c.centroWithPhoto)).toMatchObject({
      canApprove: true,
      needsDeskPhoto: false,
    });
  });

  it('similarity and threshold as whole percentages; none when not measured', () => {
    expect(selectCase(c.reviewing)).toMatchObject({ similarityPercent: 46, thresholdPercent: 60 });
    expect(selectCase(c.centro)).toMatchObject({ similarityPercent: null, thresholdPercent: null });
  });

  it('errors: shown after a failure, not for an incomplete correction (its field says why)', () => {
    expect(selectCase(c.reviewingFailed).error?.code).toBe('conflict');
    expect(selectCase(c.correctingIncomplete).error).toBeNull();
    expect(selectCorrection(c.correctingIncomplete)).toMatchObject({
      incomplete: true,
      saving: false,
    });
    expect(selectCorrection(c.correctingSaving).saving).toBe(true);
  });

  it("a correction says what is wrong by its field's rule; a server refusal stays in the form", () => {
    expect(selectCorrection(c.correctingIncomplete).problem).toBe('reason');
    expect(selectCorrection(c.correctingInvalidNumber)).toMatchObject({
      input: 'number',
      problem: 'value',
    });
    expect(selectCorrection(c.correctingChoice)).toMatchObject({ input: 'choice', problem: null });
    expect(selectCorrection(c.correctingChoice).choices).toEqual(['F', 'M', 'X']);
    expect(selectCorrection(c.correctingRefused).refusal?.serverMessage).toMatch(/DD\/MM\/AAAA/);
    expect(selectCase(c.correctingRefused).error).toBeNull();
  });

  it('which fields were typed, how the case is approved, and its version', () => {
    expect(selectCase(c.reviewing)).toMatchObject({
      typedFields: ['DateOfBirth'],
      needsSecondApproval: true,
      needsCard: false,
      version: '3F9A-1C7E',
    });
    expect(selectCase(c.reviewingCardMissing)).toMatchObject({
      typedFields: ['FullName', 'DocumentNumber'],
      needsCard: true,
      canApprove: false,
    });
    // A remote review with no selfie (issue 43 item 2): not approved here, no desk photo asked.
    expect(selectCase(c.reviewingSelfieMissing)).toMatchObject({
      needsSelfie: true,
      needsCard: false,
      needsDeskPhoto: false,
      canApprove: false,
    });
    expect(selectCase(c.reviewing).needsSelfie).toBe(false);
    expect(selectCase(c.reviewingChanged).error?.code).toBe('caseChanged');
  });

  it('the rejection and the repeat can be confirmed only with their choice', () => {
    expect(selectRejection(c.rejecting).canConfirm).toBe(true);
    expect(selectRepeat(c.repeating)).toEqual({ step: 'front', canConfirm: true });
  });

  it('the desk camera and the match as a signal', () => {
    expect(selectDesk(c.deskOpening)).toMatchObject({ camera: 'opening', canCapture: false });
    expect(selectDesk(c.deskLive)).toMatchObject({ camera: 'live', canCapture: true });
    expect(selectDesk(c.deskCapturing).camera).toBe('capturing');
    expect(selectDesk(c.deskCameraFailed)).toMatchObject({
      camera: 'failed',
      cameraError: 'permissionDenied',
    });
    expect(selectDesk(c.centroWithPhoto).match).toEqual({
      similarityPercent: 74,
      thresholdPercent: 60,
      above: true,
    });
  });
});

describe('the copy of codes', () => {
  it('an engine reason in words; an unknown code as it is', () => {
    expect(reasonText('mrz_unreadable')).toBe('No se leyó la zona de lectura del dorso');
    expect(reasonText('some_new_code')).toBe('some_new_code');
  });
  it('ages in days past two days', () => {
    expect(ageText(3 * 24 * 60)).toBe('hace 3 días');
    expect(ageText(0)).toBe('recién');
  });
});
