import * as z from 'zod/mini';
import {
  digits,
  noControlCharacters,
  plainText,
  REGISTRATION_TOKEN_PATTERN,
  resultResponse,
} from './common';
import { caseStatus } from './cases';
import { idData } from './identity';
import { isAcceptablePin } from './pin';
import { normalizeParaguayPhone } from './phone';

/** Business constants of onboarding (spec section 9). */
export const OTP_LENGTH = 6;
export const OTP_RESEND_WAIT_SECONDS = 30;
export const OTP_VALIDITY_MINUTES = 5;
export const PHONE_INPUT_MAX_LENGTH = 16;

// The PIN rules live in contract/pin.ts (shared by the browser and the server).
export { BANNED_PINS, isAcceptablePin } from './pin';

/** Blood type options of the supplementary form; 'No sé' is the default. */
export const BLOOD_TYPES = ['No sé', 'O+', 'O-', 'A+', 'A-', 'B+', 'B-', 'AB+', 'AB-'] as const;
export type BloodType = (typeof BLOOD_TYPES)[number];

/** The spec's "basic address pattern" for the optional e-mail. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Any way of writing a Paraguayan mobile that the normaliser (contract/phone.ts) accepts. */
const paraguayPhone = z.string().check(
  z.maxLength(32),
  z.refine((v) => normalizeParaguayPhone(v) !== null),
);

/** Optional e-mail: absent, null or empty means none; otherwise it must look like an address. */
const optionalEmail = z.optional(
  z.nullable(
    z.union([
      z.literal(''),
      z.string().check(z.trim(), z.maxLength(254), z.regex(EMAIL_PATTERN), noControlCharacters()),
    ]),
  ),
);

const otpCode = digits(OTP_LENGTH, OTP_LENGTH);

// POST /api/onboarding/start
export const startRequest = z.object({ phone: paraguayPhone, email: optionalEmail });
export type StartRequest = z.input<typeof startRequest>;
export const startResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** True when the phone already belongs to a complete patient record: show 'El paciente ya existe'. */
  onboardingComplete: z.optional(z.boolean()),
  /** Seconds until the server accepts a resend (the 30 s countdown). */
  resendAfterSeconds: z.optional(z.int().check(z.gte(0))),
});
export type StartResponse = z.infer<typeof startResponse>;

const registrationToken = z.string().check(z.regex(REGISTRATION_TOKEN_PATTERN));

/**
 * Where a registration continues: the first step not finished (a passed selfie -> document). With
 * a case (issue 30): 'case' while it is open, rejected or expired (the case says which);
 * 'supplementary' once a person approved it (the identity is verified, the complementary data
 * follow); a 'repeat' decision continues at the step it names ('welcome' for the selfie, 'document'
 * with `retake` for a side of the card, the other side kept by the server).
 */
const RESUME_STEPS = ['pin', 'welcome', 'document', 'review', 'case', 'supplementary'] as const;
export type ResumeStep = (typeof RESUME_STEPS)[number];

/**
 * What the server kept of a registration, given once the mobile is proved again (validate-otp, or
 * the SMS link on the phone): the token for the next calls, the step to continue at, the e-mail of
 * step 0, and the KYC session with its read document when the selfie or the document is done.
 */
const registrationResume = z.object({
  token: registrationToken,
  resumeAt: z.enum(RESUME_STEPS),
  /** 09XXXXXXXX */
  phone: z.string(),
  email: z.nullable(z.string()),
  sessionId: z.nullable(z.string()),
  /** the document the KYC session read (or a person verified), when resumeAt is 'review' or 'supplementary' */
  idData: z.optional(idData),
  /** the registration's latest case (issue 30), when it has one */
  case: z.optional(caseStatus),
  /** a 'repeat' decision for one side of the card: the side to take again (resumeAt 'document') */
  retake: z.optional(z.enum(['front', 'back'])),
});
export type RegistrationResume = z.infer<typeof registrationResume>;

// POST /api/onboarding/validate-otp
export const validateOtpRequest = z.object({ celular: paraguayPhone, otp: otpCode });
export type ValidateOtpRequest = z.input<typeof validateOtpRequest>;
export const validateOtpResponse = z.object({
  success: z.boolean(),
  message: z.optional(z.string()),
  registration: z.optional(registrationResume),
});
export type ValidateOtpResponse = z.infer<typeof validateOtpResponse>;

// POST /api/onboarding/resend-otp
export const resendOtpRequest = z.object({ celular: paraguayPhone });
export type ResendOtpRequest = z.input<typeof resendOtpRequest>;
export const resendOtpResponse = z.object({
  success: z.boolean(),
  message: z.optional(z.string()),
  resendAfterSeconds: z.optional(z.int().check(z.gte(0))),
});
export type ResendOtpResponse = z.infer<typeof resendOtpResponse>;

/** Extracted identity data as the review screen shows it (spec section 3, kycData). */
export const kycData = z.object({
  nombre: z.string(),
  apellido: z.string(),
  numeroDocumento: z.string(),
  fechaNacimiento: z.string(),
  sexo: z.string(),
  nacionalidad: z.string(),
  estado_civil: z.string(),
});
type KycData = z.infer<typeof kycData>;

/** Identity fields as the document verification returns them (id_data). */
export type IdData = {
  FullName: string;
  DocumentNumber: string;
  DateOfBirth: string;
  Gender: string;
  Nationality: string;
  MaritalStatus: string;
};

/**
 * The spec's name split: with fewer than 3 words the first word is the surname(s) and the rest
 * the given names; with 3 or more, the first two words are surnames and the remainder given names.
 */
export function splitFullName(fullName: string): { apellido: string; nombre: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const surnameWords = words.length >= 3 ? 2 : 1;
  return {
    apellido: words.slice(0, surnameWords).join(' '),
    nombre: words.slice(surnameWords).join(' '),
  };
}

/** id_data to kycData (spec section 3). */
export function kycDataFromIdData(id: IdData): KycData {
  const { nombre, apellido } = splitFullName(id.FullName);
  return {
    nombre,
    apellido,
    numeroDocumento: id.DocumentNumber,
    fechaNacimiento: id.DateOfBirth,
    sexo: id.Gender,
    nacionalidad: id.Nationality,
    estado_civil: id.MaritalStatus,
  };
}

const placeId = z.string().check(z.trim(), z.minLength(1), z.maxLength(16), noControlCharacters());
export const supplementaryData = z.object({
  tipoSangre: z._default(z.enum(BLOOD_TYPES), 'No sé'),
  direccion: z._default(z.string().check(z.trim(), z.maxLength(200), noControlCharacters()), ''),
  departamento: placeId,
  ciudad_id: placeId,
});
export type SupplementaryData = z.input<typeof supplementaryData>;

const acceptablePin = z.string().check(z.refine((pin) => isAcceptablePin(pin)));

// POST /api/onboarding/registration/pin: step 2 kept server-side (its hash) with the e-mail of step 0
export const savePinRequest = z.object({
  registrationToken,
  pin: acceptablePin,
  email: optionalEmail,
  termsAccepted: z.literal(true),
  /** the versions of the terms and of the privacy notice the page showed (contract/terms.ts) */
  termsVersion: z.optional(z.string().check(z.maxLength(32))),
  privacyVersion: z.optional(z.string().check(z.maxLength(32))),
});
export type SavePinRequest = z.input<typeof savePinRequest>;
export const savePinResponse = resultResponse;

// POST /api/onboarding/registration/kyc: the KYC session step 4 started belongs to this registration
export const bindKycRequest = z.object({ registrationToken, sessionId: plainText(1, 128) });
export const bindKycResponse = resultResponse;

// POST /api/onboarding/registration/link: an SMS to the verified mobile with a one-time link
export const sendLinkRequest = z.object({ registrationToken });
export const sendLinkResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** the link's validity */
  expiresInSeconds: z.int().check(z.positive()),
  /** seconds until another link may be sent (the SMS resend wait) */
  resendAfterSeconds: z.int().check(z.gte(0)),
  /**
   * Never sent (issue 29 item 4): the one-time link travels only in the SMS. Read as '' so the
   * browser's handoff (which kept it for a QR code no screen shows) keeps its type until it drops it.
   */
  link: z._default(z.string(), ''),
});
export type SendLinkResponse = z.infer<typeof sendLinkResponse>;

// POST /api/onboarding/registration/document: is the cédula this registration's KYC session just
// read already a patient's? (issue 29 item 10). Only for the registration's own session, once it
// read a card: never an oracle on document numbers typed by anyone.
export const documentCheckRequest = z.object({ registrationToken, sessionId: plainText(1, 128) });
export const documentCheckResponse = z.object({
  success: z.literal(true),
  /** the card's number already belongs to a patient: log in or recover the PIN */
  registered: z.boolean(),
});
export type DocumentCheckResponse = z.infer<typeof documentCheckResponse>;

/** Where the SMS link opens; its token travels in the fragment (#...), never in a logged URL. */
export const CONTINUE_ON_PHONE_PATH = '/onboarding/celular';

// POST /api/onboarding/registration/open: the phone opened the link (one use)
export const openLinkRequest = z.object({ linkToken: registrationToken });
export const openLinkResponse = z.object({
  success: z.literal(true),
  registration: registrationResume,
});
export type OpenLinkResponse = z.infer<typeof openLinkResponse>;

/** How far the registration got, as the first device follows the phone. */
const REGISTRATION_STAGES = ['waiting', 'opened', 'selfie', 'document', 'completed'] as const;
export type RegistrationStage = (typeof REGISTRATION_STAGES)[number];

// POST /api/onboarding/registration/status
export const registrationStatusRequest = z.object({ registrationToken });
export const registrationStatusResponse = z.object({
  success: z.literal(true),
  stage: z.enum(REGISTRATION_STAGES),
});
export type RegistrationStatusResponse = z.infer<typeof registrationStatusResponse>;

/**
 * The registration this browser holds (issue 43 item 8): its device token, the one validate-otp or
 * the SMS link gave, also travels in an HttpOnly, SameSite=Strict cookie that only
 * GET registration/current receives (its path), so a reload continues where the page was. The
 * cookie never replaces the token in any other call.
 */
export const REGISTRATION_COOKIE = 'registration';

// GET /api/onboarding/registration/current: the registration the cookie names, where it continues
// (as validate-otp answers it), or null when there is none (no cookie, or a token no longer live)
export const currentRegistrationResponse = z.object({
  success: z.literal(true),
  registration: z.nullable(registrationResume),
});
export type CurrentRegistrationResponse = z.infer<typeof currentRegistrationResponse>;

// POST /api/onboarding/registration/forget: the patient left the wizard (a back or cancel to the
// home page) on this browser: its cookie goes and the token dies; the registration itself stays,
// continued by proving the mobile again or from an SMS link. The token in the body (never the
// cookie alone) names it, so no other site can make a browser forget.
export const forgetRegistrationRequest = z.object({ registrationToken });
export const forgetRegistrationResponse = resultResponse;

// POST /api/onboarding/register
export const registerRequest = z.object({
  /** the registration this completes (validate-otp or the SMS link gave it) */
  registrationToken,
  phone: paraguayPhone,
  email: optionalEmail,
  /** absent when the registration resumed on another page: the server uses the hash it kept */
  pin: z.optional(acceptablePin),
  sessionId: plainText(1, 128),
  supplementaryData,
  /**
   * What the browser saw at the review step. Accepted for the record but never trusted: the server
   * registers the identity stored by the KYC session it completed itself.
   */
  kycResult: z.optional(z.nullable(z.looseObject({}))),
});
export type RegisterRequest = z.input<typeof registerRequest>;
export const registerResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  /** True when the document number already belongs to a patient: show 'El paciente ya existe'. */
  onboardingComplete: z.optional(z.boolean()),
});
export type RegisterResponse = z.infer<typeof registerResponse>;

// GET /api/onboarding/departments and /api/onboarding/cities/:departmentId
const place = z.object({ id: z.string(), nombre: z.string() });
export type Place = z.infer<typeof place>;
export const departmentsResponse = z.array(place);
export const citiesResponse = z.array(place);

// GET /api/dev/sms-outbox?celular=09XXXXXXXX (development only)
export const smsOutboxResponse = z.array(
  z.object({ celular: z.string(), body: z.string(), purpose: z.string(), createdAt: z.string() }),
);
export type SmsOutboxResponse = z.infer<typeof smsOutboxResponse>;

export const onboardingPaths = {
  start: '/api/onboarding/start',
  validateOtp: '/api/onboarding/validate-otp',
  resendOtp: '/api/onboarding/resend-otp',
  register: '/api/onboarding/register',
  departments: '/api/onboarding/departments',
  cities: (departmentId: string) => `/api/onboarding/cities/${encodeURIComponent(departmentId)}`,
  devSmsOutbox: '/api/dev/sms-outbox',
  savePin: '/api/onboarding/registration/pin',
  bindKyc: '/api/onboarding/registration/kyc',
  sendLink: '/api/onboarding/registration/link',
  openLink: '/api/onboarding/registration/open',
  status: '/api/onboarding/registration/status',
  documentCheck: '/api/onboarding/registration/document',
  /** GET: the registration this browser's cookie names (a reload continues it) */
  current: '/api/onboarding/registration/current',
  forget: '/api/onboarding/registration/forget',
  /** development only: ends this mobile's links now (the e2e's expired link) */
  devExpireLinks: '/api/dev/registration/expire-links',
} as const;
