/** Why a login failed; each code has its Spanish text in src/copy/es.ts. */
export type LoginErrorCode = 'loginFailed' | 'rejected' | 'network' | 'tooManyAttempts';

export type LoginError = { code: LoginErrorCode; serverMessage?: string };

export type LoginContext = {
  documento: string;
  pin: string;
  error: LoginError | null;
  /** failed submits so far: each one sends the focus back to the PIN field */
  failures: number;
};

/** What keeps 'Validar' disabled (spec 5): too few document digits, the PIN not 6 digits, or both. */
export type LoginMissing = 'documentoAndPin' | 'documento' | 'pin';

export type LoginEvent =
  | { type: 'documento.change'; value: string }
  | { type: 'pin.change'; value: string }
  | { type: 'form.submit' };
