import { randomFillSync } from 'node:crypto';

/*
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, a 12-bit counter for ids made in the same
 * millisecond, then random bits. Rows written together get neighbouring keys, so a batch's
 * inserts go to the same few index pages (and WAL pages) instead of one random page each, as
 * UUIDv4 keys do. Still a UUID for every validator and for PostgreSQL; as unguessable as the
 * 62 random bits make it, which is plenty for ids that are not secrets.
 */

const pool = Buffer.alloc(16 * 256);
let offset = pool.length;
let lastMs = -1;
let counter = 0;

function random10(): Buffer {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += 10;
  return pool.subarray(offset - 10, offset);
}

export function timeOrderedId(now: number = Date.now()): string {
  let ms = now;
  if (ms <= lastMs) {
    // Same millisecond (or a clock that stepped back): count on from the last id.
    ms = lastMs;
    counter++;
    if (counter > 0xfff) {
      ms = ++lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    counter = 0;
  }
  const r = random10();
  const b = Buffer.alloc(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (r[0] & 0x3f);
  r.copy(b, 9, 1, 8);
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
