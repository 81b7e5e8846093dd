import type { SnapshotFrom } from 'xstate';
import type { CaseStatus, CentresResponse } from '../../contract/cases';
import { assistMachine } from './kyc.assist.machine';
import type { AssistContext } from './kyc.assist.types';
import { kycMachine } from './kyc.machine';
import type { KycContext } from './kyc.types';

/**
 * The identity step on its way out (issue 30): the offer, the case opening, and the case's screens
 * (a person's review, a health-centre code), as snapshots of the `assist` child (`assistFixtures`)
 * and as KYC snapshots running it (`assistFixturesFrom`: kyc.fixtures.ts lists them among its own,
 * `kycFixtures`). First, a case as the server answers it, and its health centres.
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
type Value = Parameters<typeof assistMachine.resolveState>[0]['value'];
const at = (value: Value, context: AssistContext) => assistMachine.resolveState({ value, context });
type AssistSnapshot = SnapshotFrom<typeof assistMachine>;

/** The front taken on the card's back and not sent yet (its pixels are never shown here). */
const front = new Blob(['front'], { type: 'image/jpeg' });
const offered: AssistContext = {
  registrationToken: TOKEN,
  assist: { trigger: 'patient_choice', step: 'selfie', back: 'selfie', kind: null },
  case: null,
  unsentFront: null,
  claim: null,
  centres: null,
  department: null,
  assistError: null,
};
const opened = (found: CaseStatus): AssistContext => ({
  ...offered,
  assist: { trigger: found.trigger, step: 'selfie', back: null, kind: found.kind },
  case: found,
});

/** One named snapshot per leaf state of the way out (and variants worth seeing). */
export const assistFixtures = {
  /** 'No puedo completar este paso', chosen on the selfie: the offer, with 'Volver'. */
  assistOffer: at('offer', offered),
  /** The offer from a refusal repeated (no 'Volver': the refusal's screen had the choices). */
  assistOfferFromRefusal: at('offer', { ...offered, assist: { ...offered.assist!, back: null } }),
  assistOpening: at('opening', { ...offered, assist: { ...offered.assist!, kind: 'review' } }),
  /** Asked for a person on the card's back: the front taken is sent first (issue 43 item 1). */
  assistKeepingFront: at('keepingFront', {
    ...offered,
    unsentFront: { sessionId: '5f0c2a4e-9b1d-4c8e-a7f3-2d6b8e1c9a40', front },
    assist: { ...offered.assist!, step: 'back', back: 'document', kind: 'review' },
  }),
  assistOpenNetwork: at('openFailed', { ...offered, assistError: { code: 'network' } }),
  assistOpenRegistrationComplete: at('openFailed', {
    ...offered,
    assistError: { code: 'registrationComplete' },
  }),
  /** 'Volver' taken: the KYC machine goes back to the selfie (the child's end). */
  assistLeft: at('left', offered),
  caseWaiting: at({ case: 'waiting' }, opened(reviewCase)),
  /** The patient asked for the centre, but a person already took the review. */
  caseWaitingTaken: at(
    { case: 'waiting' },
    { ...opened(reviewCase), assistError: { code: 'caseTaken' } },
  ),
  caseRefreshing: at({ case: 'refreshing' }, opened(reviewCase)),
  caseRefreshFailed: at(
    { case: 'refreshFailed' },
    { ...opened(reviewCase), assistError: { code: 'network' } },
  ),
  centreLoading: at({ case: { centre: 'loading' } }, opened(centreCase)),
  centreShowing: at({ case: { centre: 'showing' } }, { ...opened(centreCase), centres }),
  centreDepartment: at(
    { case: { centre: 'showing' } },
    { ...opened(centreCase), centres, department: 'Central' },
  ),
  /** A department with no centre (issue 43 item 10): the nearest ones. */
  centreNoCentre: at(
    { case: { centre: 'showing' } },
    { ...opened(centreCase), centres, department: 'Boquerón' },
  ),
  centreLoadFailed: at(
    { case: { centre: 'loadFailed' } },
    { ...opened(centreCase), assistError: { code: 'centresFailed' } },
  ),
  /** A person rejected the review: the reason, and the health centre still offered. */
  caseRejected: at(
    { case: 'rejected' },
    opened({ ...reviewCase, status: 'rejected', rejectReason: 'photos_unusable' }),
  ),
  /** Rejected at the health centre: the reason, nothing more to choose. */
  caseRejectedCentre: at(
    { case: 'rejected' },
    opened({ ...centreCase, status: 'rejected', rejectReason: 'document_invalid' }),
  ),
  caseExpired: at({ case: 'expired' }, opened({ ...centreCase, status: 'expired' })),
  caseDecided: at({ case: 'decided' }, opened({ ...reviewCase, status: 'approved' })),
};

type KycSnapshot = SnapshotFrom<typeof kycMachine>;

/**
 * The KYC machine on its way out with the child restored at one of its fixtures, the way a
 * persisted snapshot carries its children: an actor started from it (a story, a test) runs the
 * child in the state shown.
 */
const withAssist = (base: KycContext, child: AssistSnapshot): KycSnapshot =>
  ({
    ...kycMachine.resolveState({
      value: 'assist',
      context: { ...base, registrationToken: TOKEN, assist: child.context.assist },
    }),
    children: { assist: { snapshot: child, src: 'assist', syncSnapshot: false } },
  }) as unknown as KycSnapshot;

/** The KYC machine at each of the way out's fixtures (but its end: the KYC machine leaves then). */
export const assistFixturesFrom = (base: KycContext) => {
  const { assistLeft: _left, ...resting } = assistFixtures;
  return Object.fromEntries(
    Object.entries(resting).map(([name, child]) => [name, withAssist(base, child)]),
  ) as Record<keyof typeof resting, KycSnapshot>;
};
