import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSecret, legacySignature, webhookBody, webhookHeaders } from './signing';

const body = webhookBody({
  id: '3f1d2c4e-1111-4222-8333-444455556666',
  kind: 'payment-request-created',
  createdAt: new Date('2025-01-02T03:04:05.000Z'),
  data: { id: 'x', transactionId: 'order_1', note: 'é ✓' },
});

describe('webhook signing', () => {
  it('generates whsec_ secrets holding 32 random bytes in base64', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(s);
  });

  it('signs the legacy header as a plain HMAC-SHA256 of the raw bytes keyed by the secret string', () => {
    const secret = generateSecret();
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    expect(legacySignature(secret, body)).toBe(`sha256=${expected}`);
  });

  it('produces Standard Webhooks headers that the standardwebhooks package verifies', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({ id: 'evt-1', kind: 'payment-created', body, timestamp: now, secret });
    expect(() => new Webhook(secret).verify(body, h)).not.toThrow();
    expect(h['webhook-id']).toBe('evt-1');
    expect(h['x-webhook-event']).toBe('payment-created');
    expect(h['user-agent']).toBe('Khoums-Webhook/1.0');
    expect(h['content-type']).toBe('application/json');
  });

  it('signs with both secrets during a rotation, the legacy header with the new one', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const now = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({
      id: 'evt-2',
      kind: 'payment-created',
      body,
      timestamp: now,
      secret: current,
      previousSecret: previous,
    });
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, h)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, h)).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, h)).toThrow();
    expect(h['x-webhook-signature']).toBe(legacySignature(current, body));
  });

  it('rejects a body altered by one byte', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const h = webhookHeaders({ id: 'evt-3', kind: 'payment-created', body, timestamp: now, secret });
    const tampered = Buffer.from(body);
    tampered[tampered.length - 2] ^= 1;
    expect(() => new Webhook(secret).verify(tampered, h)).toThrow();
    expect(legacySignature(secret, tampered)).not.toBe(h['x-webhook-signature']);
  });

  it('serialises the body as { id, event, createdAt, data }', () => {
    expect(JSON.parse(body.toString('utf8'))).toEqual({
      id: '3f1d2c4e-1111-4222-8333-444455556666',
      event: 'payment-request-created',
      createdAt: '2025-01-02T03:04:05.000Z',
      data: { id: 'x', transactionId: 'order_1', note: 'é ✓' },
    });
  });
});
