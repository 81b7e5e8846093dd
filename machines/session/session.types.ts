type SessionPatient = { nombre: string; apellido: string };

export type SessionContext = {
  patient: SessionPatient | null;
  /** When the server says the session ends unless used (idle or absolute expiry). */
  expiresAt: number | null;
};

export type SessionEvent = { type: 'session.logout' } | { type: 'session.refresh' };
