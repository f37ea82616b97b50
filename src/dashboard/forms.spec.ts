import { parseAmount, parseChoice, parseDay, parseText, queryString, safeReturn } from './forms';

describe('dashboard form values', () => {
  it('comes back only inside the dashboard', () => {
    expect(safeReturn('/dashboard/keys', '/dashboard')).toBe('/dashboard/keys');
    expect(safeReturn('/dashboard/webhooks/deliveries?status=failed&after=abc_-1', '/x')).toBe(
      '/dashboard/webhooks/deliveries?status=failed&after=abc_-1',
    );
    for (const evil of [
      'https://evil.example/dashboard',
      '//evil.example',
      '/dashboardx',
      '/checkout/1',
      'javascript:1',
    ])
      expect(safeReturn(evil, '/dashboard')).toBe('/dashboard');
  });

  it('reads days as UTC, the end of a day as the start of the next', () => {
    expect(parseDay('2025-02-28')?.toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(parseDay('2025-02-28', true)?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(parseDay('2025-02-30')).toBeUndefined();
    expect(parseDay('28/02/2025')).toBeUndefined();
  });

  it('reads whole MRU amounts up to the maximum', () => {
    expect(parseAmount('1500')).toBe(1500);
    expect(parseAmount(' 0 ')).toBe(0);
    for (const bad of ['-1', '1.5', '1e3', '100000001', '', undefined])
      expect(parseAmount(bad)).toBeUndefined();
  });

  it('takes only the listed choices', () => {
    expect(parseChoice('paid', ['pending', 'paid'])).toBe('paid');
    expect(parseChoice('PAID', ['pending', 'paid'])).toBeUndefined();
  });

  it('keeps only the filters that are set in links', () => {
    expect(queryString({ q: 'a b', status: undefined, from: '' })).toBe('?q=a+b');
    expect(queryString({})).toBe('');
  });
});

describe('parseText', () => {
  it('leaves out a search text PostgreSQL cannot store, as any other that does not parse', () => {
    expect(parseText(' tamr ')).toBe('tamr');
    expect(parseText('a\u0000b')).toBeUndefined();
    expect(parseText('x'.repeat(129))).toBeUndefined();
  });
});
