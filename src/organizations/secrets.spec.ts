import {
  displayKey,
  generateApiKey,
  hashApiKey,
  hashPassword,
  looksLikeApiKey,
  verifyPassword,
} from './secrets';

describe('API keys', () => {
  it.each([
    ['secret', 'sandbox', 'sk_test_'],
    ['publishable', 'sandbox', 'pk_test_'],
    ['secret', 'production', 'sk_live_'],
    ['publishable', 'production', 'pk_live_'],
  ] as const)('a %s %s key starts with %s and 40 base62 characters', (kind, env, prefix) => {
    const key = generateApiKey(kind, env);
    expect(key.startsWith(prefix)).toBe(true);
    expect(key.slice(prefix.length)).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(looksLikeApiKey(key)).toBe(true);
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('secret', 'sandbox')));
    expect(keys.size).toBe(200);
  });

  it('hashes with SHA-256 and shows only a recognisable fragment', () => {
    const key = 'sk_test_' + 'a'.repeat(40);
    expect(hashApiKey(key).toString('hex')).toBe(
      require('node:crypto').createHash('sha256').update(key).digest('hex'),
    );
    expect(displayKey(key)).toBe('sk_test_aaaa…aaaa');
  });

  it.each(['', 'Bearer x', 'sk_test_short', 'xx_test_' + 'a'.repeat(40), 'sk_test_' + 'a'.repeat(39) + '!'])(
    'does not take %p for a key',
    (v) => expect(looksLikeApiKey(v)).toBe(false),
  );
});

describe('passwords', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored.startsWith('scrypt$')).toBe(true);
    expect(stored).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(verifyPassword('wrong', stored)).resolves.toBe(false);
  });
});
