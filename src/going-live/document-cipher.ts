import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigError } from '../config/config';

/** Sealed bytes: the id of the key that sealed them, and nonce (12) + tag (16) + ciphertext. */
export interface Sealed {
  keyId: string;
  sealed: Buffer;
}

const KEY_FILE = 'documents.key';

function parseKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new ConfigError('A documents encryption key must be 32 bytes');
  return key;
}

/** A key's id, stored with each ciphertext: a digest of the key, never the key. */
export const keyIdOf = (key: Buffer): string =>
  createHash('sha256').update('khoums-documents-key').update(key).digest('hex').slice(0, 16);

/**
 * AES-256-GCM for the go-live documents and ID numbers (docs/going-live.md). The key comes from
 * the environment (never the database); each ciphertext names its key, so a rotation keeps the
 * previous key for decryption only.
 */
export class DocumentCipher {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentId = keyIdOf(current);
    this.keys.set(this.currentId, current);
    for (const key of previous) this.keys.set(keyIdOf(key), key);
  }

  /**
   * DOCUMENTS_ENCRYPTION_KEY (and _PREVIOUS); unset with the embedded database, a key generated
   * once under DATA_DIR and reused; unset with DATABASE_URL, a ConfigError (there is no safe place
   * to make one up: another instance would make another).
   */
  static fromConfig(config: AppConfig): DocumentCipher {
    const previous = config.DOCUMENTS_ENCRYPTION_KEY_PREVIOUS
      ? [parseKey(config.DOCUMENTS_ENCRYPTION_KEY_PREVIOUS)]
      : [];
    if (config.DOCUMENTS_ENCRYPTION_KEY)
      return new DocumentCipher(parseKey(config.DOCUMENTS_ENCRYPTION_KEY), previous);
    if (config.DATABASE_URL) {
      throw new ConfigError(
        'DOCUMENTS_ENCRYPTION_KEY is required with DATABASE_URL: 32 bytes as 64 hex digits or base64 ' +
          '(e.g. `openssl rand -base64 32`), the same on every instance, kept outside the database.',
      );
    }
    const file = join(config.DATA_DIR, KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(config.DATA_DIR, { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    }
    return new DocumentCipher(parseKey(readFileSync(file, 'utf8').trim()), previous);
  }

  seal(plain: Buffer): Sealed {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, nonce);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { keyId: this.currentId, sealed: Buffer.concat([nonce, cipher.getAuthTag(), body]) };
  }

  /** Throws when the key is unknown or the bytes were changed. */
  open({ keyId, sealed }: Sealed): Buffer {
    const key = this.keys.get(keyId);
    if (!key)
      throw new Error(`No documents encryption key with id ${keyId} (set DOCUMENTS_ENCRYPTION_KEY_PREVIOUS)`);
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
  }

  /** Whether `keyId` is the current key (a re-encryption skips what already is). */
  isCurrent(keyId: string): boolean {
    return keyId === this.currentId;
  }
}
