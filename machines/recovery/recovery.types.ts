/** Why a recovery step stopped; each code has its Spanish text in src/copy/es.recovery.ts. */
export type RecoveryErrorCode =
  /** step 0 submitted with fewer than 5 document digits */
  | 'documentoInvalid'
  /** step 0 submitted with a mobile that is not a Paraguayan mobile (09XXXXXXXX) */
  | 'celularInvalid'
  /** send-pin-otp failed: the spec's 'No se pudo enviar el código. Verifique los datos.' */
  | 'sendFailed'
  /** step 2: not 6 digits or one of the banned PINs */
  | 'pinInvalid'
  /** step 2: made from the patient's document number or birth date (contract/pin.ts) */
  | 'pinFromOwnData'
  /** set-new-pin failed: the spec's 'No se pudo guardar el PIN.' */
  | 'saveFailed'
  | 'tooManyAttempts'
  /** the code step stopped with an error of its own (a bug): nothing to retry in place */
  | 'unexpected';

export type RecoveryError = { code: RecoveryErrorCode; serverMessage?: string };

export type RecoveryContext = {
  /** the document number as typed (digits only, at most 12) */
  documento: string;
  /** the registered mobile: digits, at most 10; a pasted +595 number as 09XXXXXXXX (machines/shared/phone.ts localPhoneInput) */
  celular: string;
  /** the resend wait the server announced with the code */
  resendAfterSeconds: number | null;
  /** the new PIN as typed (digits only, at most 6), kept in memory only until set-new-pin */
  pin: string;
  /** step 0's own messages, under each field, until the field is fixed */
  fieldErrors: RecoveryFieldErrors;
  /** the last refusal that is not a field's: step 0's send, step 2's PIN or save */
  error: RecoveryError | null;
  /** failed submits so far: each sends the focus to the first field to fix */
  failures: number;
};

export type RecoveryFieldErrors = {
  documento: 'documentoInvalid' | null;
  celular: 'celularInvalid' | null;
};

/** What keeps a step's submit disabled: a required field left empty. */
export type RecoveryMissing = 'documentoAndCelular' | 'documento' | 'celular' | 'pin';

export type RecoveryEvent =
  | { type: 'documento.change'; value: string }
  | { type: 'celular.change'; value: string }
  | { type: 'pin.change'; value: string }
  | { type: 'form.submit' }
  /** step 1's back arrow: to step 0 with what was typed there */
  | { type: 'flow.back' };

/** The spec's step numbers (section 2): 0 request, 1 code, 2 new PIN, 3 success. */
export type RecoveryStep = 0 | 1 | 2 | 3;
