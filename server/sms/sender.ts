import { OTP_VALIDITY_MINUTES } from '../../contract/onboarding';

export type SmsPurpose =
  | 'onboarding'
  | 'pin_recovery'
  | 'face_unlock'
  | 'onboarding_link'
  | 'case_code'
  | 'case_decision'
  | 'account_deletion';
/** What an SMS code is for (the other purposes carry no code). */
export type OtpPurpose = Exclude<SmsPurpose, 'onboarding_link' | 'case_code' | 'case_decision'>;

export type SmsMessage = {
  /** Paraguayan mobile in local format 09XXXXXXXX. */
  to: string;
  body: string;
  purpose: SmsPurpose;
};

/** Delivers one SMS or throws SmsDeliveryError. */
export interface SmsSender {
  readonly provider: 'outbox' | 'http';
  send(message: SmsMessage): Promise<void>;
}

/**
 * The message was not accepted for delivery (gateway down, refused, timed out). `definite` says the
 * message surely did not leave (the gateway answered a refusal, or could not be reached at all);
 * after a timeout or a dropped connection it may have been delivered.
 */
export class SmsDeliveryError extends Error {
  readonly definite: boolean;
  constructor(
    message: string,
    readonly status?: number,
    definite?: boolean,
  ) {
    super(message);
    this.name = 'SmsDeliveryError';
    this.definite = definite ?? status !== undefined;
  }
}

/** The Spanish SMS text: the code, its validity and the service name. */
export function otpSmsText(serviceName: string, code: string, purpose: OtpPurpose): string {
  const what =
    purpose === 'pin_recovery'
      ? 'para recuperar tu PIN'
      : purpose === 'account_deletion'
        ? 'para eliminar tu cuenta'
        : purpose === 'face_unlock'
          ? 'para desbloquear tu rostro'
          : 'de verificación';
  return `${serviceName}: tu código ${what} es ${code}. Vence en ${OTP_VALIDITY_MINUTES} minutos. No lo compartas con nadie.`;
}

/** 'Seguir en mi celular': the one-time link that continues the registration on the phone. */
export function linkSmsText(serviceName: string, link: string, minutes: number): string {
  return `${serviceName}: seguí tu registro en este celular con este enlace: ${link} Vence en ${minutes} minutos. No lo compartas con nadie.`;
}

/** A health-centre code (issue 30): the code and its deadline only, never personal data. */
export function caseCodeSmsText(serviceName: string, code: string, deadline: string): string {
  return `${serviceName}: tu código para verificar tu identidad en un centro de salud es ${code}. Vence el ${deadline}. Llevá tu cédula.`;
}

/** A case was decided (issue 30): where to continue, never the decision nor personal data. */
export function caseDecisionSmsText(serviceName: string, link: string): string {
  return `Tu verificación de identidad en ${serviceName} tiene novedades. Seguí en ${link}`;
}

/** The notice after a PIN change (PIN recovery): no PIN, no code, a way out if it was not the patient. */
export function pinChangedSmsText(serviceName: string): string {
  return `${serviceName}: el PIN de tu cuenta se cambió recién. Si no fuiste vos, recuperá tu PIN desde la aplicación y avisanos.`;
}

/** A deletion was asked (issue 45 item 6): when, and how to cancel; no name, no number. */
export function deletionAskedSmsText(serviceName: string, due: string): string {
  return `${serviceName}: pediste eliminar tu cuenta. Se eliminará el ${due}. Para cancelar, ingresá con tu cédula y PIN y andá a Mis datos. Si no fuiste vos, ingresá y cancelalo.`;
}

/** The receipt of a deletion (issue 45 item 6): no name, no document number. */
export function deletionReceiptSmsText(serviceName: string): string {
  return `Tu cuenta del ${serviceName} fue eliminada. Gracias por usar el servicio.`;
}

/** 09XXXXXXXX to E.164 (+5959XXXXXXXX). */
export function toE164(local: string): string {
  return `+595${local.replace(/^0/, '')}`;
}
