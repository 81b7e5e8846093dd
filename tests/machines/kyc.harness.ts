import { vi } from 'vitest';
import type { PhotoHint } from '../../machines/shared/photo-hint';
import { createActor, fromCallback, type AnyActorLogic, type InspectionEvent } from 'xstate';
import type { ScanIdResponse } from '../../contract/identity';
import type { Place } from '../../contract/onboarding';
import type { CaseStatus, CentresResponse, OpenCaseRequest } from '../../contract/cases';
import { assistMachine } from '../../machines/kyc/kyc.assist.machine';
import { selectAssistActor } from '../../machines/kyc/kyc.assist.selectors';
import { kycMachine } from '../../machines/kyc/kyc.machine';
import { selectSupplementaryActor } from '../../machines/kyc/kyc.selectors';
import { supplementaryMachine } from '../../machines/kyc/supplementary.machine';
import type { KycEvent, KycInput, KycSession } from '../../machines/kyc/kyc.types';
import type { CameraInput } from '../../machines/shared/camera';
import type { FrameCaptureInput } from '../../machines/shared/frame-capture';
import { controlled } from './controlled';

type OpenCaseInput = OpenCaseRequest;

/** A review case open, and a centre code (issue 30), as the server answers them. */
export const caseReview: CaseStatus = {
  kind: 'review',
  status: 'open',
  trigger: 'face_mismatch',
  openedAt: '2026-11-26T13:00:00.000Z',
  expectedBy: '2026-11-28T13:00:00.000Z',
};
export const caseCentro: CaseStatus = {
  ...caseReview,
  kind: 'centro',
  code: 'HK7MW3QA',
  expectedBy: '2026-12-26T13:00:00.000Z',
};

/** The KYC machine with every actor replaced by one the test drives (machine and screen tests). */
/** A callback actor the test drives: what it was started with, whether it is still running. */
export function probe<I>() {
  const runs: Array<{
    input: I;
    running: boolean;
    received: string[];
    send: (e: KycEvent) => void;
  }> = [];
  const logic = fromCallback<{ type: string }, I>(({ input, sendBack, receive }) => {
    const run = {
      input,
      running: true,
      received: [] as string[],
      send: sendBack as (e: KycEvent) => void,
    };
    runs.push(run);
    receive((e) => run.received.push(e.type));
    return () => {
      run.running = false;
    };
  });
  return { logic, runs, last: () => runs[runs.length - 1]! };
}

export const stream = { id: 'stream-1' } as unknown as MediaStream;
export const jpeg = (name: string) => new Blob([name], { type: 'image/jpeg' });
export const verified: ScanIdResponse = {
  success: true,
  kyc_complete: true,
  id_data: {
    FullName: 'FRANCO LOPEZ LIZ ANA',
    DocumentNumber: '6824773',
    DateOfBirth: '1955-10-08',
    Gender: 'F',
    Nationality: 'PARAGUAYA',
    MaritalStatus: 'CASADA',
  },
};

export function harness(
  sessions: Array<string | KycSession> = ['sess-1', 'sess-2', 'sess-3'],
  start = true,
  options: {
    inspect?: (event: InspectionEvent) => void;
    input?: KycInput;
    /** the selfie's sampling actor, when a test runs a real one (default: a probe) */
    livenessSampling?: AnyActorLogic;
  } = {},
) {
  const camera = probe<CameraInput>();
  const sampling = probe<{
    stream: MediaStream;
    sessionId: string;
    clockOrigin: number | null;
    challenge: unknown;
  }>();
  const capture = controlled<Blob, FrameCaptureInput>();
  const scaling = controlled<Blob, { file: Blob }>();
  const hint = controlled<PhotoHint | null, { photo: Blob }>();
  const verify = controlled<
    ScanIdResponse,
    { sessionId: string; front: Blob | null; back: Blob | null }
  >();
  const openCase = controlled<CaseStatus, OpenCaseInput>();
  const keepFront = controlled<ScanIdResponse, { sessionId: string; front: Blob }>();
  const caseStatus = controlled<CaseStatus | null, { registrationToken: string }>();
  const centres = controlled<CentresResponse, void>();
  const reject = controlled<void, { sessionId: string }>();
  const check = controlled<boolean, { registrationToken: string; sessionId: string }>();
  const departments = controlled<Place[], void>();
  const cities = controlled<Place[], { departmentId: string }>();
  const session = controlled<
    KycSession,
    { sessionId: string | null; registrationToken: string | null }
  >();
  const machine = kycMachine.provide({
    actors: {
      ensureSession: session.logic,
      camera: camera.logic as never,
      livenessSampling: (options.livenessSampling ?? sampling.logic) as never,
      frameCapture: capture.logic,
      imageScaling: scaling.logic,
      photoHint: hint.logic,
      verifyDocuments: verify.logic,
      checkDocument: check.logic,
      rejectKyc: reject.logic,
      assist: assistMachine.provide({
        actors: {
          openCase: openCase.logic,
          keepFront: keepFront.logic,
          readCaseStatus: caseStatus.logic,
          loadCentres: centres.logic as never,
        },
      }),
      supplementary: supplementaryMachine.provide({
        actors: { loadDepartments: departments.logic as never, loadCities: cities.logic },
      }),
    },
  });
  const { input = {}, livenessSampling: _sampling, ...rest } = options;
  const actor = createActor(machine, { input, ...rest });
  if (start) actor.start();
  let sessionIndex = 0;
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const answerSession = async () => {
    const next = sessions[sessionIndex++]!;
    session.calls[session.calls.length - 1]!.answer.resolve(
      typeof next === 'string' ? { sessionId: next } : next,
    );
    await flush();
  };
  return {
    machine,
    actor,
    camera,
    sampling,
    capture,
    scaling,
    hint,
    verify,
    check,
    reject,
    departments,
    cities,
    session,
    openCase,
    keepFront,
    caseStatus,
    centres,
    flush,
    answerSession,
    value: () => actor.getSnapshot().value,
    /** the way out's child (it runs while the KYC machine is in `assist`) */
    assistActor: () => selectAssistActor(actor.getSnapshot())!,
    /** the way out's child snapshot */
    assist: () => selectAssistActor(actor.getSnapshot())!.getSnapshot(),
    /** the KYC machine's state with the way out's inside `assist`, as one value */
    whole: () => {
      const s = actor.getSnapshot();
      const child = selectAssistActor(s);
      return s.matches('assist') && child ? { assist: child.getSnapshot().value } : s.value;
    },
    /** the supplementary form's child snapshot (it runs while the KYC machine is in `supplementary`) */
    supplementary: () => selectSupplementaryActor(actor.getSnapshot())!.getSnapshot(),
    /** selfie passed, front and back captured, the documents sent */
    /** the session answered, the front camera open, the blink challenge started */
    async toRunning() {
      await answerSession();
      camera.last().send({ type: 'camera.ready', stream });
      actor.send({ type: 'liveness.start' });
    },
    /** the selfie passed: on the front's live camera */
    async toFront() {
      await this.toRunning();
      sampling.last().send({
        type: 'poll.result',
        result: { liveness_detected: true, feedback: [], time_up: false },
      });
      await vi.advanceTimersByTimeAsync(1200);
    },
    async toVerifying() {
      await this.toFront();
      actor.send({ type: 'document.upload', file: jpeg('front-file') });
      scaling.calls.at(-1)!.answer.resolve(jpeg('front'));
      await flush();
      actor.send({ type: 'document.accept' });
      actor.send({ type: 'document.upload', file: jpeg('back-file') });
      scaling.calls.at(-1)!.answer.resolve(jpeg('back'));
      await flush();
      actor.send({ type: 'document.accept' });
    },
    async toReview(answer: ScanIdResponse = verified) {
      await this.toVerifying();
      verify.calls.at(-1)!.answer.resolve(answer);
      await flush();
    },
    async toSupplementary(
      list: Place[] = [{ id: '11', nombre: 'Central' }],
      answer: ScanIdResponse = verified,
    ) {
      await this.toReview(answer);
      actor.send({ type: 'review.confirm' });
      departments.calls.at(-1)!.answer.resolve(list);
      await flush();
    },
  };
}
