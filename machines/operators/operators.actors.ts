import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { fromCallback, fromPromise } from 'xstate';
import type {
  ClaimResponse,
  DecisionResponse,
  DeskPhotoResponse,
  EnrolOptionsResponse,
  LoginOptionsResponse,
  QueueResponse,
  SessionResponse,
} from '../../contract/operators';
import { cameraActor } from '../shared/camera';
import { frameCaptureActor, type CaptureOptions } from '../shared/frame-capture';
import {
  getCase,
  getCaseImage,
  getQueue,
  getSession,
  postClaim,
  postCodeLookup,
  postCorrection,
  postDecision,
  postDeskPhoto,
  postEnrolOptions,
  postEnrolVerify,
  postLoginOptions,
  postLoginVerify,
  postLogout,
  postRelease,
} from './operators.api';
import type {
  CaseDetail,
  CaseImages,
  Correction,
  DecisionRequest,
  LoadedCase,
} from './operators.types';

/** Thrown before a ceremony when this browser has no WebAuthn (no PublicKeyCredential). */
export class PasskeysUnsupported extends Error {
  constructor() {
    super('passkeys unsupported');
    this.name = 'PasskeysUnsupported';
  }
}

type Json = Record<string, unknown>;

// --- the session ---------------------------------------------------------------------------

export const fetchSession = fromPromise<SessionResponse>(({ signal }) => getSession(signal));
export const endSession = fromPromise<void>(({ signal }) => postLogout(signal));
export const enrolOptions = fromPromise<EnrolOptionsResponse, { token: string }>(
  ({ input, signal }) => postEnrolOptions(input.token, signal),
);
export const loginOptions = fromPromise<LoginOptionsResponse>(({ signal }) =>
  postLoginOptions(signal),
);

/** A passkey ceremony: a login, or an enrolment link's registration. */
export type Ceremony = 'login' | 'enrol';

/**
 * The browser's prompt (@simplewebauthn/browser) with the server's options: a new passkey to
 * enrol, or an assertion to log in (discoverable credentials: no user name typed).
 */
export const passkeyPrompt = fromPromise<Json, { ceremony: Ceremony; options: Json }>(
  async ({ input }) => {
    if (!browserSupportsWebAuthn()) throw new PasskeysUnsupported();
    if (input.ceremony === 'enrol') {
      const optionsJSON = input.options as unknown as PublicKeyCredentialCreationOptionsJSON;
      return (await startRegistration({ optionsJSON })) as unknown as Json;
    }
    const optionsJSON = input.options as unknown as PublicKeyCredentialRequestOptionsJSON;
    return (await startAuthentication({ optionsJSON })) as unknown as Json;
  },
);

/**
 * The server's verification of the authenticator's answer, the operator's session: `key` is the
 * login's challenge id, or the enrolment link's token.
 */
export const passkeyVerify = fromPromise<
  SessionResponse,
  { ceremony: Ceremony; key: string; credential: Json }
>(({ input, signal }) =>
  input.ceremony === 'enrol'
    ? postEnrolVerify(input.key, input.credential, signal)
    : postLoginVerify(input.key, input.credential, signal),
);

// --- the queue ----------------------------------------------------------------------------

export const fetchQueue = fromPromise<QueueResponse>(({ signal }) => getQueue(signal));
export const claimNext = fromPromise<ClaimResponse>(({ signal }) => postClaim(signal));
export const lookupCode = fromPromise<string, { code: string }>(({ input, signal }) =>
  postCodeLookup(input.code, signal),
);

// --- the case -----------------------------------------------------------------------------

/** What the browser needs to turn image Blobs into addresses an <img> shows (tests pass fakes). */
export type ObjectUrls = {
  create: (blob: Blob) => string;
  revoke: (url: string) => void;
};
export const browserObjectUrls: ObjectUrls = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
};

/**
 * Holds the case's object URLs while the case is open and revokes them when it stops (back to the
 * queue, a logout, an expired session): invoked for the whole life of the case machine, since a
 * stopped machine runs no exit actions.
 */
export function createImageKeeper(urls: ObjectUrls = browserObjectUrls) {
  return fromCallback<{ type: 'images.keep'; images: CaseImages }>(({ receive }) => {
    const held = new Set<string>();
    receive((event) => Object.values(event.images).forEach((url) => url && held.add(url)));
    return () => held.forEach((url) => urls.revoke(url));
  });
}
export const imageKeeper = createImageKeeper();

/**
 * The case and its images, each fetched by its own GET (each one a look in the audit log), kept as
 * object URLs the machine revokes when the case closes. An image that cannot be fetched is left
 * out (the view says it is missing); the case itself failing fails the whole load.
 */
export function createCaseLoader(urls: ObjectUrls = browserObjectUrls) {
  return fromPromise<LoadedCase, { caseId: string }>(async ({ input, signal }) => {
    const detail = await getCase(input.caseId, signal);
    const blobs = await Promise.all(
      detail.images.map(async (image) => {
        try {
          return [image, await getCaseImage(input.caseId, image, signal)] as const;
        } catch (err) {
          if (signal.aborted) throw err;
          return [image, null] as const;
        }
      }),
    );
    const images: CaseImages = {};
    if (signal.aborted) return { detail, images };
    for (const [image, blob] of blobs) if (blob) images[image] = urls.create(blob);
    return { detail, images };
  });
}
export const loadCase = createCaseLoader();

/** One field corrected, then the case read again (the corrections as the server keeps them). */
export const saveCorrection = fromPromise<CaseDetail, { caseId: string; correction: Correction }>(
  async ({ input, signal }) => {
    await postCorrection(input.caseId, input.correction, signal);
    return getCase(input.caseId, signal);
  },
);
export const decide = fromPromise<DecisionResponse, { caseId: string; decision: DecisionRequest }>(
  ({ input, signal }) => postDecision(input.caseId, input.decision, signal),
);
export const releaseCase = fromPromise<void, { caseId: string }>(({ input, signal }) =>
  postRelease(input.caseId, signal),
);

/** The desk camera's photo: the whole frame, at most 1280 px, JPEG 0.9 (not mirrored: a record). */
export const DESK_CAPTURE: CaptureOptions = { maxSide: 1280, quality: 0.9 };
export const camera = cameraActor;
export const frameCapture = frameCaptureActor;
/**
 * The desk photo sent; its match, the photo as an object URL to show beside the portrait, and the
 * case read again (a new face to enrol voids approvals and changes what an approval is of).
 */
export type DeskUpload = DeskPhotoResponse & { url: string; detail: CaseDetail };
export function createDeskUploader(urls: ObjectUrls = browserObjectUrls) {
  return fromPromise<DeskUpload, { caseId: string; photo: Blob }>(async ({ input, signal }) => {
    const res = await postDeskPhoto(input.caseId, input.photo, signal);
    const detail = await getCase(input.caseId, signal);
    return { ...res, url: urls.create(input.photo), detail };
  });
}
export const uploadDeskPhoto = createDeskUploader();
