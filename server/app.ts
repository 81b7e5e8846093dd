import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import { fastifyTrustProxy, type Config } from './config';
import { ConfigError } from './env';
import { systemClock, type AppContext } from './context';
import { openDb, type Db } from './db/client';
import { frameworkErrorOptions, installErrorHandling } from './http/errors';
import { installSecurityHeaders } from './http/security-headers';
import { serveApp } from './http/static';
import { installHealth } from './lifecycle/readiness';
import { OneLinePerRequest, loggerOptions } from './http/logging';
import { checkPepper, PEPPER_MISMATCH_MESSAGE } from './security/pepper-check';
import { createPinHasher } from './security/pin';
import { resolveSecrets } from './security/secrets';
import { loadOnboardingSettings } from './onboarding/config';
import { identityKycStore } from './onboarding/identity-kyc';
import { devKycRoutes } from './identity/dev-routes';
import { identityRoutes } from './identity/routes';
import { loadIdentityConfig } from './identity/config';
import { createIdentityEngine } from './identity/engine';
import { createSealer } from './security/sealed';
import { identityPlugin } from './identity/plugin';
import { loginRoutes } from './login/routes';
import { sessionRoutes } from './session/routes';
import { loadFaceLoginConfig } from './face-login/config';
import { faceLoginRoutes, kioskRoutes } from './face-login/routes';
import { devOnboardingRoutes, onboardingRoutes } from './onboarding/routes';
import { loadInsightSettings } from './insight/config';
import { createEngineRecorder } from './insight/engine-recorder';
import { insightPlugin, insightRoutes } from './insight/routes';
import { OPERATOR_API_PREFIX } from '../contract/operators';
import { loadOperatorsConfig } from './operators/config';
import { operatorAuthPlugin } from './operators/auth';
import { loadCasesSettings } from './cases/config';
import { caseRoutes } from './cases/routes';
import { caseReader } from './cases/reader';
import { operatorCaseRoutes } from './cases/operator-routes';
import { loadRecoverySettings } from './recovery/config';
import { recoveryRoutes } from './recovery/routes';
import { loadDownloadSettings } from './my-data/download-config';
import { loadDeletionSettings } from './my-data/deletion-config';
import { myDataRoutes } from './my-data/routes';
import { createSmsSender } from './sms';
import { devSmsRoutes } from './sms/routes';

export type AppDeps = Partial<
  Pick<
    AppContext,
    | 'db'
    | 'clock'
    | 'sms'
    | 'onboarding'
    | 'recovery'
    | 'kyc'
    | 'caseReader'
    | 'faceLogin'
    | 'insight'
    | 'identitySettings'
    | 'operators'
    | 'cases'
    | 'myDataDownload'
    | 'deletion'
  >
>;

/**
 * Every area's settings are read here from `env` (server/main.ts passes process.env; nothing else
 * in the server reads it), validated at start; `deps` replaces any of them (tests).
 */
export async function createContext(
  config: Config,
  deps: AppDeps = {},
  env: Record<string, string | undefined> = {},
): Promise<AppContext> {
  const db: Db =
    deps.db ??
    (await openDb({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      socket: { transactionMs: config.pgliteSocketTransactionMs },
    }));
  const secrets = await resolveSecrets(config);
  // A server with another pepper than the one the PINs were hashed with would refuse every login.
  if ((await checkPepper(db, secrets.pinPepper)) === 'mismatch') {
    if (!deps.db) await db.close();
    throw new ConfigError(PEPPER_MISMATCH_MESSAGE.replace(' Nothing was written.', ''));
  }
  const pins = await createPinHasher(secrets.pinPepper);
  const clock = deps.clock ?? systemClock;
  const onboarding = deps.onboarding ?? loadOnboardingSettings(env, config.env);
  const sms = deps.sms ?? createSmsSender(onboarding.sms, { db, clock });
  const identitySettings = deps.identitySettings ?? loadIdentityConfig(env);
  const ctx: AppContext = {
    config,
    db,
    secrets,
    pins,
    clock,
    sms,
    onboarding,
    recovery: deps.recovery ?? loadRecoverySettings(env),
    kyc:
      deps.kyc ??
      identityKycStore(db, createSealer(secrets.casesKey), {
        duplicateFaceThreshold: identitySettings.duplicateFaceThreshold,
        duplicates: identitySettings.duplicates,
      }),
    // Registration reads its case through its own port (no arrow from onboarding to cases).
    caseReader: deps.caseReader ?? caseReader(db, () => ctx),
    faceLogin: deps.faceLogin ?? loadFaceLoginConfig(env, config.env),
    insight: deps.insight ?? loadInsightSettings(env),
    identitySettings,
    operators: deps.operators ?? loadOperatorsConfig(env, config.env),
    cases: deps.cases ?? loadCasesSettings(env),
    myDataDownload: deps.myDataDownload ?? loadDownloadSettings(env),
    deletion: deps.deletion ?? loadDeletionSettings(env),
  };
  return ctx;
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger: loggerOptions({ level: config.logLevel, format: config.logFormat }),
    logController: new OneLinePerRequest(),
    bodyLimit: config.bodyLimit,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    ...frameworkErrorOptions,
  });
  installErrorHandling(app);
  installSecurityHeaders(app, {
    cookieSecure: config.session.cookieSecure,
    hstsIncludeSubdomains: config.hstsIncludeSubdomains,
  });
  installHealth(app, ctx.db);
  // JSON only: drop Fastify's built-in text/plain parser so anything else is a 415.
  app.removeContentTypeParser('text/plain');
  await app.register(cookie);

  await app.register(loginRoutes, { prefix: '/api/auth', ctx });
  await app.register(sessionRoutes, { prefix: '/api/auth', ctx });
  await app.register(recoveryRoutes, { prefix: '/api/auth', ctx });
  // 'Mis datos' (issue 45): what the service holds about the signed-in patient, and who looked.
  await app.register(myDataRoutes, { prefix: '/api/mis-datos', ctx });
  await app.register(onboardingRoutes, { prefix: '/api/onboarding', ctx });
  // Assisted verification, the patient's side, and the cases' retention job (issue 30).
  await app.register(caseRoutes, { prefix: '/api/onboarding', ctx });
  // Journey insight before the engine: the engine the app owns reports its decisions to it.
  await app.register(insightPlugin, { ctx });
  // One identity engine per process (app.identity), read by the identity and face authentication routes.
  await app.register(identityPlugin, {
    env: config.env,
    createEngine: () =>
      createIdentityEngine(ctx.identitySettings, {
        log: app.log,
        // KYC sessions keep their evidence sealed under CASES_KEY for a person's review (issue 30).
        sealer: createSealer(ctx.secrets.casesKey),
        insight: createEngineRecorder((decision) => app.insight.record(decision)),
      }),
  });
  await app.register(identityRoutes, { prefix: '/api/onboarding', ctx });
  await app.register(faceLoginRoutes, {
    prefix: ctx.faceLogin.prefix,
    ctx,
    faceLogin: ctx.faceLogin,
  });
  await app.register(kioskRoutes, { prefix: '/api/kiosk', ctx, faceLogin: ctx.faceLogin });
  await app.register(insightRoutes, { prefix: '/api/insight', ctx });
  // The back office's operators: passkeys, sessions, app.requireOperator and request.operator
  // (issue 30); the case routes depend on them by plugin name ('operator-auth').
  await app.register(operatorAuthPlugin, { ctx });
  await app.register(operatorCaseRoutes, { prefix: OPERATOR_API_PREFIX, ctx });
  if (config.env !== 'production') {
    await app.register(devSmsRoutes, { prefix: '/api/dev', ctx });
    await app.register(devOnboardingRoutes, { prefix: '/api/dev', ctx });
    await app.register(devKycRoutes, { prefix: '/api/dev', ctx });
  }

  await serveApp(app, config.staticDir);
  return app;
}
