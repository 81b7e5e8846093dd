/** Why a login failed; each code has its Spanish text in src/copy/es.ts. */
export type LoginErrorCode = 'loginFailed' | 'rejected' | 'network' | 'tooManyAttempts';

export type LoginError = { code: LoginErrorCode; serverMessage?: string };

export type LoginContext = {
  documento: string;
  pin: string;
  error: LoginError | null;
};

export type LoginEvent =
  | { type: 'documento.change'; value: string }
  | { type: 'pin.change'; value: string }
  | { type: 'form.submit' };
