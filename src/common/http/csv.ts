import { applyDecorators, createParamDecorator, ExecutionContext, StreamableFile } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';

/**
 * Lists as CSV (docs/api.md "Lists as CSV"): a list route asked for `Accept: text/csv` answers
 * every row its filters select, streamed batch by batch (constant memory), with a header line;
 * times in UTC as `YYYY-MM-DD HH:MM:SS` and amounts as plain numbers, which spreadsheets read.
 */

/** One column: its header and how a row shows in it. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | Date | null | undefined;
}

/** True when the request asks for CSV (`Accept: text/csv`, alone or preferred among others). */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept
    .split(',')
    .map((part) => part.split(';')[0].trim().toLowerCase())
    .some((type) => type === 'text/csv');
}

/** `@WantsCsv()`: whether the request asked for CSV. */
export const WantsCsv = createParamDecorator((_: unknown, ctx: ExecutionContext): boolean =>
  acceptsCsv(ctx.switchToHttp().getRequest<FastifyRequest>().headers.accept),
);

/** Declares the route's `text/csv` answer beside its JSON one in the OpenAPI document. */
export const ApiCsv = () => applyDecorators(ApiProduces('application/json', 'text/csv'));

function csvTime(value: Date): string {
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

/** One field, quoted when it must be; a text a spreadsheet would run as a formula is prefixed with `'`. */
export function csvField(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return csvTime(value);
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine<T>(columns: readonly CsvColumn<T>[], row: T): string {
  return `${columns.map((c) => csvField(c.value(row))).join(',')}\r\n`;
}

/**
 * The CSV answer of a list: the header line, then each batch's lines as the batch arrives. A batch
 * is read only when the client has taken the previous one (the stream's back-pressure).
 */
export function csvFile<T>(
  name: string,
  columns: readonly CsvColumn<T>[],
  batches: AsyncIterable<T[]>,
): StreamableFile {
  async function* lines(): AsyncGenerator<string> {
    yield `${columns.map((c) => csvField(c.header)).join(',')}\r\n`;
    for await (const batch of batches) yield batch.map((row) => csvLine(columns, row)).join('');
  }
  // Each batch is read in the request's context (where its statements go: the read replica of a
  // CSV export), not in that of whatever event asks the stream for more (the socket draining).
  const inRequestContext = AsyncLocalStorage.snapshot();
  const generator = lines();
  const file: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => inRequestContext(() => generator.next()),
      return: () => inRequestContext(() => generator.return(undefined)),
    }),
  };
  return new StreamableFile(Readable.from(file), {
    type: 'text/csv; charset=utf-8',
    disposition: `attachment; filename="${name}.csv"`,
  });
}

/** An ISO 8601 time of a record's JSON as a CSV time (null stays empty). */
export function csvTimeOf(iso: string | null | undefined): Date | null {
  return iso ? new Date(iso) : null;
}

/** Each batch of `batches`, mapped row by row. */
export async function* mapBatches<T, U>(
  batches: AsyncIterable<T[]>,
  map: (row: T) => U,
): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}
