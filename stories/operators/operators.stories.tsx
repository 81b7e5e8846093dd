import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromCallback, fromPromise } from 'xstate';
import type {
  CaseDetail,
  ClaimResponse,
  DecisionResponse,
  EnrolOptionsResponse,
  LoginOptionsResponse,
  QueueResponse,
  SessionResponse,
} from '../../contract/operators';
import { caseMachine } from '../../machines/operators/case.machine';
import { deskMachine } from '../../machines/operators/desk.machine';
import { operatorFixtures } from '../../machines/operators/operators.fixtures';
import { operatorAuthMachine } from '../../machines/operators/operators.machine';
import type { DeskUpload } from '../../machines/operators/operators.actors';
import type { LoadedCase } from '../../machines/operators/operators.types';
import { passkeyMachine } from '../../machines/operators/passkey.machine';
import { queueMachine } from '../../machines/operators/queue.machine';
import { OperatorActor } from '../../src/flows/operators/operators.context';
import { OperatorScreens } from '../../src/flows/operators/OperatorScreens';
import { AtSnapshot, pending, type StoryParameters } from '../support';

type Json = Record<string, unknown>;

/** The back office with calls that never settle and no camera: stories stay where they are. */
const storyOperatorMachine = operatorAuthMachine.provide({
  actors: {
    fetchSession: fromPromise(() => pending<SessionResponse>()),
    passkey: passkeyMachine.provide({
      actors: {
        loginOptions: fromPromise(() => pending<LoginOptionsResponse>()),
        passkeyPrompt: fromPromise(() => pending<Json>()),
        passkeyVerify: fromPromise(() => pending<SessionResponse>()),
      },
    }),
    enrolOptions: fromPromise(() => pending<EnrolOptionsResponse>()),
    endSession: fromPromise(() => pending<void>()),
    queue: queueMachine.provide({
      actors: {
        fetchQueue: fromPromise(() => pending<QueueResponse>()),
        claimNext: fromPromise(() => pending<ClaimResponse>()),
        lookupCode: fromPromise(() => pending<string>()),
      },
    }),
    case: caseMachine.provide({
      actors: {
        imageKeeper: fromCallback(() => () => {}),
        loadCase: fromPromise(() => pending<LoadedCase>()),
        saveCorrection: fromPromise(() => pending<CaseDetail>()),
        decide: fromPromise(() => pending<DecisionResponse>()),
        releaseCase: fromPromise(() => pending<void>()),
        desk: deskMachine.provide({
          actors: {
            camera: fromCallback(() => () => {}),
            frameCapture: fromPromise(() => pending<Blob>()),
          },
        }),
        uploadDeskPhoto: fromPromise(() => pending<DeskUpload>()),
      },
    }),
  },
});

/** The back office at /operador: the login, the enrolment link, the queue and the case. */
const meta = {
  title: 'Operador/Back office',
  component: OperatorScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={OperatorActor.Provider}
        logic={storyOperatorMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof OperatorScreens>;
export default meta;
type Story = StoryObj<typeof meta>;

const at = (snapshot: StoryParameters['snapshot']): Story => ({
  parameters: { snapshot, path: '/operador' },
});
const f = operatorFixtures;

// The session: checking, the login, the passkey prompt (the child `passkey`), the enrolment link.
export const Checking = at(f.checking);
export const LoggedOut = at(f.loggedOut);
export const LoggedOutExpired = at(f.loggedOutExpired);
export const LoggedOutAfterLogout = at(f.loggedOutAfterLogout);
export const LoginCancelled = at(f.loginCancelled);
export const LoginUnsupported = at(f.loginUnsupported);
export const LoginRejected = at(f.loginRejected);
export const LoginNetwork = at(f.loginNetwork);
export const AuthenticatingOptions = at(f.authenticatingOptions);
export const AuthenticatingPrompting = at(f.authenticatingPrompting);
export const AuthenticatingVerifying = at(f.authenticatingVerifying);
export const EnrolmentLoading = at(f.enrolmentLoading);
export const EnrolmentReady = at(f.enrolmentReady);
export const EnrolmentRegistering = at(f.enrolmentRegistering);
export const EnrolmentVerifying = at(f.enrolmentVerifying);
export const EnrolmentLinkInvalid = at(f.enrolmentLinkInvalid);
export const EnrolmentCancelled = at(f.enrolmentCancelled);
/** The link opened on an IP address (issue 43 item 3): what to do, no 'Intentar de nuevo'. */
export const EnrolmentHostIsIp = at(f.enrolmentHostIsIp);
export const LoggingOut = at(f.loggingOut);

/** Just logged in: the passkey ceremony ended (its child at `done`), the queue shows. */
export const Desk = at(f.desk);

// The desk: the queue (the child `queue` at each of its fixtures).
export const QueueLoading = at(f.queue.loading);
export const QueueList = at(f.queue.list);
export const QueueListEmpty = at(f.queue.listEmpty);
export const QueueNothingToTake = at(f.queue.nothingToTake);
export const QueueClaiming = at(f.queue.claiming);
export const QueueFailed = at(f.queue.failed);
export const QueueCodeEditing = at(f.queue.codeEditing);
export const QueueCodeIncomplete = at(f.queue.codeIncomplete);
export const QueueCodeLooking = at(f.queue.codeLooking);
export const QueueCodeNotFound = at(f.queue.codeNotFound);
export const QueueCodeLimited = at(f.queue.codeLimited);
export const QueueTaken = at(f.queue.taken);
export const QueueExpired = at(f.queue.expired);

// The desk: a case (the child `case` at each of its fixtures).
export const CaseLoading = at(f.case.loading);
export const CaseFailed = at(f.case.failed);
export const CaseReviewing = at(f.case.reviewing);
export const CaseReviewingReadOnly = at(f.case.reviewingReadOnly);
export const CaseReviewingSupervised = at(f.case.reviewingSupervised);
export const CaseReviewingFailed = at(f.case.reviewingFailed);
// Issue 42: typed fields marked, a case nobody saw a card of, an approval of an older version.
export const CaseReviewingCardMissing = at(f.case.reviewingCardMissing);
export const CaseReviewingChanged = at(f.case.reviewingChanged);
/** Issue 43 item 2: a remote review with no selfie: no desk photo asked, 'Pedir que repita' first. */
export const CaseReviewingSelfieMissing = at(f.case.reviewingSelfieMissing);
/** 'Hay un dato mal' (issue 43 item 7): the patient's claim above the fields, not a correction. */
export const CaseReviewingPatientClaim = at(f.case.reviewingPatientClaim);
/** 'Posible duplicado' (issue 44 item 3): the registered patient beside this registration. */
export const CaseReviewingDuplicate = at(f.case.reviewingDuplicate);
export const CaseRejectingDuplicate = at(f.case.rejectingDuplicate);
export const CaseReviewingCorrection = at(f.case.reviewingCorrection);
export const CaseCorrecting = at(f.case.correcting);
export const CaseCorrectingIncomplete = at(f.case.correctingIncomplete);
export const CaseCorrectingInvalidNumber = at(f.case.correctingInvalidNumber);
export const CaseCorrectingChoice = at(f.case.correctingChoice);
export const CaseCorrectingRefused = at(f.case.correctingRefused);
export const CaseCorrectingSaving = at(f.case.correctingSaving);
export const CaseConfirmingApproval = at(f.case.confirmingApproval);
export const CaseRejecting = at(f.case.rejecting);
export const CaseRepeating = at(f.case.repeating);
export const CaseCentro = at(f.case.centro);
export const CaseCentroWithPhoto = at(f.case.centroWithPhoto);
export const CaseDeskOpening = at(f.case.deskOpening);
export const CaseDeskLive = at(f.case.deskLive);
export const CaseDeskCapturing = at(f.case.deskCapturing);
export const CaseDeskCameraFailed = at(f.case.deskCameraFailed);
export const CaseUploading = at(f.case.uploading);
export const CaseDeciding = at(f.case.deciding);
export const CaseDecidedApproved = at(f.case.decidedApproved);
export const CaseDecidedAwaitingSupervisor = at(f.case.decidedAwaitingSupervisor);
export const CaseDecidedRejected = at(f.case.decidedRejected);
export const CaseDecidedRepeat = at(f.case.decidedRepeat);
export const CaseReleasing = at(f.case.releasing);
export const CaseClosed = at(f.case.closed);
export const CaseExpired = at(f.case.expired);
