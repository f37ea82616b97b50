import { and, empty, join, prepared, raw, sql } from './sql';

describe('the sql tag', () => {
  it('numbers every value as a placeholder, in order', () => {
    const id = 'a';
    expect(sql`SELECT * FROM t WHERE id = ${id} AND n > ${3}`.compile()).toEqual({
      text: 'SELECT * FROM t WHERE id = $1 AND n > $2',
      values: ['a', 3],
    });
  });

  it('splices nested statements and renumbers their values', () => {
    const cte = sql`INSERT INTO events (kind) SELECT ${'created'} FROM source WHERE x = ${1}`;
    const statement = sql`WITH source AS (SELECT ${'id'} AS id), e AS (${cte}) SELECT ${true}`;
    expect(statement.compile()).toEqual({
      text: 'WITH source AS (SELECT $1 AS id), e AS (INSERT INTO events (kind) SELECT $2 FROM source WHERE x = $3) SELECT $4',
      values: ['id', 'created', 1, true],
    });
  });

  it('compiles a fragment the same way wherever it is used', () => {
    const fragment = sql`a = ${1}`;
    expect(sql`${fragment} OR ${fragment}`.compile()).toEqual({ text: 'a = $1 OR a = $2', values: [1, 1] });
  });

  it('puts raw text in as it is, with no value', () => {
    expect(sql`SELECT ${raw('p.*')} FROM payments p`.compile()).toEqual({
      text: 'SELECT p.* FROM payments p',
      values: [],
    });
  });

  it('joins fragments with a separator and ANDs conditions', () => {
    const set = join([sql`a = ${1}`, sql`b = ${2}`, sql`c = now()`]);
    expect(sql`UPDATE t SET ${set}`.compile()).toEqual({
      text: 'UPDATE t SET a = $1, b = $2, c = now()',
      values: [1, 2],
    });
    expect(and([sql`x = ${'x'}`, sql`y = ${'y'}`]).compile()).toEqual({
      text: 'x = $1 AND y = $2',
      values: ['x', 'y'],
    });
    expect(and([]).compile().text).toBe('true');
    expect(join([]).compile().text).toBe('');
    expect(sql`a${empty}b`.compile().text).toBe('ab');
  });

  it('passes arrays, nulls and dates as values, never as text', () => {
    const at = new Date(0);
    expect(sql`${[1, 2]} ${null} ${at}`.compile().values).toEqual([[1, 2], null, at]);
  });

  it('names a prepared statement by its text: the same text one name, another text another', () => {
    const a = (n: number) => prepared(sql`SELECT ${n}::int AS n`).query();
    expect(a(1)).toEqual({
      name: expect.stringMatching(/^khoums_/),
      text: 'SELECT $1::int AS n',
      values: [1],
    });
    expect(a(2).name).toBe(a(1).name);
    expect(prepared(sql`SELECT ${1}::int AS m`).query().name).not.toBe(a(1).name);
    expect(sql`SELECT ${1}::int AS n`.query()).toEqual({ text: 'SELECT $1::int AS n', values: [1] });
  });
});
