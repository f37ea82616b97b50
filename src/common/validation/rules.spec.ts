import { amountProblem, isHttpUrl, MAX_AMOUNT, normalizePhone, parseDateTime } from './rules';

describe('amountProblem', () => {
  it.each([
    [1, null],
    [MAX_AMOUNT, null],
    [0, 'not-positive'],
    [-5, 'not-positive'],
    [MAX_AMOUNT + 1, 'too-large'],
  ])('classifies %p as %p', (amount, expected) => {
    expect(amountProblem(amount)).toBe(expected);
  });
});

describe('normalizePhone', () => {
  it.each([
    ['22123456', '22123456'],
    ['32123456', '32123456'],
    ['42123456', '42123456'],
    ['+22222123456', '22123456'],
    ['0022222123456', '22123456'],
    ['22 12 34 56', '22123456'],
    ['+222 4612 3456', '46123456'],
  ])('accepts %p as %p', (raw, expected) => {
    expect(normalizePhone(raw)).toBe(expected);
  });

  it.each(['12345678', '52123456', '2212345', '221234567', '2212345a', '', '+22312345678', '222'])(
    'rejects %p',
    (raw) => {
      expect(normalizePhone(raw)).toBeNull();
    },
  );
});

describe('isHttpUrl', () => {
  it.each(['https://shop.example/ok', 'http://localhost:3000/cb?x=1'])('accepts %p', (u) => {
    expect(isHttpUrl(u)).toBe(true);
  });
  it.each(['ftp://x.example', 'javascript:alert(1)', '/relative', 'not a url', 42, null, 'https://'])(
    'rejects %p',
    (u) => {
      expect(isHttpUrl(u)).toBe(false);
    },
  );
});

describe('parseDateTime', () => {
  it.each([
    ['2025-01-31T10:20:30.456Z', '2025-01-31T10:20:30.456Z'],
    ['2025-01-31T10:20:30Z', '2025-01-31T10:20:30.000Z'],
    ['2025-01-31T10:20:30+01:00', '2025-01-31T09:20:30.000Z'],
    ['2025-01-31T10:20:30-0130', '2025-01-31T11:50:30.000Z'],
    ['2025-01-31T10:20:30', '2025-01-31T10:20:30.000Z'],
    ['2025-01-31T10:20', '2025-01-31T10:20:00.000Z'],
    ['2025-01-31 10:20:30', '2025-01-31T10:20:30.000Z'],
    ['2025-01-31', '2025-01-31T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads %p as %p (UTC unless an offset is given)', (input, iso) => {
    expect(parseDateTime(input)?.toISOString()).toBe(iso);
  });

  it.each([
    '',
    'tomorrow',
    '2025-02-30',
    '2025-02-29',
    '2025-13-01',
    '2025-01-01T24:00:00Z',
    '1700000000',
    20250101,
    null,
  ])('refuses %p', (input) => {
    expect(parseDateTime(input)).toBeNull();
  });
});
