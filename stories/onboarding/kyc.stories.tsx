import type { Meta, StoryObj } from '@storybook/react-vite';
import type { SnapshotFrom } from 'xstate';
import { assistFixtures } from '../../machines/kyc/kyc.assist.fixtures';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import type { KycMachine } from '../../machines/kyc/kyc.machine';
import { supplementaryFixtures } from '../../machines/kyc/supplementary.fixtures';
import type { SupplementaryMachine } from '../../machines/kyc/supplementary.machine';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import type { StoryParameters } from '../support';
import { Muted } from '../../src/components/Page';
import { assist } from '../../src/copy/es.assist';
import { AssistAt, AtWizard, KycAt, SupplementaryAt } from './support';

const meta = {
  title: 'Onboarding/Identidad (KYC)',
  decorators: [
    (Story) => (
      <AtWizard snapshot={onboardingFixtures.kycRunning}>
        <Story />
      </AtWizard>
    ),
  ],
  render: (_args, { parameters }) => (
    <KycAt snapshot={(parameters as StoryParameters).snapshot as SnapshotFrom<KycMachine>} />
  ),
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: SnapshotFrom<KycMachine>): Story => ({
  parameters: { snapshot, path: '/onboarding' },
});

/** 'Datos complementarios': the KYC machine's child, restored at its own fixture. */
const atSupplementary = (snapshot: SnapshotFrom<SupplementaryMachine>): Story => ({
  parameters: { snapshot, path: '/onboarding' },
  render: () => <SupplementaryAt snapshot={snapshot} />,
});

export const Starting = at(kycFixtures.starting);
export const FailedStartKyc = at(kycFixtures.failedStartKyc);
export const FailedServerMessage = at(kycFixtures.failedServerMessage);
export const FailedNetwork = at(kycFixtures.failedNetwork);
export const FailedTooManyAttempts = at(kycFixtures.failedTooManyAttempts);
export const SelfieOpening = at(kycFixtures.selfieOpening);
export const SelfieIdle = at(kycFixtures.selfieIdle);
export const SelfieRunning = at(kycFixtures.selfieRunning);
export const SelfiePassed = at(kycFixtures.selfiePassed);
export const SelfieFailed = at(kycFixtures.selfieFailed);
export const SelfieNotDetected = at(kycFixtures.selfieNotDetected);
export const SelfieCameraDenied = at(kycFixtures.selfieCameraDenied);
export const SelfieCameraInsecure = at(kycFixtures.selfieCameraInsecure);
export const SelfieCameraUnsupported = at(kycFixtures.selfieCameraUnsupported);
export const SelfieCameraNotFound = at(kycFixtures.selfieCameraNotFound);
/** No camera on this computer: 'Seguir en mi celular' continues on the phone by an SMS link. */
export const SelfieCameraNotFoundHandoff = at(kycFixtures.selfieCameraNotFoundHandoff);
/** The phone offered by choice, beside a working camera. */
export const SelfieIdleHandoff = at(kycFixtures.selfieIdleHandoff);
// The challenge (issue 31): the server asks for each blink and lights the face with colours.
/** Before the start: blink on the cue, and the screen will change colour. */
export const SelfieIdleLight = at(kycFixtures.selfieIdleLight);
/** Cues only (no light): no colour notice. */
export const SelfieIdleCues = at(kycFixtures.selfieIdleCues);
/** A colour around the oval, the texts on their white panels. */
export const SelfieColourWarm = at(kycFixtures.selfieColourWarm);
/** Another colour of the sequence. */
export const SelfieColourCool = at(kycFixtures.selfieColourCool);
/** 'Parpadeá ahora' over the oval, with the closing eye. */
export const SelfieCue = at(kycFixtures.selfieCue);
/** The cue while a colour shows. */
export const SelfieCueColour = at(kycFixtures.selfieCueColour);
/** Refused: the blinks not made on cue (the server's sentence), 'Intentar nuevamente'. */
export const SelfieCuesMissed = at(kycFixtures.selfieCuesMissed);
/** Refused: the screen's colours not seen on the face. */
export const SelfieLightMismatch = at(kycFixtures.selfieLightMismatch);
/** Refused by the challenge twice: a person or a centre offered. */
export const SelfieLightMismatchTwice = at(kycFixtures.selfieLightMismatchTwice);
export const SelfieLightUnjudged = at(kycFixtures.selfieLightUnjudged);
export const SelfieFaceChanged = at(kycFixtures.selfieFaceChanged);
// The framing on the oval (issue 41), as the server answered it, until it says otherwise.
/** The face small in the oval: 'Acercá el celular.' */
export const SelfieTooFar = at(kycFixtures.selfieTooFar);
/** The face larger than the oval or cut by it: 'Alejá un poco el celular.' */
export const SelfieTooClose = at(kycFixtures.selfieTooClose);
/** No face found: 'No vemos tu cara: ...', while a cue shows. */
export const SelfieNoFace = at(kycFixtures.selfieNoFace);
/** Someone beside the patient: 'Hay más de una cara en la imagen...' */
export const SelfieSeveralFaces = at(kycFixtures.selfieSeveralFaces);
/** The face too dark to read: 'Hay poca luz. Buscá un lugar más iluminado.' */
export const SelfieTooDark = at(kycFixtures.selfieTooDark);
/** The face off the oval's centre: 'Centrá tu cara en el óvalo.' */
export const SelfieNotCentred = at(kycFixtures.selfieNotCentred);
/** 3 s without progress, no framing known: 'Mantené tu cara dentro del óvalo.' */
export const SelfieStalled = at(kycFixtures.selfieStalled);
/** 3 s without progress, the face still too far: the framing says why. */
export const SelfieStalledTooFar = at(kycFixtures.selfieStalledTooFar);
export const FrontOpening = at(kycFixtures.frontOpening);
export const FrontWaiting = at(kycFixtures.frontWaiting);
export const FrontPlaying = at(kycFixtures.frontPlaying);
export const FrontCapturing = at(kycFixtures.frontCapturing);
export const FrontCaptureFailed = at(kycFixtures.frontCaptureFailed);
export const FrontCameraDenied = at(kycFixtures.frontCameraDenied);
export const FrontPreparing = at(kycFixtures.frontPreparing);
export const FrontPreview = at(kycFixtures.frontPreview);
/** The preview's hint before sending: the photo came out dark. */
export const FrontPreviewDark = at(kycFixtures.frontPreviewDark);
/** An uploaded photo with no card in it: flagged, with 'Elegir otra imagen'. */
export const FrontPreviewUploadedNoCard = at(kycFixtures.frontPreviewUploadedNoCard);
export const BackPlaying = at(kycFixtures.backPlaying);
export const BackPreview = at(kycFixtures.backPreview);
/** The preview's hint before sending: the card is too far. */
export const BackPreviewSmall = at(kycFixtures.backPreviewSmall);
export const BackPreviewNetwork = at(kycFixtures.backPreviewNetwork);
export const Verifying = at(kycFixtures.verifying);
/** The card is read and its number looked up: the same wait. */
export const CheckingDocument = at(kycFixtures.checkingDocument);
/** The card read is already a patient's: 'Ya tenés una cuenta con esta cédula' (issue 29 item 10). */
export const DocumentRegistered = at(kycFixtures.documentRegistered);
/** The card's photo not found: its own text, and the front again (never the mismatch text). */
export const FrontAgainNoFace = at(kycFixtures.frontAgainNoFace);
/** The front not read: the server's sentence, and the front again (the back is kept). */
export const FrontAgainUnreadable = at(kycFixtures.frontAgainUnreadable);
/** Front and back of different cards: both again. */
export const BothAgain = at(kycFixtures.bothAgain);
/** The back's code not read: the back again. */
export const BackAgain = at(kycFixtures.backAgain);
export const RejectedMismatch = at(kycFixtures.rejectedMismatch);
export const RejectedExpired = at(kycFixtures.rejectedExpired);
export const RejectedServer = at(kycFixtures.rejectedServer);
export const Review = at(kycFixtures.review);
export const ReviewRejecting = at(kycFixtures.reviewRejecting);
export const ReviewRejectFailed = at(kycFixtures.reviewRejectFailed);
/** 'Hay un dato mal': which field is wrong, for a person (issue 43 item 7). */
export const ReviewClaiming = at(kycFixtures.reviewClaiming);
/** A field named and what it should say: 'Enviar a una persona' enabled. */
export const ReviewClaimingChosen = at(kycFixtures.reviewClaimingChosen);
/** The form's child not there (restored, or ending): a wait. */
export const Supplementary = at(kycFixtures.supplementary);
export const SupplementaryLoading = atSupplementary(supplementaryFixtures.loading);
export const SupplementaryDepartmentsFailed = atSupplementary(
  supplementaryFixtures.departmentsFailed,
);
export const SupplementaryForm = atSupplementary(supplementaryFixtures.form);
export const SupplementaryInvalid = atSupplementary(supplementaryFixtures.invalid);
export const SupplementaryLoadingCities = atSupplementary(supplementaryFixtures.loadingCities);
export const SupplementaryReady = atSupplementary(supplementaryFixtures.ready);
/** A verified document without a number: 'No se encontró el número de documento.' */
export const SupplementaryDocumentMissing = atSupplementary(supplementaryFixtures.documentMissing);
export const SupplementaryCitiesFailed = atSupplementary(supplementaryFixtures.citiesFailed);
export const SupplementaryDone = atSupplementary(supplementaryFixtures.done);
export const Done = at(kycFixtures.done);

// The way out (issue 30): a person, or a health centre.
/** The blink challenge not passed twice: the two choices on the refusal's own screen. */
export const SelfieNotDetectedTwice = at(kycFixtures.selfieNotDetectedTwice);
/** The card's photo not found twice: its own text, and the choices. */
export const FrontAgainNoFaceTwice = at(kycFixtures.frontAgainNoFaceTwice);
/** Faces that differ twice: the mismatch text, 'Reintentar', and the choices. */
export const RejectedMismatchTwice = at(kycFixtures.rejectedMismatchTwice);
/** No camera on the phone: nothing to repeat, a person or a centre offered at once. */
export const SelfieCameraNotFoundPhone = at(kycFixtures.selfieCameraNotFoundPhone);
/** 'No puedo completar este paso' chosen on the selfie: the offer, with 'Volver'. */
export const AssistOffer = at(kycFixtures.assistOffer);
export const AssistOfferFromRefusal = at(kycFixtures.assistOfferFromRefusal);
export const AssistOpening = at(kycFixtures.assistOpening);
/** Asked for a person on the card's back: the front taken goes first, 'Enviando' as the opening. */
export const AssistKeepingFront = at(kycFixtures.assistKeepingFront);
/** 'Volver' taken on the offer: the child's end (the KYC machine goes back to the step left). */
export const AssistLeft: Story = {
  parameters: { snapshot: assistFixtures.assistLeft, path: '/onboarding' },
  render: () => <AssistAt snapshot={assistFixtures.assistLeft} />,
};
/** Offline while opening the case: nothing lost, 'Reintentar'. */
export const AssistOpenNetwork = at(kycFixtures.assistOpenNetwork);
export const AssistOpenRegistrationComplete = at(kycFixtures.assistOpenRegistrationComplete);
/** A review open: when to expect an answer, the SMS, 'Actualizar', or the centre instead. */
export const CaseWaiting = at(kycFixtures.caseWaiting);
/** The centre asked for after a person took the review: said, the review stays. */
export const CaseWaitingTaken = at(kycFixtures.caseWaitingTaken);
export const CaseRefreshing = at(kycFixtures.caseRefreshing);
export const CaseRefreshFailed = at(kycFixtures.caseRefreshFailed);
/** The centre code, large, its deadline; the centres loading. */
export const CentreLoading = at(kycFixtures.centreLoading);
export const CentreShowing = at(kycFixtures.centreShowing);
/** A department chosen: its health centres. */
export const CentreDepartment = at(kycFixtures.centreDepartment);
/** A department with no centre: said, with the nearest centres (issue 43 item 10). */
export const CentreNoCentre = at(kycFixtures.centreNoCentre);
export const CentreLoadFailed = at(kycFixtures.centreLoadFailed);
export const CaseRejected = at(kycFixtures.caseRejected);
export const CaseRejectedCentre = at(kycFixtures.caseRejectedCentre);
/** A centre code past its deadline: a new code or a review. */
export const CaseExpired = at(kycFixtures.caseExpired);
export const CaseDecided = at(kycFixtures.caseDecided);
/** A person asked for the selfie again. */
export const RepeatSelfie = at(kycFixtures.repeatSelfie);
/** A person asked for the front again: only the front (the server kept the back). */
export const RepeatFront = at(kycFixtures.repeatFront);
export const RepeatBack = at(kycFixtures.repeatBack);
/** A person verified the identity: the complementary data, with its notice. */
export const VerifiedByPerson = at(kycFixtures.verifiedByPerson);
/** Its form, the notice below the title and wholly readable (issue 43 item 10). */
export const VerifiedByPersonForm: Story = {
  ...atSupplementary(supplementaryFixtures.form),
  render: () => (
    <SupplementaryAt
      snapshot={supplementaryFixtures.form}
      notice={<Muted role="status">{assist.notices.verified}</Muted>}
    />
  ),
};
