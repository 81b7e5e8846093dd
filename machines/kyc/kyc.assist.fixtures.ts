import type { CaseStatus, CentresResponse } from '../../contract/cases';
import { kycMachine } from './kyc.machine';
import type { KycContext } from './kyc.types';

/**
 * The identity step on its way out (issue 30): the offer, the case opening, and the case's screens
 * (a person's review, a health-centre code), as KYC snapshots; kyc.fixtures.ts lists them among
 * its own (`kycFixtures`), from its session and its photo of the front. First, a case as the
 * server answers it, and its health centres.
 */
const TOKEN = 'R'.repeat(43);
const reviewCase: CaseStatus = {
  kind: 'review',
  status: 'open',
  trigger: 'face_mismatch',
  openedAt: '2026-11-26T13:00:00.000Z',
  expectedBy: '2026-11-28T13:00:00.000Z',
};
const centreCase: CaseStatus = {
  ...reviewCase,
  kind: 'centro',
  trigger: 'no_camera',
  code: 'HK7MW3QA',
  expectedBy: '2026-12-26T13:00:00.000Z',
};
const centres: CentresResponse = [
  {
    departamento: 'Capital',
    centros: [
      {
        nombre: 'Hospital General Barrio Obrero',
        direccion: 'Perú y Teodoro S. Mongelós',
        ciudad: 'Asunción',
        horario: 'Lunes a viernes, 7:00 a 13:00',
      },
    ],
  },
  {
    departamento: 'Central',
    centros: [
      {
        nombre: 'Hospital Regional de Luque',
        direccion: 'Capitán Cristaldo y Sportivo Luqueño',
        ciudad: 'Luque',
        horario: 'Lunes a viernes, 7:00 a 15:00',
      },
      {
        nombre: 'USF San Lorenzo Centro',
        direccion: 'Mcal. Estigarribia 1420',
        ciudad: 'San Lorenzo',
        horario: 'Lunes a sábado, 7:00 a 12:00',
      },
    ],
  },
];
type Value = Parameters<typeof kycMachine.resolveState>[0]['value'];
const at = (value: Value, context: KycContext) => kycMachine.resolveState({ value, context });

/** One named snapshot per leaf state of the way out (and variants worth seeing). */
export const assistFixturesFrom = (base: KycContext, front: Blob) => {
  const offered: KycContext = {
    ...base,
    registrationToken: TOKEN,
    assist: { trigger: 'patient_choice', step: 'selfie', back: 'selfie', kind: null },
  };
  const opened = (found: CaseStatus): KycContext => ({
    ...base,
    registrationToken: TOKEN,
    assist: { trigger: found.trigger, step: 'selfie', back: null, kind: found.kind },
    case: found,
  });

  return {
    /** 'No puedo completar este paso', chosen on the selfie: the offer, with 'Volver'. */
    assistOffer: at({ assist: 'offer' }, offered),
    /** The offer from a refusal repeated (no 'Volver': the refusal's screen had the choices). */
    assistOfferFromRefusal: at(
      { assist: 'offer' },
      { ...offered, assist: { ...offered.assist!, back: null } },
    ),
    assistOpening: at(
      { assist: 'opening' },
      { ...offered, assist: { ...offered.assist!, kind: 'review' } },
    ),
    /** Asked for a person on the card's back: the front taken is sent first (issue 43 item 1). */
    assistKeepingFront: at(
      { assist: 'keepingFront' },
      {
        ...offered,
        side: 'back',
        front,
        assist: { ...offered.assist!, step: 'back', back: 'document', kind: 'review' },
      },
    ),
    assistOpenNetwork: at(
      { assist: 'openFailed' },
      { ...offered, assistError: { code: 'network' } },
    ),
    assistOpenRegistrationComplete: at(
      { assist: 'openFailed' },
      { ...offered, assistError: { code: 'registrationComplete' } },
    ),
    caseWaiting: at({ assist: { case: 'waiting' } }, opened(reviewCase)),
    /** The patient asked for the centre, but a person already took the review. */
    caseWaitingTaken: at(
      { assist: { case: 'waiting' } },
      { ...opened(reviewCase), assistError: { code: 'caseTaken' } },
    ),
    caseRefreshing: at({ assist: { case: 'refreshing' } }, opened(reviewCase)),
    caseRefreshFailed: at(
      { assist: { case: 'refreshFailed' } },
      { ...opened(reviewCase), assistError: { code: 'network' } },
    ),
    centreLoading: at({ assist: { case: { centre: 'loading' } } }, opened(centreCase)),
    centreShowing: at(
      { assist: { case: { centre: 'showing' } } },
      { ...opened(centreCase), centres },
    ),
    centreDepartment: at(
      { assist: { case: { centre: 'showing' } } },
      { ...opened(centreCase), centres, department: 'Central' },
    ),
    /** A department with no centre (issue 43 item 10): the nearest ones. */
    centreNoCentre: at(
      { assist: { case: { centre: 'showing' } } },
      { ...opened(centreCase), centres, department: 'Boquerón' },
    ),
    centreLoadFailed: at(
      { assist: { case: { centre: 'loadFailed' } } },
      { ...opened(centreCase), assistError: { code: 'centresFailed' } },
    ),
    /** A person rejected the review: the reason, and the health centre still offered. */
    caseRejected: at(
      { assist: { case: 'rejected' } },
      opened({ ...reviewCase, status: 'rejected', rejectReason: 'photos_unusable' }),
    ),
    /** Rejected at the health centre: the reason, nothing more to choose. */
    caseRejectedCentre: at(
      { assist: { case: 'rejected' } },
      opened({ ...centreCase, status: 'rejected', rejectReason: 'document_invalid' }),
    ),
    caseExpired: at({ assist: { case: 'expired' } }, opened({ ...centreCase, status: 'expired' })),
    caseDecided: at({ assist: { case: 'decided' } }, opened({ ...reviewCase, status: 'approved' })),
  };
};
