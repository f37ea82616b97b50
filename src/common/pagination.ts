import { QueryIntegerField } from './validation/fields';

export const MAX_LIMIT = 100;

/** `page` (default 1) and `limit` (default 20, at most 100) of every list endpoint. */
export class PaginationQuery {
  @QueryIntegerField(1, undefined, { description: 'Page number, from 1', example: 1 })
  page?: number;

  @QueryIntegerField(1, MAX_LIMIT, { description: 'Items per page, 1 to 100', example: 20 })
  limit?: number;
}

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

export function pageOf(q: PaginationQuery): Page {
  const page = q.page ?? 1;
  const limit = q.limit ?? 20;
  return { page, limit, offset: (page - 1) * limit };
}

export interface ListEnvelope<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export function envelope<T>(data: T[], total: number, p: Page): ListEnvelope<T> {
  return {
    data,
    pagination: { page: p.page, limit: p.limit, total, totalPages: Math.ceil(total / p.limit) },
  };
}
