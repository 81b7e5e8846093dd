import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assist } from '../../src/copy/es.assist';
import { cameraErrors } from '../../src/copy/es.camera';
import { kyc, kycErrors, supplementaryFieldErrors } from '../../src/copy/es.kyc';
import { onboarding } from '../../src/copy/es.onboarding';
import { stream, verified } from '../machines/kyc.harness';
import { button, heading, renderKyc, settle } from './kyc.render';

const copy = kyc;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('KYC screens', () => {
  it('selfie: the framing on the oval, from the server code, until an answer says otherwise; 3 s without progress say why (issue 41)', async () => {
    const h = renderKyc();
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    fireEvent.click(button(copy.selfie.start));
    const oval = screen.getByRole('status', { name: copy.selfie.framingLabel });
    expect(oval).toHaveAttribute('aria-live', 'polite');
    expect(oval).toBeEmptyDOMElement();
    const reply = (feedback: string[], framing?: ['too_far'] | ['too_close']) =>
      settle(() =>
        h.sampling.last().send({
          type: 'poll.result',
          result: {
            liveness_detected: false,
            feedback,
            time_up: false,
            ...(framing ? { framing } : {}),
          },
        }),
      );
    await reply(['Parpadeos: 0 de 3.']);
    await reply([], ['too_far']);
    expect(oval).toHaveTextContent(copy.selfie.framing.too_far);
    expect(copy.selfie.framing.too_far).toBe('Acercá el celular.');
    expect(oval.querySelector('[data-liveness-framing]')).toHaveAttribute(
      'data-liveness-framing',
      'too_far',
    );
    // An answer that says nothing new keeps it, and the count below stays.
    await reply([]);
    await reply(['Parpadeos: 0 de 3.']);
    expect(oval).toHaveTextContent(copy.selfie.framing.too_far);
    await reply([], ['too_close']);
    expect(oval).toHaveTextContent('Alejá un poco el celular.');
    await reply(['Parpadeos: 1 de 3.']);
    expect(oval).toBeEmptyDOMElement();
    await settle(() => vi.advanceTimersByTimeAsync(3000));
    expect(oval).toHaveTextContent('Mantené tu cara dentro del óvalo.');
    expect(screen.getByRole('status', { name: copy.selfie.feedbackLabel })).toHaveTextContent(
      'Parpadeos: 1 de 3.',
    );
  });

  it('selfie: the mirrored oval, one button by state, hints joined with bullets (duplicates hidden) and announced politely', async () => {
    const h = renderKyc();
    expect(screen.getByRole('status')).toHaveTextContent(copy.loading);
    await settle(() => h.answerSession());
    expect(heading(copy.selfie.title)).toHaveFocus();
    expect(button(copy.selfie.start)).toBeDisabled();
    expect(screen.getByText(copy.selfie.openingCamera)).toBeInTheDocument();
    const video = screen.getByLabelText(copy.selfie.videoLabel);
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('poster');
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    fireEvent.click(button(copy.selfie.start));
    expect(h.sampling.runs).toHaveLength(1);
    await settle(() =>
      h.sampling.last().send({
        type: 'poll.result',
        result: {
          liveness_detected: false,
          feedback: [
            'Parpadeá despacio (1 de 3).',
            'frame duplicado: la imagen se repite, no cuenta.',
            'Quedate quieto/a un momento.',
          ],
          time_up: false,
        },
      }),
    );
    const hints = screen.getByRole('status', { name: copy.selfie.feedbackLabel });
    expect(hints).toHaveAttribute('aria-live', 'polite');
    expect(hints).toHaveTextContent('Parpadeá despacio (1 de 3). • Quedate quieto/a un momento.');
    expect(hints).not.toHaveTextContent('frame duplicado');
    fireEvent.click(button(copy.selfie.stop));
    expect(h.sampling.last().running).toBe(false);
    fireEvent.click(button(copy.selfie.start));
    await settle(() =>
      h.sampling.last().send({
        type: 'poll.result',
        result: { liveness_detected: true, feedback: [], time_up: false },
      }),
    );
    expect(screen.getByText(copy.selfie.passed)).toBeInTheDocument();
    expect(button(copy.selfie.redirecting)).toBeDisabled();
    await settle(() => vi.advanceTimersByTimeAsync(1200));
    expect(heading(copy.document.frontTitle)).toHaveFocus();
  });

  it("selfie: a failed challenge shows the spec's text and 'Intentar nuevamente'", async () => {
    const h = renderKyc();
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    fireEvent.click(button(copy.selfie.start));
    await settle(() => h.sampling.last().send({ type: 'poll.error', error: { code: 'network' } }));
    expect(screen.getByRole('alert')).toHaveTextContent(kycErrors.livenessFailed);
    fireEvent.click(button(copy.selfie.retry));
    expect(h.session.calls).toHaveLength(2);
  });

  it("selfie with the challenge (issue 31): the colour notice before the start, the colour around the oval and 'Parpadeá ahora' as the machine says, for people and for the synthetic camera", async () => {
    const h = renderKyc({}, [{ sessionId: 'sess-1', challenge: 'cues,light' }]);
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    expect(screen.getByText(copy.selfie.cueIntro)).toBeInTheDocument();
    expect(screen.getByText(copy.selfie.lightNotice)).toBeInTheDocument();
    fireEvent.click(button(copy.selfie.start));
    expect(screen.queryByText(copy.selfie.lightNotice)).toBeNull();
    const lit = () => document.querySelectorAll('[data-liveness-light]');
    const cue = () => document.querySelectorAll('[data-liveness-cue]');
    expect([lit().length, cue().length]).toEqual([0, 0]);
    await settle(() => h.sampling.last().send({ type: 'light.show', index: 0, colour: '#ffd27a' }));
    expect(lit()).toHaveLength(1);
    expect(lit()[0]).toHaveAttribute('data-liveness-light', '#ffd27a');
    expect(lit()[0]).toHaveStyle({ backgroundColor: '#ffd27a' });
    // The texts stay on the screen, above the colour.
    expect(heading(copy.selfie.title)).toBeInTheDocument();
    expect(button(copy.selfie.stop)).toBeEnabled();
    await settle(() =>
      h.sampling.last().send({ type: 'cue.show', cue: { n: 1, of: 3, at: 4000, until: 5500 } }),
    );
    expect(cue()).toHaveLength(1);
    expect(cue()[0]).toHaveTextContent(copy.selfie.cue);
    expect(cue()[0]!.parentElement).toHaveAttribute('aria-live', 'assertive');
    await settle(() => h.sampling.last().send({ type: 'cue.hide' }));
    await settle(() => h.sampling.last().send({ type: 'light.off' }));
    expect([lit().length, cue().length]).toEqual([0, 0]);
    // Stopped in the middle: nothing of the challenge stays.
    await settle(() => h.sampling.last().send({ type: 'light.show', index: 1, colour: '#7ab8ff' }));
    fireEvent.click(button(copy.selfie.stop));
    expect(lit()).toHaveLength(0);
  });

  it("selfie: a refusal of the challenge shows the server's sentence, 'Intentar nuevamente' and 'No puedo completar este paso'", async () => {
    const h = renderKyc({}, [{ sessionId: 'sess-1', challenge: 'cues,light' }, 'sess-2']);
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    fireEvent.click(button(copy.selfie.start));
    const sentence = 'No vimos tus parpadeos cuando te los pedimos.';
    await settle(() =>
      h.sampling.last().send({
        type: 'poll.error',
        error: { code: 'rejected', status: 422, serverMessage: sentence, reason: 'cues_missed' },
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(sentence);
    expect(button(assist.action)).toBeInTheDocument();
    fireEvent.click(button(copy.selfie.retry));
    expect(h.session.calls).toHaveLength(2);
  });

  it("camera errors: docs/decisions.md's texts; 'Reintentar' asks the camera again where it can help", async () => {
    const h = renderKyc();
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.error', code: 'permissionDenied' }));
    expect(screen.getByRole('alert')).toHaveTextContent(cameraErrors.permissionDenied);
    expect(screen.queryByRole('button', { name: copy.selfie.start })).toBeNull();
    fireEvent.click(button(onboarding.retry));
    expect(h.camera.last().received).toEqual(['camera.retry']);
    await settle(() => h.camera.last().send({ type: 'camera.error', code: 'insecureContext' }));
    expect(screen.getByRole('alert')).toHaveTextContent(cameraErrors.insecureContext);
    expect(screen.queryByRole('button', { name: onboarding.retry })).toBeNull();
    expect(button(onboarding.cancel)).toBeEnabled();
  });

  it("a registered cédula: 'Ya tenés una cuenta con esta cédula' once the card is read, with login, recovery and what to do if it was not them (issue 29 item 10)", async () => {
    const h = renderKyc({ registrationToken: 'R'.repeat(43) });
    await settle(() => h.toVerifying());
    await settle(() => h.verify.calls[0]!.answer.resolve(verified));
    // The wait shows a spinner beside its text (item 14).
    expect(heading(copy.verifying.title)).toBeInTheDocument();
    expect(screen.getByTestId('spinner')).toBeInTheDocument();
    await settle(() => h.check.calls[0]!.answer.resolve(true));
    expect(heading(copy.documentRegistered.title)).toHaveFocus();
    expect(screen.getByRole('link', { name: copy.documentRegistered.login })).toHaveAttribute(
      'href',
      '/login',
    );
    expect(screen.getByRole('link', { name: copy.documentRegistered.forgotPin })).toHaveAttribute(
      'href',
      '/recuperar-pin',
    );
    expect(screen.getByText(copy.documentRegistered.notYou)).toBeInTheDocument();
  });

  it("without a camera, 'Seguir en mi celular' is the first, primary action (issue 29 item 12)", async () => {
    const h = renderKyc({ canHandoff: true });
    await settle(() => h.answerSession());
    // With a camera: a secondary choice after the selfie's own button.
    const buttons = () => screen.getAllByRole('button').map((b) => b.textContent);
    expect(buttons().indexOf(copy.handoff.action)).toBeGreaterThan(
      buttons().indexOf(copy.selfie.start),
    );
    await settle(() => h.camera.last().send({ type: 'camera.error', code: 'notFound' }));
    expect(buttons()[0]).toBe(copy.handoff.action);
    expect(screen.getAllByRole('button', { name: copy.handoff.action })).toHaveLength(1);
    expect(screen.getByText(copy.handoff.noCamera)).toBeInTheDocument();
  });

  it("documents: 'Capturar' only once the video plays, 'Subir imagen' takes a file, the preview offers 'Volver a capturar' (or 'Elegir otra imagen' after an upload) and 'Continuar'", async () => {
    const h = renderKyc();
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    fireEvent.click(button(copy.selfie.start));
    await settle(() =>
      h.sampling.last().send({
        type: 'poll.result',
        result: { liveness_detected: true, feedback: [], time_up: false },
      }),
    );
    await settle(() => vi.advanceTimersByTimeAsync(1200));
    expect(button(copy.document.capture)).toBeDisabled();
    expect(screen.getByText(copy.document.cameraNotReady)).toBeInTheDocument();
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    expect(button(copy.document.capture)).toBeDisabled();
    fireEvent(screen.getByLabelText(copy.document.frontVideoLabel), new Event('playing'));
    expect(button(copy.document.capture)).toBeEnabled();
    expect(screen.queryByText(copy.document.cameraNotReady)).toBeNull();
    // A card-shaped frame over the live camera (issue 29 item 14).
    expect(screen.getByTestId('card-frame')).toBeInTheDocument();
    fireEvent.click(button(copy.document.capture));
    expect(h.capture.calls).toHaveLength(1);
    await settle(() => h.capture.calls[0]!.answer.resolve(new Blob(['f'], { type: 'image/jpeg' })));
    expect(screen.getByRole('img', { name: copy.document.frontPreviewAlt })).toBeInTheDocument();
    expect(screen.queryByTestId('card-frame')).toBeNull();
    expect(screen.queryByRole('button', { name: copy.document.chooseAnother })).toBeNull();
    expect(screen.queryByText(copy.document.photoHint.dark)).toBeNull();
    await settle(() => h.hint.calls.at(-1)!.answer.resolve('dark'));
    expect(screen.getByRole('status')).toHaveTextContent(copy.document.photoHint.dark);
    fireEvent.click(button(copy.document.retake));
    expect(heading(copy.document.frontTitle)).toBeInTheDocument();
    const file = new File(['x'], 'cedula.png', { type: 'image/png' });
    fireEvent.change(screen.getByTestId('upload-front'), { target: { files: [file] } });
    expect(h.scaling.calls[0]!.input.file).toBe(file);
    await settle(() =>
      h.scaling.calls[0]!.answer.resolve(new Blob(['f2'], { type: 'image/jpeg' })),
    );
    // After an upload: 'Elegir otra imagen' (another file), not 'Volver a capturar'; a photo with
    // no card in it is said (issue 29 item 14).
    expect(screen.queryByRole('button', { name: copy.document.retake })).toBeNull();
    await settle(() => h.hint.calls.at(-1)!.answer.resolve('noCard'));
    expect(screen.getByRole('status')).toHaveTextContent(copy.document.photoHint.noCard);
    const another = new File(['y'], 'otra.png', { type: 'image/png' });
    fireEvent.click(button(copy.document.chooseAnother));
    fireEvent.change(screen.getByTestId('upload-front'), { target: { files: [another] } });
    expect(h.scaling.calls[1]!.input.file).toBe(another);
    await settle(() =>
      h.scaling.calls[1]!.answer.resolve(new Blob(['f3'], { type: 'image/jpeg' })),
    );
    fireEvent.click(button(copy.document.accept));
    expect(heading(copy.document.backTitle)).toHaveFocus();
  });

  it("review: the extracted data read-only, as the card prints it (2.719.564-style number, dd/mm/aaaa, FEMENINO, PARAGUAYA); 'Reintentar' posts the rejection", async () => {
    const h = renderKyc();
    await settle(() => h.toReview());
    expect(heading(copy.review.title)).toHaveFocus();
    const value = (label: string) => screen.getByText(label).nextElementSibling;
    const labels = copy.review.labels;
    expect(value(labels.apellido)).toHaveTextContent('FRANCO LOPEZ');
    expect(value(labels.nombre)).toHaveTextContent('LIZ ANA');
    expect(value(labels.numeroDocumento)).toHaveTextContent(/^6\.824\.773$/);
    expect(value(labels.fechaNacimiento)).toHaveTextContent('08/10/1955');
    expect(value(labels.sexo)).toHaveTextContent(/^FEMENINO$/);
    expect(value(labels.nacionalidad)).toHaveTextContent(/^PARAGUAYA$/);
    expect(value(labels.estado_civil)).toHaveTextContent('CASADA');
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(button(copy.review.retry));
    expect(h.reject.calls[0]!.input).toEqual({ sessionId: 'sess-1' });
  });

  it("'No pudimos validar tu identidad': the message, three tips and 'Reintentar'", async () => {
    const h = renderKyc();
    await settle(() => h.toVerifying());
    expect(heading(copy.verifying.title)).toBeInTheDocument();
    await settle(() =>
      h.verify.calls[0]!.answer.resolve({
        success: false,
        kyc_complete: false,
        error: 'Face verification failed: x',
        reason: 'face_mismatch',
      }),
    );
    expect(heading(copy.rejected.title)).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(kycErrors.faceMismatch);
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(button(copy.rejected.retry));
    expect(h.session.calls).toHaveLength(2);
  });

  it("review: a nationality the server sends in words (a foreign resident's card) shows as sent", async () => {
    const h = renderKyc();
    await settle(() =>
      h.toReview({ ...verified, id_data: { ...verified.id_data!, Nationality: 'Argentina ' } }),
    );
    const value = (label: string) => screen.getByText(label).nextElementSibling;
    expect(value(copy.review.labels.nacionalidad)).toHaveTextContent(/^ARGENTINA$/);
  });

  it("a card whose photo was not found: its own text on the front's screen (never the mismatch), and the front again", async () => {
    const h = renderKyc();
    await settle(() => h.toVerifying());
    await settle(() =>
      h.verify.calls[0]!.answer.resolve({
        success: false,
        kyc_complete: false,
        error: 'Face verification failed: no encontramos una cara en el frente del documento.',
        reason: 'no_face_on_document',
      }),
    );
    expect(heading(copy.document.frontTitle)).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(kycErrors.noFaceOnDocument);
    expect(kycErrors.noFaceOnDocument).toContain('No pudimos ver la foto de tu cédula.');
    expect(screen.queryByText(kycErrors.faceMismatch)).toBeNull();
    expect(screen.queryByText(/Face verification failed/)).toBeNull();
  });

  it("the back's code not read: the server's sentence on the back's screen", async () => {
    const h = renderKyc();
    await settle(() => h.toVerifying());
    const sentence =
      'No pudimos leer el código del dorso del documento. Sacá una foto más nítida del dorso, con buena luz.';
    await settle(() =>
      h.verify.calls[0]!.answer.resolve({
        success: false,
        kyc_complete: false,
        error: sentence,
        reason: 'mrz_unreadable',
      }),
    );
    expect(heading(copy.document.backTitle)).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent(sentence);
  });

  it("supplementary: 9 blood types ('No sé' first), the city disabled until a department, the spec's messages", async () => {
    const h = renderKyc();
    await settle(() => h.toSupplementary([{ id: '11', nombre: 'Central' }]));
    expect(heading(copy.supplementary.title)).toHaveFocus();
    const blood = screen.getByLabelText(copy.supplementary.bloodLabel) as HTMLSelectElement;
    expect(within(blood).getAllByRole('option')).toHaveLength(9);
    expect(blood.value).toBe('No sé');
    expect(screen.getByLabelText(copy.supplementary.cityLabel)).toBeDisabled();
    fireEvent.click(button(copy.supplementary.submit));
    expect(screen.getByText(supplementaryFieldErrors.departmentRequired)).toBeInTheDocument();
    expect(screen.getByText(supplementaryFieldErrors.cityRequired)).toBeInTheDocument();
    // The focus goes to the first field to fix.
    expect(screen.getByLabelText(copy.supplementary.departmentLabel)).toHaveFocus();
    fireEvent.change(screen.getByLabelText(copy.supplementary.departmentLabel), {
      target: { value: '11' },
    });
    expect(h.cities.calls[0]!.input).toEqual({ departmentId: '11' });
    await settle(() => h.cities.calls[0]!.answer.resolve([{ id: '11-7', nombre: 'Luque' }]));
    const city = screen.getByLabelText(copy.supplementary.cityLabel);
    expect(city).toBeEnabled();
    fireEvent.change(city, { target: { value: '11-7' } });
    fireEvent.click(button(copy.supplementary.submit));
    expect(h.actor.getSnapshot().output).toMatchObject({
      sessionId: 'sess-1',
      kycResult: verified,
      supplementaryData: { tipoSangre: 'No sé', departamento: '11', ciudad_id: '11-7' },
    });
  });
});
