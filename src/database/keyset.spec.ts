import { CommonError } from '../common/errors/common-errors';
import { Messages } from '../common/errors/messages';
import { decodeCursor, encodeCursor, keysetClauses, keysetPage } from './keyset';

const ID = '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001';
const AT = '2025-11-23T10:00:00.123456Z';
const cursor = encodeCursor(`${AT},${ID}`);
const row = (n: number) => ({
  n,
  cursor: `2025-11-23T10:00:${String(60 - n).padStart(2, '0')}.000000Z,${ID}`,
});

describe('keyset pagination', () => {
  it('round-trips a cursor to the microsecond', () => {
    expect(decodeCursor(cursor)).toEqual({ at: AT, id: ID });
  });

  it.each([
    undefined,
    '',
    'not base64 at all!',
    encodeCursor('2025-11-23,abc'),
    encodeCursor(`${AT},${ID},x`),
    encodeCursor(`2025-02-30T10:00:00.000000Z,${ID}`),
    encodeCursor(`2025-11-23T24:00:00.000000Z,${ID}`),
    encodeCursor(`0000-01-01T00:00:00.000000Z,${ID}`),
  ])('reads no position from a cursor it did not write, or one naming an impossible time: %p', (c) =>
    expect(decodeCursor(c)).toBeNull(),
  );

  it('refuses a page after or before a cursor it did not write with 400 Invalid cursor', () => {
    for (const q of [
      { after: 'forged' },
      { before: 'forged' },
      { after: encodeCursor(`2025-02-30T10:00:00.000000Z,${ID}`) },
    ]) {
      expect(() => keysetClauses('p', { ...q, limit: 2 })).toThrow(
        expect.objectContaining({
          code: CommonError.InvalidCursor,
          status: 400,
          message: Messages.invalidCursor,
        }),
      );
    }
  });

  it('reads the first page when no cursor, or an empty one, is given', () => {
    expect(keysetClauses('p', { after: '', limit: 2 }).where).toEqual([]);
    expect(keysetClauses('p', { limit: 2 }).where).toEqual([]);
  });

  it('reads the page after a cursor newest first, one row more than the page', () => {
    const { where, orderBy, limit } = keysetClauses('pr', { after: cursor, limit: 25 });
    expect(where.map((w) => w.compile())).toEqual([
      { text: '(pr.created_at, pr.id) < ($1::timestamptz, $2::uuid)', values: [AT, ID] },
    ]);
    expect(orderBy.compile().text).toBe('pr.created_at DESC, pr.id DESC');
    expect(limit).toBe(26);
  });

  it('reads the page before a cursor oldest first, then shows it newest first', () => {
    const { where, orderBy } = keysetClauses('p', { before: cursor, limit: 2 });
    expect(where[0].compile().text).toBe('(p.created_at, p.id) > ($1::timestamptz, $2::uuid)');
    expect(orderBy.compile().text).toBe('p.created_at ASC, p.id ASC');
    const page = keysetPage([row(3), row(2), row(1)], { before: cursor, limit: 2 });
    expect(page.items.map((r) => r.n)).toEqual([2, 3]);
    expect(page.previous).toBe(encodeCursor(row(2).cursor));
    expect(page.next).toBe(encodeCursor(row(3).cursor));
  });

  it('links the first page to the next only when a row more was found', () => {
    expect(keysetPage([row(1), row(2), row(3)], { limit: 2 })).toMatchObject({
      next: encodeCursor(row(2).cursor),
      previous: undefined,
    });
    expect(keysetPage([row(1), row(2)], { limit: 2 })).toMatchObject({
      next: undefined,
      previous: undefined,
    });
  });

  it('links a later page back to the one before it', () => {
    const page = keysetPage([row(1)], { after: cursor, limit: 2 });
    expect(page).toMatchObject({ next: undefined, previous: encodeCursor(row(1).cursor) });
  });
});
