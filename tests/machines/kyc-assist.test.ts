import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaseStatus } from '../../contract/cases';
import type { ScanIdResponse } from '../../contract/identity';
import { createActor, type AnyActorRef } from 'xstate';
import { ApiError } from '../../machines/shared/errors';
import { assistMachine } from '../../machines/kyc/kyc.assist.machine';
import { assistFixtures } from '../../machines/kyc/kyc.assist.fixtures';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import {
  selectAssistNotice,
  selectAssistOffer,
  selectAssistView,
} from '../../machines/kyc/kyc.assist.selectors';
import { caseCentro, caseReview, harness, jpeg, stream, verified } from './kyc.harness';

/** The patient's way out of the identity step (issue 30): the offer, the case, resuming with it. */

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const TOKEN = 'R'.repeat(43);
const review: CaseStatus = { ...caseReview, trigger: 'patient_choice' };
const centro: CaseStatus = { ...caseCentro, trigger: 'patient_choice', code: 'ACDE3467' };
const refusal = (reason: string): ScanIdResponse => ({
  success: false,
  kyc_complete: false,
  reason,
});
const conflict = (reason: string) =>
  new ApiError('server', 409, 'No se puede cambiar el caso.', undefined, reason);

type H = ReturnType<typeof harness>;
const snap = (h: H) => h.actor.getSnapshot();
const registered = (input = {}) => ({ input: { registrationToken: TOKEN, ...input } });

/** A new photo of the side on screen, accepted. */
async function retake(h: H, name: string) {
  h.actor.send({ type: 'document.upload', file: jpeg(`${name}-file`) });
  h.scaling.calls.at(-1)!.answer.resolve(jpeg(name));
  await h.flush();
  h.actor.send({ type: 'document.accept' });
}

/** The blink challenge passed: on to the document. */
async function passSelfie(h: H) {
  h.camera.last().send({ type: 'camera.ready', stream });
  h.actor.send({ type: 'liveness.start' });
  h.sampling.last().send({
    type: 'poll.result',
    result: { liveness_detected: true, feedback: [], time_up: false },
  });
  await vi.advanceTimersByTimeAsync(1200);
}

/** The blink challenge not passed in its time. */
async function missLiveness(h: H) {
  h.camera.last().send({ type: 'camera.ready', stream });
  h.actor.send({ type: 'liveness.start' });
  h.sampling.last().send({
    type: 'poll.result',
    result: { liveness_detected: false, feedback: [], time_up: true },
  });
  await h.flush();
}

describe("kyc machine and its assist child: 'No puedo completar este paso' (issue 30)", () => {
  it('from the selfie: the offer, and Volver back to the selfie', async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toRunning();
    h.actor.send({ type: 'assist.open' });
    expect(h.whole()).toEqual({ assist: 'offer' });
    expect(h.assist().context.assist).toEqual({
      trigger: 'patient_choice',
      step: 'selfie',
      back: 'selfie',
      kind: null,
    });
    // Leaving the selfie stops its sampling and camera.
    expect(h.sampling.last().running).toBe(false);
    h.actor.send({ type: 'assist.back' });
    expect(snap(h).value).toEqual({ selfie: 'opening' });
  });

  it("from the card's back: the step named is the back, and Volver returns to it with the front kept", async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toFront();
    await retake(h, 'front');
    expect(snap(h).context.side).toBe('back');
    h.actor.send({ type: 'assist.open' });
    expect(h.assist().context.assist).toMatchObject({ step: 'back', back: 'document' });
    h.actor.send({ type: 'assist.back' });
    expect(snap(h).matches({ document: 'live' })).toBe(true);
    expect(snap(h).context.side).toBe('back');
    expect(await snap(h).context.front?.text()).toBe('front');
  });

  it("from the card's back, the front taken goes to the server before the case opens (issue 43 item 1)", async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toFront();
    await retake(h, 'front');
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    // The front alone, to this attempt's session: the server keeps it (refused 'back_missing').
    expect(h.whole()).toEqual({ assist: 'keepingFront' });
    expect(h.assist().hasTag('busy')).toBe(true);
    expect(h.keepFront.calls).toHaveLength(1);
    expect(h.keepFront.calls[0]!.input.sessionId).toBe('sess-1');
    expect(await h.keepFront.calls[0]!.input.front.text()).toBe('front');
    expect(h.openCase.calls).toHaveLength(0);
    h.keepFront.calls[0]!.answer.resolve(refusal('back_missing'));
    await h.flush();
    expect(h.whole()).toEqual({ assist: 'opening' });
    expect(h.openCase.calls[0]!.input).toEqual({
      registrationToken: TOKEN,
      kind: 'review',
      trigger: 'patient_choice',
      step: 'back',
    });
  });

  it('the front is not sent again once a scan answered, and offline the case opens all the same', async () => {
    // Offline: the case still opens (the patient is not held back by the front).
    const h = harness(['sess-1'], true, registered());
    await h.toFront();
    await retake(h, 'front');
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    h.keepFront.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await h.flush();
    expect(h.whole()).toEqual({ assist: 'opening' });
    // After a scan refused the back, the server has the front: straight to the case.
    const k = harness(['sess-1'], true, registered());
    await k.toVerifying();
    k.verify.calls[0]!.answer.resolve(refusal('mrz_unreadable'));
    await k.flush();
    expect(snap(k).context.side).toBe('back');
    k.actor.send({ type: 'assist.open' });
    k.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(k.whole()).toEqual({ assist: 'opening' });
    expect(k.keepFront.calls).toHaveLength(0);
  });

  it("'Que lo revise una persona': the case is opened with kind, trigger and step; its screen says when", async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toRunning();
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.whole()).toEqual({ assist: 'opening' });
    expect(h.assist().hasTag('busy')).toBe(true);
    expect(h.openCase.calls[0]!.input).toEqual({
      registrationToken: TOKEN,
      kind: 'review',
      trigger: 'patient_choice',
      step: 'selfie',
    });
    h.openCase.calls[0]!.answer.resolve(review);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    expect(h.assist().context.case).toEqual(review);
  });

  it("'Verificar en un centro de salud': the code, then the centres by department", async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toRunning();
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(h.openCase.calls[0]!.input.kind).toBe('centro');
    h.openCase.calls[0]!.answer.resolve(centro);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: { centre: 'loading' } } });
    const list = [
      {
        departamento: 'Central',
        centros: [
          {
            nombre: 'USF Luque',
            direccion: 'Calle 1',
            ciudad: 'Luque',
            horario: 'Lunes a viernes',
          },
        ],
      },
    ];
    h.centres.calls[0]!.answer.resolve(list);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: { centre: 'showing' } } });
    expect(h.assist().context.centres).toEqual(list);
    h.actor.send({ type: 'centre.department', departamento: 'Central' });
    expect(h.assist().context.department).toBe('Central');
  });

  it('the centres not loaded: Reintentar loads them again', async () => {
    const h = harness(['sess-1'], true, registered({ resume: { at: 'case', case: centro } }));
    h.centres.calls[0]!.answer.reject(new TypeError('offline'));
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: { centre: 'loadFailed' } } });
    expect(h.assist().context.assistError).toEqual({ code: 'centresFailed' });
    h.actor.send({ type: 'assist.retry' });
    expect(h.whole()).toEqual({ assist: { case: { centre: 'loading' } } });
    expect(h.centres.calls).toHaveLength(2);
    expect(h.assist().context.assistError).toBeNull();
  });
});

describe('the assist child: its own actor, typed input and output', () => {
  it("runs as the KYC's `assist` child (its own actor for the inspector), from the request made", async () => {
    const actors: string[] = [];
    const h = harness(['sess-1'], true, {
      ...registered(),
      inspect: (e) => {
        if (e.type === '@xstate.actor') actors.push((e.actorRef as AnyActorRef).id);
      },
    });
    await h.toRunning();
    expect(snap(h).children.assist).toBeUndefined();
    h.actor.send({ type: 'assist.open' });
    const child = h.assistActor();
    expect(actors).toContain('assist');
    expect(child.getSnapshot().machine.id).toBe('kycAssist');
    expect(h.assist().context).toMatchObject({
      registrationToken: TOKEN,
      assist: { trigger: 'patient_choice', step: 'selfie', back: 'selfie', kind: null },
      case: null,
      unsentFront: null,
      claim: null,
    });
    // Its events reach it straight (the views) or through the KYC machine (forwarded).
    child.send({ type: 'assist.choose', kind: 'review' });
    expect(h.whole()).toEqual({ assist: 'opening' });
  });

  it("'Volver' ends it with the step to go back to: the KYC machine goes there", () => {
    const child = createActor(assistMachine, {
      input: {
        registrationToken: TOKEN,
        assist: { trigger: 'patient_choice', step: 'front', back: 'document', kind: null },
        case: null,
        unsentFront: null,
        claim: null,
      },
    }).start();
    expect(child.getSnapshot().value).toBe('offer');
    child.send({ type: 'assist.back' });
    expect(child.getSnapshot().status).toBe('done');
    expect(child.getSnapshot().output).toEqual({ back: 'document' });
  });
});

describe('kyc machine: a refusal repeated offers a person on its own screen', () => {
  it('the blink challenge not passed twice: liveness_failed, not before the second', async () => {
    const h = harness(['sess-1', 'sess-2'], true, registered());
    await h.answerSession();
    await missLiveness(h);
    expect(snap(h).value).toEqual({ selfie: 'failed' });
    expect(snap(h).can({ type: 'assist.choose', kind: 'review' })).toBe(false);
    h.actor.send({ type: 'liveness.start' });
    await h.answerSession();
    await missLiveness(h);
    expect(snap(h).context.refusals).toEqual({ liveness: 2 });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.whole()).toEqual({ assist: 'opening' });
    expect(h.openCase.calls[0]!.input).toMatchObject({
      trigger: 'liveness_failed',
      step: 'selfie',
    });
    // Chosen from the refusal, not by the offer: no Volver.
    expect(h.assist().context.assist?.back).toBeNull();
  });

  it("no face on the card twice: no_face_on_document on the front (never the faces' trigger)", async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(refusal('no_face_on_document'));
    await h.flush();
    expect(snap(h).can({ type: 'assist.choose', kind: 'centro' })).toBe(false);
    await retake(h, 'front2');
    h.verify.calls[1]!.answer.resolve(refusal('no_face_on_document'));
    await h.flush();
    expect(snap(h).matches({ document: 'live' })).toBe(true);
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(h.openCase.calls[0]!.input).toMatchObject({
      kind: 'centro',
      trigger: 'no_face_on_document',
      step: 'front',
    });
  });

  it('the card unreadable twice (front then back): document_unreadable', async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(refusal('front_unreadable'));
    await h.flush();
    await retake(h, 'front2');
    h.verify.calls[1]!.answer.resolve(refusal('mrz_unreadable'));
    await h.flush();
    expect(snap(h).context.side).toBe('back');
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.openCase.calls[0]!.input).toMatchObject({
      trigger: 'document_unreadable',
      step: 'back',
    });
  });

  it('faces that differ twice: face_mismatch, from the rejection', async () => {
    const h = harness(['sess-1', 'sess-2'], true, registered());
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(refusal('face_mismatch'));
    await h.flush();
    expect(snap(h).value).toBe('rejected');
    expect(snap(h).can({ type: 'assist.choose', kind: 'review' })).toBe(false);
    // 'No puedo completar este paso' after one: the case still names the faces.
    h.actor.send({ type: 'assist.open' });
    expect(h.assist().context.assist).toMatchObject({
      trigger: 'face_mismatch',
      step: 'selfie',
      back: 'rejected',
    });
    h.actor.send({ type: 'assist.back' });
    expect(snap(h).value).toBe('rejected');
    h.actor.send({ type: 'kyc.retry' });
    await h.answerSession();
    await passSelfie(h);
    await retake(h, 'front');
    await retake(h, 'back');
    h.verify.calls[1]!.answer.resolve(refusal('face_mismatch'));
    await h.flush();
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.openCase.calls[0]!.input).toMatchObject({ trigger: 'face_mismatch' });
  });

  it('front and back of different cards twice: document_mismatch', async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(refusal('document_mismatch'));
    await h.flush();
    await retake(h, 'front2');
    await retake(h, 'back2');
    h.verify.calls[1]!.answer.resolve(refusal('document_mismatch'));
    await h.flush();
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.openCase.calls[0]!.input).toMatchObject({
      trigger: 'document_mismatch',
      step: 'front',
    });
  });

  it('no camera on the phone (no handoff possible): no_camera at once; on a computer, the phone instead', async () => {
    const phone = harness(['sess-1'], true, registered({ canHandoff: false }));
    await phone.answerSession();
    phone.camera.last().send({ type: 'camera.error', code: 'notFound' });
    phone.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(phone.openCase.calls[0]!.input).toMatchObject({ trigger: 'no_camera', step: 'selfie' });

    const computer = harness(['sess-1'], true, registered({ canHandoff: true }));
    await computer.answerSession();
    computer.camera.last().send({ type: 'camera.error', code: 'notFound' });
    expect(snap(computer).can({ type: 'assist.choose', kind: 'centro' })).toBe(false);
    // A refused permission can be fixed on the phone itself: not offered directly.
    const denied = harness(['sess-1'], true, registered({ canHandoff: false }));
    await denied.answerSession();
    denied.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    expect(snap(denied).can({ type: 'assist.choose', kind: 'centro' })).toBe(false);
  });
});

describe('kyc machine: the case', () => {
  async function waiting() {
    const h = harness(['sess-1'], true, registered({ resume: { at: 'case', case: review } }));
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    return h;
  }

  it('offline while opening: nothing lost, Reintentar sends the same request; Volver to the offer', async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toRunning();
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    h.openCase.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await h.flush();
    expect(h.whole()).toEqual({ assist: 'openFailed' });
    expect(h.assist().context.assistError).toEqual({ code: 'network' });
    h.actor.send({ type: 'assist.retry' });
    expect(h.openCase.calls[1]!.input).toEqual(h.openCase.calls[0]!.input);
    h.openCase.calls[1]!.answer.reject(new ApiError('server', 400, 'Registro no válido.'));
    await h.flush();
    expect(h.assist().context.assistError).toEqual({
      code: 'failed',
      serverMessage: 'Registro no válido.',
    });
    h.actor.send({ type: 'assist.back' });
    expect(h.whole()).toEqual({ assist: 'offer' });
  });

  it('the registration finished meanwhile: its own code', async () => {
    const h = harness(['sess-1'], true, registered());
    await h.toRunning();
    h.actor.send({ type: 'assist.open' });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    h.openCase.calls[0]!.answer.reject(conflict('registration_complete'));
    await h.flush();
    expect(h.assist().context.assistError).toEqual({ code: 'registrationComplete' });
  });

  it('a review resumed: the case shows at once, without a KYC session', async () => {
    const h = await waiting();
    expect(h.session.calls).toHaveLength(0);
    expect(h.assist().context.case).toEqual(review);
    expect(snap(h).context.resume).toBeNull();
  });

  it('Actualizar: the status read again, and its screen', async () => {
    const h = await waiting();
    h.actor.send({ type: 'case.refresh' });
    expect(h.whole()).toEqual({ assist: { case: 'refreshing' } });
    expect(h.caseStatus.calls[0]!.input).toEqual({ registrationToken: TOKEN });
    h.caseStatus.calls[0]!.answer.resolve(review);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    h.actor.send({ type: 'case.refresh' });
    h.caseStatus.calls[1]!.answer.reject(new ApiError('network', undefined, undefined));
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'refreshFailed' } });
    h.actor.send({ type: 'case.refresh' });
    h.caseStatus.calls[2]!.answer.resolve({ ...review, status: 'approved' });
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'decided' } });
  });

  it('Actualizar on a rejected review: the reason, and only the centre offered', async () => {
    const h = await waiting();
    h.actor.send({ type: 'case.refresh' });
    const rejected = {
      ...review,
      status: 'rejected' as const,
      rejectReason: 'photos_unusable' as const,
    };
    h.caseStatus.calls[0]!.answer.resolve(rejected);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'rejected' } });
    expect(h.assist().can({ type: 'assist.choose', kind: 'review' })).toBe(false);
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(h.openCase.calls[0]!.input).toEqual({
      registrationToken: TOKEN,
      kind: 'centro',
      trigger: 'patient_choice',
      step: 'selfie',
    });
  });

  it('a rejected centre case offers nothing more', () => {
    const h = harness(['sess-1'], true, {
      input: { resume: { at: 'case', case: { ...centro, status: 'rejected' } } },
    });
    expect(h.whole()).toEqual({ assist: { case: 'rejected' } });
    expect(h.assist().can({ type: 'assist.choose', kind: 'centro' })).toBe(false);
  });

  it('an expired code: a new code or a review, with the case trigger', () => {
    const h = harness(['sess-1'], true, {
      input: {
        registrationToken: TOKEN,
        resume: { at: 'case', case: { ...centro, status: 'expired', trigger: 'no_camera' } },
      },
    });
    expect(h.whole()).toEqual({ assist: { case: 'expired' } });
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.openCase.calls[0]!.input).toMatchObject({ kind: 'review', trigger: 'no_camera' });
  });

  it('from the review to the centre; a person took it already: said, the review stays', async () => {
    const h = await waiting();
    h.actor.send({ type: 'assist.choose', kind: 'review' });
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(h.openCase.calls[0]!.input.kind).toBe('centro');
    h.openCase.calls[0]!.answer.reject(conflict('case_taken'));
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    expect(h.assist().context.assistError).toEqual({ code: 'caseTaken' });
    expect(h.assist().context.case).toEqual(review);
  });

  it('the centre asked for offline: Volver returns to the review kept; from a failed refresh too', async () => {
    const h = await waiting();
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    h.openCase.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await h.flush();
    expect(h.whole()).toEqual({ assist: 'openFailed' });
    h.actor.send({ type: 'assist.back' });
    expect(h.whole()).toEqual({ assist: { case: 'waiting' } });
    expect(h.assist().context.assistError).toBeNull();
    h.actor.send({ type: 'case.refresh' });
    h.caseStatus.calls[0]!.answer.reject(new ApiError('network', undefined, undefined));
    await h.flush();
    expect(h.assist().can({ type: 'assist.choose', kind: 'review' })).toBe(false);
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    expect(h.whole()).toEqual({ assist: 'opening' });
    expect(h.openCase.calls[1]!.input.kind).toBe('centro');
  });

  it('decided meanwhile (case_decided): its status is read', async () => {
    const h = await waiting();
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    h.openCase.calls[0]!.answer.reject(conflict('case_decided'));
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'refreshing' } });
    h.caseStatus.calls[0]!.answer.resolve({ ...review, status: 'repeat', repeatStep: 'front' });
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: 'decided' } });
  });

  it('the centre switched to: the code and the centres', async () => {
    const h = await waiting();
    h.actor.send({ type: 'assist.choose', kind: 'centro' });
    h.openCase.calls[0]!.answer.resolve(centro);
    await h.flush();
    expect(h.whole()).toEqual({ assist: { case: { centre: 'loading' } } });
    expect(h.assist().context.case?.code).toBe('ACDE3467');
  });
});

describe('kyc machine: resuming after a decision', () => {
  it('approved: the complementary data, with the identity a person verified', async () => {
    const h = harness(['kyc-v'], true, {
      input: {
        sessionId: 'kyc-v',
        registrationToken: TOKEN,
        resume: { at: 'supplementary', idData: verified.id_data! },
      },
    });
    await h.answerSession();
    expect(snap(h).matches('supplementary')).toBe(true);
    expect(snap(h).context).toMatchObject({
      verifiedNotice: true,
      resume: null,
      kycResult: { success: true, kyc_complete: true, id_data: verified.id_data },
    });
  });

  it('the selfie again: with its notice, gone once the selfie is left', async () => {
    const h = harness(['kyc-9'], true, registered({ resume: { at: 'selfie' } }));
    await h.answerSession();
    expect(snap(h).value).toEqual({ selfie: 'opening' });
    expect(snap(h).context.repeatNotice).toBe(true);
    await passSelfie(h);
    expect(snap(h).matches('document')).toBe(true);
    expect(snap(h).context.repeatNotice).toBe(false);
  });

  it.each([
    ['front', 'back'],
    ['back', 'front'],
  ] as const)(
    'the %s again: only that side is taken and sent (the server kept the %s)',
    async (side, kept) => {
      const h = harness(['kyc-9'], true, {
        input: {
          sessionId: 'kyc-9',
          registrationToken: TOKEN,
          resume: { at: 'document', retake: side },
        },
      });
      await h.answerSession();
      expect(snap(h).matches({ document: 'live' })).toBe(true);
      expect(snap(h).context).toMatchObject({ side, retakeOnly: side, repeatNotice: true });
      await retake(h, side);
      expect(snap(h).value).toBe('verifying');
      const input = h.verify.calls[0]!.input;
      expect(await input[side]!.text()).toBe(side);
      expect(input[kept]).toBeNull();
    },
  );
});

describe('the way out: selectors', () => {
  it('the offer on a step: the choices after a refusal repeated, else the secondary action; none in a case', () => {
    expect(selectAssistOffer(kycFixtures.selfieNotDetected)).toBe('ask');
    expect(selectAssistOffer(kycFixtures.selfieNotDetectedTwice)).toBe('direct');
    expect(selectAssistOffer(kycFixtures.frontAgainNoFace)).toBe('ask');
    expect(selectAssistOffer(kycFixtures.frontAgainNoFaceTwice)).toBe('direct');
    expect(selectAssistOffer(kycFixtures.rejectedMismatchTwice)).toBe('direct');
    expect(selectAssistOffer(kycFixtures.selfieCameraNotFoundPhone)).toBe('direct');
    expect(selectAssistOffer(kycFixtures.selfieCameraNotFoundHandoff)).toBe('ask');
    expect(selectAssistOffer(kycFixtures.review)).toBeNull();
    expect(selectAssistOffer(kycFixtures.caseWaiting)).toBeNull();
  });

  it('notices: the step a person asked for, the identity they verified; nowhere else', () => {
    expect(selectAssistNotice(kycFixtures.repeatSelfie)).toBe('selfie');
    expect(selectAssistNotice(kycFixtures.repeatFront)).toBe('front');
    expect(selectAssistNotice(kycFixtures.repeatBack)).toBe('back');
    expect(selectAssistNotice(kycFixtures.verifiedByPerson)).toBe('verified');
    expect(selectAssistNotice(kycFixtures.selfieIdle)).toBeNull();
    expect(selectAssistNotice(kycFixtures.supplementary)).toBeNull();
  });

  it('the case view: screens by state, the code formatted, the centres of the department', () => {
    expect(selectAssistView(assistFixtures.caseRefreshFailed).screen).toBe('waiting');
    expect(selectAssistView(assistFixtures.assistOpenNetwork).screen).toBe('openFailed');
    const centre = selectAssistView(assistFixtures.centreDepartment);
    expect(centre).toMatchObject({ screen: 'centre', code: 'HK7M-W3QA' });
    // Every department ('Capital' is Asunción), issue 43 item 10.
    expect(centre.centres.departments).toHaveLength(18);
    expect(centre.centres.departments).toEqual(expect.arrayContaining(['Asunción', 'Central']));
    expect(centre.centres.list.map((c) => c.ciudad)).toEqual(['Luque', 'San Lorenzo']);
    expect(centre.centres.nearest).toEqual([]);
    // A department without a centre: the nearest ones, with their department.
    const none = selectAssistView(assistFixtures.centreNoCentre).centres;
    expect(none.list).toEqual([]);
    expect(none.nearest.map((c) => c.departamento)).toEqual(['Asunción', 'Central', 'Central']);
    expect(selectAssistView(assistFixtures.assistOffer).canBack).toBe(true);
    expect(selectAssistView(assistFixtures.assistOfferFromRefusal).canBack).toBe(false);
    expect(selectAssistView(assistFixtures.caseRejectedCentre)).toMatchObject({
      rejectReason: 'document_invalid',
      canCentre: false,
      canReview: false,
    });
  });
});
