import { RequestKey, validIdempotencyKey } from './request-key';

const ENV = '6f1c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
const OTHER_ENV = '7a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d';
const request = { method: 'POST', path: '/api/v1/payment-request', body: '{"transactionId":"a","amount":1}' };

describe('Idempotency-Key values', () => {
  it('accept 1 to 255 printable characters', () => {
    for (const key of ['a', 'order 42 / retry', 'x'.repeat(255), '550e8400-e29b-41d4-a716-446655440000'])
      expect(validIdempotencyKey(key)).toBe(true);
  });

  it('refuse an empty, too long, non-printable or repeated header', () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'line\nbreak', 'café', ['a', 'b'], undefined])
      expect(validIdempotencyKey(key)).toBe(false);
  });
});

describe('RequestKey', () => {
  it('is the same for a retry: same scope, key, method, path and body', () => {
    const a = RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'k1', request);
    const b = RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'k1', { ...request });
    expect(a.id.equals(b.id)).toBe(true);
    expect(b.sameRequest(a.requestHash.toString('hex'))).toBe(true);
    expect(a.lockId).toBe(b.lockId);
  });

  it('tells another method, path or body apart', () => {
    const first = RequestKey.of(
      { environmentId: ENV, keyKind: 'secret' },
      'k1',
      request,
    ).requestHash.toString('hex');
    for (const other of [
      { ...request, method: 'PATCH' },
      { ...request, path: '/api/v1/checkout-session' },
      { ...request, body: '{"transactionId":"a","amount":2}' },
    ])
      expect(RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'k1', other).sameRequest(first)).toBe(
        false,
      );
  });

  it('scopes the key: environments, key kinds, checkout sessions and invoices never share a record', () => {
    const ids = [
      RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'k1', request),
      RequestKey.of({ environmentId: OTHER_ENV, keyKind: 'secret' }, 'k1', request),
      RequestKey.of({ environmentId: ENV, keyKind: 'publishable' }, 'k1', request),
      RequestKey.of({ environmentId: ENV, checkoutSessionId: OTHER_ENV }, 'k1', request),
      RequestKey.of({ environmentId: ENV, invoiceId: OTHER_ENV }, 'k1', request),
      RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'k2', request),
    ].map((k) => k.id.toString('hex'));
    expect(new Set(ids).size).toBe(6);
  });

  it('stores neither the key nor a hash of the body that can be checked without the key', () => {
    const key = RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'secret-key-1', request);
    const other = RequestKey.of({ environmentId: ENV, keyKind: 'secret' }, 'secret-key-2', request);
    expect(key.id.toString('latin1')).not.toContain('secret-key-1');
    expect(key.requestHash.equals(other.requestHash)).toBe(false);
    expect(key.id).toHaveLength(32);
    expect(BigInt(key.lockId)).toBeGreaterThanOrEqual(-(2n ** 63n));
    expect(BigInt(key.lockId)).toBeLessThan(2n ** 63n);
  });
});
