import { loggableUrl } from './loggable-url';

describe('URLs in the request log', () => {
  it('drops the token of an invitation link, keeping the rest', () => {
    expect(loggableUrl('/dashboard/invite/abcDEF_-123')).toBe('/dashboard/invite/[redacted]');
    expect(loggableUrl('/dashboard/invite/abc?lang=fr')).toBe('/dashboard/invite/[redacted]?lang=fr');
  });

  it('leaves every other URL as it is', () => {
    expect(loggableUrl('/dashboard/keys?notice=keyRevoked')).toBe('/dashboard/keys?notice=keyRevoked');
    expect(loggableUrl('/api/v1/payment-request/by-transaction/x')).toBe(
      '/api/v1/payment-request/by-transaction/x',
    );
  });
});
