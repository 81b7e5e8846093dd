import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KycInput } from '../../machines/kyc/kyc.types';
import { formatDateInWords } from '../../machines/kyc/kyc.assist.selectors';
import { ApiError } from '../../machines/shared/errors';
import { assist, assistErrors, rejectReasons } from '../../src/copy/es.assist';
import { kyc, kycErrors } from '../../src/copy/es.kyc';
import {
  caseCentro as centro,
  caseReview as review,
  jpeg,
  stream,
  verified,
} from '../machines/kyc.harness';
import { button, heading, renderKyc as renderWith, settle } from './kyc.render';

/** The way out's screens (issue 30), on a KYC actor whose calls the test answers. */

const TOKEN = 'R'.repeat(43);
const renderKyc = (input: KycInput = {}) => renderWith({ registrationToken: TOKEN, ...input });

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the way out (issue 30)', () => {
  it("'No puedo completar este paso' on the selfie: the offer, Volver, then a review opened", async () => {
    const h = renderKyc();
    await settle(() => h.answerSession());
    await settle(() => h.camera.last().send({ type: 'camera.ready', stream }));
    // A secondary action below the step's own.
    expect(screen.queryByRole('button', { name: assist.review })).toBeNull();
    fireEvent.click(button(assist.action));
    expect(heading(assist.offer.title)).toHaveFocus();
    expect(button(assist.review)).toBeInTheDocument();
    expect(button(assist.centre)).toBeInTheDocument();
    fireEvent.click(button(assist.back));
    expect(heading(kyc.selfie.title)).toBeInTheDocument();
    fireEvent.click(button(assist.action));
    fireEvent.click(button(assist.review));
    expect(screen.getByRole('status')).toHaveTextContent(assist.opening);
    await settle(() => h.openCase.calls[0]!.answer.resolve(review));
    expect(heading(assist.waiting.title)).toBeInTheDocument();
    // When to expect an answer, in words; the SMS; the registration can be closed.
    expect(
      screen.getByText(assist.waiting.expected('sábado, 28 de noviembre de 2026')),
    ).toBeInTheDocument();
    expect(screen.getByText(assist.waiting.sms)).toBeInTheDocument();
    expect(screen.getByText(assist.waiting.resume)).toBeInTheDocument();
    // The trigger is never shown.
    expect(document.body.textContent).not.toMatch(/face_mismatch|patient_choice/);
  });

  it('Actualizar: asks again; offline says so and keeps the case', async () => {
    const h = renderKyc({ resume: { at: 'case', case: review } });
    fireEvent.click(button(assist.waiting.refresh));
    expect(button(assist.waiting.refresh)).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(assist.waiting.refreshing);
    await settle(() =>
      h.caseStatus.calls[0]!.answer.reject(new ApiError('network', undefined, undefined)),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(assistErrors.network);
    expect(heading(assist.waiting.title)).toBeInTheDocument();
    expect(button(assist.waiting.refresh)).toBeEnabled();
  });

  it("an open case's way out says the case stays open, never 'Cancelar' (issue 43 item 8)", () => {
    for (const open of [review, centro]) {
      renderKyc({ resume: { at: 'case', case: open } });
      expect(button(assist.leaveOpenCase.label)).toBeInTheDocument();
      expect(screen.getByText(assist.leaveOpenCase.note)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Cancelar' })).toBeNull();
      cleanup();
    }
  });

  it('to the centre from the review; a person took it: said, the review stays', async () => {
    const h = renderKyc({ resume: { at: 'case', case: review } });
    fireEvent.click(button(assist.centre));
    await settle(() =>
      h.openCase.calls[0]!.answer.reject(
        new ApiError('server', 409, 'Ya tomado.', undefined, 'case_taken'),
      ),
    );
    expect(heading(assist.waiting.title)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(assistErrors.caseTaken);
  });

  it('the centre code: large and formatted, its deadline, the centres of the department chosen', async () => {
    const h = renderKyc({ resume: { at: 'case', case: centro } });
    expect(heading(assist.centreCase.title)).toBeInTheDocument();
    expect(screen.getByLabelText(assist.centreCase.codeLabel)).toHaveTextContent('HK7M-W3QA');
    expect(
      screen.getByText(assist.centreCase.deadline(formatDateInWords(centro.expectedBy))),
    ).toBeInTheDocument();
    expect(formatDateInWords(centro.expectedBy)).toBe('sábado, 26 de diciembre de 2026');
    expect(screen.getByText(assist.centreCase.sms)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(assist.centreCase.loading);
    await settle(() =>
      h.centres.calls[0]!.answer.resolve([
        {
          departamento: 'Central',
          centros: [
            {
              nombre: 'Hospital Regional de Luque',
              direccion: 'Capitán Cristaldo',
              ciudad: 'Luque',
              horario: 'Lunes a viernes, 7:00 a 15:00',
            },
          ],
        },
        {
          departamento: 'Capital',
          centros: [
            { nombre: 'Barrio Obrero', direccion: 'Perú', ciudad: 'Asunción', horario: 'L a V' },
          ],
        },
      ]),
    );
    expect(screen.getByText(assist.centreCase.chooseDepartment)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(assist.centreCase.departmentLabel), {
      target: { value: 'Central' },
    });
    const list = screen.getByRole('list', { name: assist.centreCase.listLabel('Central') });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list).toHaveTextContent('Hospital Regional de Luque');
    expect(list).toHaveTextContent('Capitán Cristaldo, Luque');
    expect(list).not.toHaveTextContent('Barrio Obrero');
  });

  it('a department with no centre: every department listed, and the nearest centres (issue 43 item 10)', async () => {
    const h = renderKyc({ resume: { at: 'case', case: centro } });
    const at = (departamento: string, nombre: string, ciudad: string) => ({
      departamento,
      centros: [{ nombre, direccion: 'Centro', ciudad, horario: 'Lunes a viernes, 7:00 a 13:00' }],
    });
    await settle(() =>
      h.centres.calls[0]!.answer.resolve([
        at('Capital', 'Hospital General Barrio Obrero', 'Asunción'),
        at('Central', 'Hospital Nacional de Itauguá', 'Itauguá'),
        at('Alto Paraná', 'Hospital Regional de Ciudad del Este', 'Ciudad del Este'),
        at('Itapúa', 'Hospital Regional de Encarnación', 'Encarnación'),
        at('Concepción', 'Hospital Regional de Concepción', 'Concepción'),
      ]),
    );
    const select = screen.getByLabelText(assist.centreCase.departmentLabel);
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    // The 17 departments and the capital, each once ('Capital' is Asunción's other name).
    expect(options).toEqual(expect.arrayContaining(['Asunción', 'Boquerón', 'Guairá', 'Central']));
    expect(options.filter((o) => o !== assist.centreCase.departmentPlaceholder)).toHaveLength(18);
    expect(options).not.toContain('Capital');
    // Asunción chosen: the centre configured as 'Capital'.
    fireEvent.change(select, { target: { value: 'Asunción' } });
    expect(
      screen.getByRole('list', { name: assist.centreCase.listLabel('Asunción') }),
    ).toHaveTextContent('Hospital General Barrio Obrero');
    // Boquerón has none: said, with the nearest ones (Concepción, then Asunción), not a dead end.
    fireEvent.change(select, { target: { value: 'Boquerón' } });
    expect(screen.getByText(assist.centreCase.noCentre('Boquerón'))).toBeInTheDocument();
    const nearest = screen.getByRole('list', { name: assist.centreCase.nearestLabel('Boquerón') });
    const names = within(nearest)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('strong')?.textContent);
    expect(names).toEqual(['Hospital Regional de Concepción', 'Hospital General Barrio Obrero']);
    expect(nearest).toHaveTextContent('Centro, Concepción (Concepción)');
  });

  it('the centres not loaded: the reason and Reintentar', async () => {
    const h = renderKyc({ resume: { at: 'case', case: centro } });
    await settle(() => h.centres.calls[0]!.answer.reject(new TypeError('offline')));
    expect(screen.getByRole('alert')).toHaveTextContent(assistErrors.centresFailed);
    fireEvent.click(button(assist.retry));
    expect(h.centres.calls).toHaveLength(2);
  });

  it('rejected: the reason in words, and the centre after a review', () => {
    renderKyc({
      resume: {
        at: 'case',
        case: { ...review, status: 'rejected', rejectReason: 'document_invalid' },
      },
    });
    expect(heading(assist.rejected.title)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(rejectReasons.document_invalid);
    expect(button(assist.centre)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: assist.review })).toBeNull();
  });

  it('an expired code: a new code or a review', () => {
    const h = renderKyc({ resume: { at: 'case', case: { ...centro, status: 'expired' } } });
    expect(heading(assist.expired.title)).toBeInTheDocument();
    fireEvent.click(button(assist.expired.newCode));
    expect(h.openCase.calls[0]!.input).toMatchObject({ kind: 'centro' });
  });

  it("the card's photo not found twice: its own text (never the mismatch) and the two choices", async () => {
    const h = renderKyc();
    await settle(() => h.toVerifying());
    const noFace = { success: false, kyc_complete: false, reason: 'no_face_on_document' };
    await settle(() => h.verify.calls[0]!.answer.resolve(noFace));
    expect(screen.getByRole('alert')).toHaveTextContent(kycErrors.noFaceOnDocument);
    expect(screen.queryByRole('button', { name: assist.review })).toBeNull();
    expect(button(assist.action)).toBeInTheDocument();
    act(() => h.actor.send({ type: 'document.upload', file: jpeg('front2-file') }));
    await settle(() => h.scaling.calls.at(-1)!.answer.resolve(jpeg('front2')));
    act(() => h.actor.send({ type: 'document.accept' }));
    await settle(() => h.verify.calls[1]!.answer.resolve(noFace));
    expect(screen.getByRole('alert')).toHaveTextContent(kycErrors.noFaceOnDocument);
    expect(document.body.textContent).not.toContain(kycErrors.faceMismatch);
    expect(screen.getByText(assist.direct)).toBeInTheDocument();
    fireEvent.click(button(assist.centre));
    expect(h.openCase.calls[0]!.input).toEqual({
      registrationToken: TOKEN,
      kind: 'centro',
      trigger: 'no_face_on_document',
      step: 'front',
    });
  });

  it('a person verified the identity: the complementary data with its notice', async () => {
    const h = renderKyc({
      sessionId: 'kyc-v',
      resume: { at: 'supplementary', idData: verified.id_data! },
    });
    await settle(() => h.answerSession());
    const notice = screen.getByTestId('assist-notice');
    expect(notice).toHaveTextContent(assist.notices.verified);
    // Below the step's title, in its column (issue 43 item 10): above it, the title's white
    // panel (8 px past the text, drawn over its neighbours) covered the notice's last line.
    const title = heading(kyc.supplementary.title);
    expect(title.compareDocumentPosition(notice) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('a person asked for the front again: the front, with its notice, no back asked for', async () => {
    const h = renderKyc({ sessionId: 'kyc-r', resume: { at: 'document', retake: 'front' } });
    await settle(() => h.answerSession());
    expect(heading(kyc.document.frontTitle)).toBeInTheDocument();
    expect(screen.getByTestId('assist-notice')).toHaveTextContent(assist.notices.front);
    act(() => h.actor.send({ type: 'document.upload', file: jpeg('front-file') }));
    await settle(() => h.scaling.calls.at(-1)!.answer.resolve(jpeg('front')));
    fireEvent.click(button(kyc.document.accept));
    expect(heading(kyc.verifying.title)).toBeInTheDocument();
  });
});
