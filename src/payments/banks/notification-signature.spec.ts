import * as crypto from 'node:crypto';

/** The module object itself (the `* as` import is a copy): what the code under test calls through. */
const cryptoModule = require('node:crypto') as typeof crypto;
import { signNotification, verifyNotification } from './notification-signature';

describe('incoming-transfer notification signature', () => {
  const secret = 'bank-notifications-secret-0123';
  const body = JSON.stringify({ id: 'gim_1', amount: 1500 });
  const now = 1_800_000_000;

  it('accepts the header the gateway computes: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>', () => {
    const expected = crypto.createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
    const header = signNotification(secret, body, now);
    expect(header).toBe(`t=${now},v1=${expected}`);
    expect(verifyNotification(secret, header, body, now)).toBe(true);
    expect(verifyNotification(secret, header, Buffer.from(body), now)).toBe(true);
  });

  it('accepts up to 5 minutes either way, not one second more', () => {
    expect(verifyNotification(secret, signNotification(secret, body, now - 300), body, now)).toBe(true);
    expect(verifyNotification(secret, signNotification(secret, body, now + 300), body, now)).toBe(true);
    expect(verifyNotification(secret, signNotification(secret, body, now - 301), body, now)).toBe(false);
    expect(verifyNotification(secret, signNotification(secret, body, now + 301), body, now)).toBe(false);
  });

  it('refuses another secret, a tampered body, a moved timestamp, a missing or malformed header', () => {
    expect(verifyNotification(secret, signNotification('another-secret-0123456', body, now), body, now)).toBe(
      false,
    );
    expect(
      verifyNotification(secret, signNotification(secret, body, now), body.replace('1500', '15000'), now),
    ).toBe(false);
    const v1 = signNotification(secret, body, now).split('v1=')[1];
    expect(verifyNotification(secret, `t=${now - 1},v1=${v1}`, body, now)).toBe(false);
    expect(verifyNotification(secret, undefined, body, now)).toBe(false);
    expect(verifyNotification(secret, '', body, now)).toBe(false);
    expect(verifyNotification(secret, `v1=${v1}`, body, now)).toBe(false);
    expect(verifyNotification(secret, `t=${now}`, body, now)).toBe(false);
    expect(verifyNotification(secret, `t=${now},v1=${v1.slice(0, 10)}`, body, now)).toBe(false);
    expect(verifyNotification(secret, `t=${now},v1=${'z'.repeat(64)}`, body, now)).toBe(false);
    expect(verifyNotification(secret, `t=abc,v1=${v1}`, body, now)).toBe(false);
    expect(verifyNotification('', signNotification('', body, now), body, now)).toBe(false);
  });

  it('accepts any one valid v1 among several (a rotation), uppercase hex too', () => {
    const good = signNotification(secret, body, now).split('v1=')[1];
    expect(verifyNotification(secret, `t=${now},v1=${'0'.repeat(64)},v1=${good}`, body, now)).toBe(true);
    expect(verifyNotification(secret, `t=${now},v1=${good.toUpperCase()}`, body, now)).toBe(true);
  });

  it('compares in constant time: every v1, right or wrong, any length, goes through timingSafeEqual with the full MAC', () => {
    const spy = jest.spyOn(cryptoModule, 'timingSafeEqual');
    try {
      const good = signNotification(secret, body, now).split('v1=')[1];
      for (const guess of [good, good.slice(0, 63) + (good[63] === '0' ? '1' : '0'), 'ab', 'z'.repeat(64)]) {
        spy.mockClear();
        verifyNotification(secret, `t=${now},v1=${guess}`, body, now);
        expect(spy).toHaveBeenCalledTimes(1);
        const [a, b] = spy.mock.calls[0] as [Buffer, Buffer];
        expect([a.length, b.length]).toEqual([32, 32]);
      }
    } finally {
      spy.mockRestore();
    }
  });
});
