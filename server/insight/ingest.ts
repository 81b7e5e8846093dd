import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { INSIGHT_MAX_EVENTS_PER_JOURNEY, type InsightEvent } from '../../contract/insight';
import { HttpError } from '../http/errors';
import { limitExceeded } from '../security/rate-limits';
import type { InsightSettings } from './config';
import { insightMessages } from './messages';

/**
 * Who may write journey insight, and how much (issue 29 items 6 and 7). A page asks for a token
 * (GET /api/insight/token: an expiry and a random nonce, signed with a key derived from the
 * server's OTP secret, so any API process checks it); each batch carries it. A journey is bound to
 * its token: its events are counted under that token, and a page's events need one. The id stored is a keyed hash of the browser's journey id made into a UUID v4 (storedJourneyId), so
 * no digit the browser chose reaches the table; support and the report's --recorrido find a
 * journey by the browser's id through the same hash. Events are capped per journey, per token and
 * per day (in this process's memory, like the per-address cap); cross-site requests are refused.
 */

const b64 = (buf: Buffer) => buf.toString('base64url');

const insightKey = (secret: string) =>
  createHmac('sha256', secret).update('journey-insight').digest();

/** The id a browser's journey is stored under: a UUID v4 from a keyed hash of it. */
export function storedJourneyId(secret: string, journey: string): string {
  const b = createHmac('sha256', insightKey(secret)).update(`journey\n${journey}`).digest();
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function createIngestGuard(secret: string, settings: InsightSettings) {
  const key = insightKey(secret);
  const mac = (payload: string) => b64(createHmac('sha256', key).update(payload).digest());
  const perToken = new Map<string, { events: number; expiresAt: number }>();
  /** keyed by token nonce and stored journey: a journey's events are counted under its token */
  const perJourney = new Map<string, { events: number; expiresAt: number }>();
  let day = '';
  let dayEvents = 0;
  let sweptAt = 0;

  const sweep = (now: number) => {
    if (now - sweptAt < 60_000) return;
    sweptAt = now;
    for (const map of [perToken, perJourney])
      for (const [k, v] of map) if (v.expiresAt <= now) map.delete(k);
  };

  return {
    /** A new page token: `<expiry ms>.<nonce>.<mac>`. */
    issue(now: number): { token: string; expiresInSeconds: number } {
      const payload = `${now + settings.tokenMs}.${b64(randomBytes(16))}`;
      return {
        token: `${payload}.${mac(payload)}`,
        expiresInSeconds: Math.floor(settings.tokenMs / 1000),
      };
    },

    /**
     * Admits a batch: 401 for a token this server did not sign or that expired, 429 past a cap
     * (nothing of the batch is counted then). Returns the stored journey id of each event.
     */
    admit(token: string, events: InsightEvent[], now: number): string[] {
      const [expiry, nonce, signature] = token.split('.');
      const expiresAt = Number(expiry);
      const expected = mac(`${expiry}.${nonce}`);
      const valid =
        nonce !== undefined &&
        signature !== undefined &&
        signature.length === expected.length &&
        timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) &&
        Number.isSafeInteger(expiresAt) &&
        expiresAt > now;
      if (!valid) throw new HttpError(401, insightMessages.badToken);
      sweep(now);
      const today = new Date(now).toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        dayEvents = 0;
      }
      const journeys = events.map((e) => storedJourneyId(secret, e.journey));
      const counts = new Map<string, number>();
      for (const j of journeys) counts.set(j, (counts.get(j) ?? 0) + 1);
      const tokenCount = perToken.get(nonce)?.events ?? 0;
      const journeyOver = [...counts].some(
        ([j, n]) =>
          (perJourney.get(`${nonce}/${j}`)?.events ?? 0) + n > INSIGHT_MAX_EVENTS_PER_JOURNEY,
      );
      const untilTomorrow = Date.parse(`${today}T00:00:00Z`) + 86_400_000 - now;
      if (dayEvents + events.length > settings.eventsPerDay) throw limitExceeded(untilTomorrow);
      if (tokenCount + events.length > settings.eventsPerToken || journeyOver)
        throw limitExceeded(expiresAt - now);
      dayEvents += events.length;
      perToken.set(nonce, { events: tokenCount + events.length, expiresAt });
      for (const [j, n] of counts) {
        const k = `${nonce}/${j}`;
        perJourney.set(k, { events: (perJourney.get(k)?.events ?? 0) + n, expiresAt });
      }
      return journeys;
    },
  };
}

/**
 * Cross-site requests are refused (403): a browser says where a request comes from in
 * Sec-Fetch-Site (fetch and sendBeacon alike) and Origin; a request from the page itself is
 * 'same-origin' with the page's origin. Without either header (not a browser) it passes: the token
 * and the caps hold it.
 */
export function refuseCrossSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none')
    throw new HttpError(403, insightMessages.crossSite);
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    const hostOf = (url: string) => {
      try {
        return new URL(url).host;
      } catch {
        return null;
      }
    };
    if (hostOf(origin) !== hostOf(`${request.protocol}://${request.host}`))
      throw new HttpError(403, insightMessages.crossSite);
  } else if (origin === 'null') throw new HttpError(403, insightMessages.crossSite);
}
