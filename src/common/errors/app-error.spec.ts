import { AppError, domainErrors } from './app-error';

enum ShopError {
  Missing = 'missing',
  Taken = 'taken',
}

const shopError = domainErrors<ShopError>({
  [ShopError.Missing]: [404, 'Shop not found'],
  [ShopError.Taken]: [409, (name) => `A shop named "${name}" already exists`],
});

describe('domain errors', () => {
  it('carry the code, status and message of their table', () => {
    const err = shopError(ShopError.Missing);
    expect(err).toBeInstanceOf(AppError);
    expect([err.code, err.status, err.message]).toEqual(['missing', 404, 'Shop not found']);
  });

  it('fill a message that names a value', () => {
    expect(shopError(ShopError.Taken, 'Souk').message).toBe('A shop named "Souk" already exists');
  });

  it('are told apart by code', () => {
    const err: unknown = shopError(ShopError.Taken, 'x');
    expect(AppError.is(err, ShopError.Taken)).toBe(true);
    expect(AppError.is(err, ShopError.Missing)).toBe(false);
    expect(AppError.is(err)).toBe(true);
    expect(AppError.is(new Error('x'), ShopError.Taken)).toBe(false);
  });
});

describe('AppError.retryAfter', () => {
  it('adds a Retry-After of whole seconds, at least 1', () => {
    expect(shopError(ShopError.Missing).retryAfter(2.2).headers).toEqual({ 'retry-after': '3' });
    expect(shopError(ShopError.Missing).retryAfter(0).headers).toEqual({ 'retry-after': '1' });
    expect(shopError(ShopError.Missing).headers).toEqual({});
  });
});
