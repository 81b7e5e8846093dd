import type { CasesSettings } from './cases/config';
import type { Config } from './config';
import type { Db } from './db/client';
import type { FaceLoginConfig } from './face-login/config';
import type { IdentityConfig } from './identity/config';
import type { InsightSettings } from './insight/config';
import type { DeletionSettings } from './my-data/deletion-config';
import type { OnboardingSettings } from './onboarding/config';
import type { OperatorsConfig } from './operators/config';
import type { DownloadSettings } from './my-data/download-config';
import type { KycStore } from './onboarding/kyc-store';
import type { CaseReader } from './onboarding/case-reader';
import type { RecoverySettings } from './recovery/config';
import type { PinHasher } from './security/pin';
import type { Secrets } from './security/secrets';
import type { SmsSender } from './sms/sender';

/** What every route plugin receives. Areas add their own collaborators here. */
export type AppContext = {
  config: Config;
  db: Db;
  secrets: Secrets;
  pins: PinHasher;
  /** Injectable clock and sleep: tests drive time without waiting. */
  clock: { now(): number; sleep(ms: number): Promise<void> };
  /** SMS provider (development outbox or HTTP gateway) and the OTP/SMS limits. */
  sms: SmsSender;
  onboarding: OnboardingSettings;
  /** PIN recovery's per-document caps and grant lifetime. */
  recovery: RecoverySettings;
  /** The identity engine's completed KYC sessions, for registration (null: not wired yet). */
  kyc: KycStore | null;
  /** What registration reads of a registration's case (server/cases' implementation). */
  caseReader: CaseReader;
  /** Face authentication and kiosk device settings. */
  faceLogin: FaceLoginConfig;
  /** Journey insight: retention, purge interval, the ingestion's caps and token. */
  insight: InsightSettings;
  /** The identity engine's IDENTITY_* settings (its pool, budgets, backends). */
  identitySettings: IdentityConfig;
  /** The back office's passkeys (relying party) and operator session limits (issue 30). */
  operators: OperatorsConfig;
  /** Assisted verification (issue 30): deadlines, retention, claims, code look-ups, centres. */
  cases: CasesSettings;
  /** Mis datos' download (issue 45 item 2): the link's life, the longest build. */
  myDataDownload: DownloadSettings;
  /** 'Eliminar mi cuenta' (issue 45 item 6): the waiting period and the job's interval. */
  deletion: DeletionSettings;
};

export const systemClock: AppContext['clock'] = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
