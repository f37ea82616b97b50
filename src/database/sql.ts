import { createHash } from 'node:crypto';

/**
 * A parameterised SQL statement written as a tagged template:
 *
 *   sql`SELECT * FROM payments WHERE id = ${id} AND environment_id = ${environmentId}`
 *
 * Every interpolated value becomes a numbered placeholder (`$1`, `$2`, ...), and an interpolated
 * statement is spliced in with its own values renumbered, so fragments compose (a CTE built by
 * another module, a list of conditions) without anyone counting placeholders by hand. Only
 * `raw()` puts text into the statement itself, for SQL written in the code (never input).
 */
export class Sql {
  /** @internal use the `sql` tag, `raw`, `join`, `empty` or `prepared` */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
    /** Run as a prepared statement (see `prepared`). */
    readonly prepare = false,
  ) {}

  /** The text with `$n` placeholders and its values, as `pg` takes them. */
  compile(): { text: string; values: unknown[] } {
    const values: unknown[] = [];
    const parts: string[] = [];
    this.write(parts, values);
    // Joined once, flat: a text built by `+=` is a rope that the prepared statements' name cache
    // would flatten again to hash and compare it (measured: a quarter of building pay's settlement).
    return { text: parts.join(''), values };
  }

  /** As `pg` runs it: with a name when prepared (one per text, so two texts never share one). */
  query(): { name?: string; text: string; values: unknown[] } {
    const compiled = this.compile();
    return this.prepare ? { name: preparedName(compiled.text), ...compiled } : compiled;
  }

  private write(parts: string[], values: unknown[]): void {
    parts.push(this.strings[0]);
    for (let i = 0; i < this.values.length; i++) {
      const value = this.values[i];
      if (value instanceof Sql) value.write(parts, values);
      else {
        values.push(value);
        parts.push(`$${values.length}`);
      }
      parts.push(this.strings[i + 1]);
    }
  }
}

declare const gives: unique symbol;

/*
 * What a fragment gives, for the SQL one module declares for another's statements
 * (`<module>.fragments.ts`, docs/architecture.md): the type says where it may stand and what it
 * yields, so a caller reads the columns off the signature instead of the fragment's text. Any `Sql`
 * is one (the marks are types only; the text is the one written), and each narrows nothing at run
 * time: the declaration is the point, checked by review and by the statements' tests.
 */

/** An expression (often a scalar subquery) of type `T`: after SELECT, in a WHERE, as a value. */
export type SqlValue<T> = Sql & { readonly [gives]?: { value: T } };

/**
 * Rows with the columns of `Row`: a relation after FROM or JOIN (a subquery, a table with its
 * alias), a SELECT inside IN (…), or a data-modifying CTE body with its RETURNING.
 */
export type SqlRows<Row> = Sql & { readonly [gives]?: { rows: Row } };

/** CTEs to add after WITH (`a AS (…), b AS (…)`), named `Names`, for the statement to read. */
export type SqlCtes<Names extends string> = Sql & { readonly [gives]?: { ctes: Names } };

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** SQL text written in the code (an identifier, a column list, a constant condition). Never input. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

export const empty = raw('');

/** Fragments separated by `separator` (default `, `). */
export function join(parts: readonly Sql[], separator: Sql = raw(', ')): Sql {
  const values: Sql[] = [];
  parts.forEach((part, i) => {
    if (i > 0) values.push(separator);
    values.push(part);
  });
  return new Sql(
    Array.from({ length: values.length + 1 }, () => ''),
    values,
  );
}

/** `a AND b AND ...`, or `true` when there is none. */
export function and(conditions: readonly Sql[]): Sql {
  return conditions.length === 0 ? raw('true') : join(conditions, raw(' AND '));
}

/**
 * SQL text giving the ISO 8601 UTC string of a timestamptz expression, with milliseconds, as
 * JavaScript's toISOString() writes it (null stays null): for JSON built by the database, e.g. an
 * event recorded by the statement that makes the change.
 */
export function isoUtc(expression: string): Sql {
  return raw(`to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}

/** A column type `rowsFrom` sends as an array; `jsonb` is sent as one JSON array of the values. */
export type ColumnType = 'uuid' | 'text' | 'integer' | 'boolean' | 'timestamptz' | 'jsonb';

/**
 * Many rows sent as one array parameter per column, as SQL after FROM: `(…) alias` with the
 * columns of `columns`, in its order, one row per element of `rows` (null and undefined are NULL).
 * For set-based writes of many rows (a billing batch's invoices and events). PostgreSQL reads a
 * uuid or timestamptz array far faster than the same rows as one JSON document, which
 * `jsonb_to_recordset` parses whole into jsonb and then takes apart field by field; a `jsonb`
 * column comes as a JSON array split by `json_array_elements`, so each value is parsed into jsonb
 * once (docs/billing.md, "Performance").
 */
export function rowsFrom<T extends object>(
  alias: string,
  rows: readonly T[],
  columns: { [K in keyof T]?: ColumnType },
): Sql {
  const names = Object.keys(columns) as (keyof T & string)[];
  const functions = names.map((name) => {
    const type = columns[name]!;
    const values = rows.map((r) => r[name] ?? null);
    return type === 'jsonb'
      ? sql`json_array_elements(${JSON.stringify(values)}::json)`
      : sql`unnest(${values}::${raw(type)}[])`;
  });
  const select = names.map((name) =>
    raw(columns[name] === 'jsonb' ? `x.${name}::jsonb AS ${name}` : `x.${name}`),
  );
  return sql`(SELECT ${join(select)} FROM ROWS FROM (${join(functions)}) AS x(${raw(names.join(', '))})) ${raw(alias)}`;
}

/**
 * The same statement, run as a named prepared statement: each connection parses and plans it once,
 * then only binds values. For hot statements of constant text whose parse and plan cost more than
 * their execution; their result columns must be named (no `*`), so that a column a migration adds
 * does not change the result of a statement already prepared.
 */
export function prepared(statement: Sql): Sql {
  return new Sql(statement.strings, statement.values, true);
}

const names = new Map<string, string>();
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `khoums_${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return name;
}
