import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { DocumentCipher, keyIdOf } from './document-cipher';

describe('DocumentCipher', () => {
  const key = randomBytes(32);

  it('seals with AES-256-GCM under the current key and opens what it sealed', () => {
    const cipher = new DocumentCipher(key);
    const plain = Buffer.from('%PDF-1.7 RCCM extract');
    const sealed = cipher.seal(plain);
    expect(sealed.keyId).toBe(keyIdOf(key));
    expect(sealed.sealed.includes(plain)).toBe(false);
    expect(sealed.sealed.length).toBe(plain.length + 28);
    expect(cipher.open(sealed)).toEqual(plain);
  });

  it('refuses bytes that were changed', () => {
    const cipher = new DocumentCipher(key);
    const sealed = cipher.seal(Buffer.from('1234567890'));
    sealed.sealed[sealed.sealed.length - 1] ^= 1;
    expect(() => cipher.open(sealed)).toThrow();
  });

  it('after a rotation, opens what the previous key sealed and seals under the new one', () => {
    const old = new DocumentCipher(key);
    const sealedBefore = old.seal(Buffer.from('ID 1234'));
    const rotated = new DocumentCipher(randomBytes(32), [key]);
    expect(rotated.open(sealedBefore).toString()).toBe('ID 1234');
    expect(rotated.isCurrent(sealedBefore.keyId)).toBe(false);
    expect(rotated.isCurrent(rotated.seal(Buffer.from('x')).keyId)).toBe(true);
    expect(() => new DocumentCipher(randomBytes(32)).open(sealedBefore)).toThrow(
      /No documents encryption key/,
    );
  });

  it('reads the key from DOCUMENTS_ENCRYPTION_KEY, in hex or base64', () => {
    for (const text of [key.toString('hex'), key.toString('base64')]) {
      const cipher = DocumentCipher.fromConfig(loadConfig({ DOCUMENTS_ENCRYPTION_KEY: text }));
      expect(cipher.seal(Buffer.from('x')).keyId).toBe(keyIdOf(key));
    }
    expect(() => loadConfig({ DOCUMENTS_ENCRYPTION_KEY: 'short' })).toThrow(
      /DOCUMENTS_ENCRYPTION_KEY must be 32 bytes/,
    );
  });

  it('with the embedded database and no key, generates one under DATA_DIR once and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'khoums-key-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = DocumentCipher.fromConfig(config).seal(Buffer.from('x'));
    const again = DocumentCipher.fromConfig(config);
    expect(again.open(first).toString()).toBe('x');
    expect(statSync(join(dir, 'documents.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'documents.key'), 'utf8').trim()).toHaveLength(44);
  });

  it('with DATABASE_URL and no key, refuses to start with a clear message', () => {
    expect(() => DocumentCipher.fromConfig(loadConfig({ DATABASE_URL: 'postgres://db/khoums' }))).toThrow(
      /DOCUMENTS_ENCRYPTION_KEY is required with DATABASE_URL/,
    );
  });
});
