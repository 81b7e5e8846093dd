/**
 * Issue 11 item 10 (the code is stored before the SMS leaves and discarded only on a definite
 * refusal: a gateway timeout does not reject a code the gateway did deliver) and item 11 (failed
 * sends do not spend the per-address budget).
 */
import { describe, expect, it } from 'vitest';
import { SmsDeliveryError, type SmsMessage, type SmsSender } from '../../server/sms/sender';
import { useTestApp } from './helpers';

/** Delivers every message it is given, then answers as told: ok, a timeout, or a refusal. */
class ScriptedGateway implements SmsSender {
  readonly provider = 'http' as const;
  readonly delivered: SmsMessage[] = [];
  mode: 'ok' | 'timeout' | 'refused' = 'ok';
  async send(message: SmsMessage) {
    if (this.mode === 'refused') throw new SmsDeliveryError('SMS gateway answered HTTP 503', 503);
    this.delivered.push(message);
    if (this.mode === 'timeout') throw new SmsDeliveryError('SMS gateway timed out after 5000 ms');
  }
  code(to: string) {
    return /\b(\d{6})\b/.exec(this.delivered.filter((m) => m.to === to).at(-1)!.body)![1]!;
  }
}

const sms = new ScriptedGateway();
const h = useTestApp({ deps: { sms } });
const post = (url: string, payload: object, ip = '10.0.0.1') =>
  h.t.app.inject({ method: 'POST', url: `/api/onboarding${url}`, payload, remoteAddress: ip });
const start = (phone: string, ip?: string) => post('/start', { phone, email: '' }, ip);

describe('OTP delivery outcomes', () => {
  it('after a gateway timeout the delivered code is accepted', async () => {
    sms.mode = 'timeout';
    const res = await start('0981222333');
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    const ok = await post('/validate-otp', { celular: '0981222333', otp: sms.code('0981222333') });
    expect(ok.statusCode).toBe(200);
    const log = await h.t.ctx.db.query<{ status: string }>('SELECT status FROM sms_send_log');
    expect(log.rows.map((r) => r.status)).toEqual(['unconfirmed']);
  });

  it('a definite refusal stores no code and answers the send error', async () => {
    sms.mode = 'refused';
    expect((await start('0981222334')).statusCode).toBe(502);
    expect((await h.t.ctx.db.query('SELECT 1 FROM otp_codes')).rows).toHaveLength(0);
  });

  it('failed sends do not spend the per-address budget', async () => {
    sms.mode = 'refused';
    for (let i = 0; i < 25; i++) {
      expect((await start(`09813330${String(i).padStart(2, '0')}`, '10.7.7.7')).statusCode).toBe(
        502,
      );
    }
    sms.mode = 'ok';
    for (let i = 0; i < 20; i++) {
      expect((await start(`09814440${String(i).padStart(2, '0')}`, '10.7.7.7')).statusCode).toBe(
        200,
      );
    }
    expect((await start('0981444099', '10.7.7.7')).statusCode).toBe(429);
  });
});
