import type { FastifyInstance } from 'fastify';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // styled-components injects <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Strict-Transport-Security goes on every answer known to travel over https: a TLS socket, a
 * trusted proxy's X-Forwarded-Proto (request.protocol), or COOKIE_SECURE=true (the operator says
 * the site is served over https behind a proxy).
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  options: { cookieSecure?: boolean | undefined; hstsIncludeSubdomains?: boolean } = {},
): void {
  const hsts = `max-age=31536000${options.hstsIncludeSubdomains ? '; includeSubDomains' : ''}`;
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(self), microphone=(), geolocation=(), payment=()');
    if (options.cookieSecure === true || request.protocol === 'https')
      reply.header('strict-transport-security', hsts);
    if (request.url.startsWith('/api')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
