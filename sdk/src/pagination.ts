import type { ListResponse } from './types';

/**
 * What a list method returns: awaited, one page (`{ data, pagination }`); iterated with
 * `for await`, every item of every page from the one asked for, fetching pages as it goes.
 */
export type ListPromise<T> = Promise<ListResponse<T>> & AsyncIterable<T>;

export function listPromise<T>(
  fetchPage: (page: number) => Promise<ListResponse<T>>,
  firstPage = 1,
): ListPromise<T> {
  const first = fetchPage(firstPage);
  async function* all(): AsyncGenerator<T> {
    let page = firstPage;
    let res = await first;
    for (;;) {
      yield* res.data;
      if (res.data.length === 0 || page >= res.pagination.totalPages) return;
      page += 1;
      res = await fetchPage(page);
    }
  }
  return Object.assign(first, { [Symbol.asyncIterator]: all });
}
