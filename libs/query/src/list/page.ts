import type { Row } from "./project-row.js";

/** The documented Page object, minus `content`. */
export interface PageInfo {
  readonly number: number;
  readonly size: number;
  readonly numberOfElements: number;
  readonly totalElements: number;
  readonly totalPages: number;
  readonly first: boolean;
  readonly last: boolean;
}

export interface ListResult<T extends Row = Row> {
  readonly content: T[];
  readonly page: PageInfo;
}

export function pageInfo(page: number, size: number, numberOfElements: number, totalElements: number): PageInfo {
  const totalPages = Math.ceil(totalElements / size);
  return {
    number: page,
    size,
    numberOfElements,
    totalElements,
    totalPages,
    first: page === 0,
    last: page >= totalPages - 1,
  };
}

/**
 * The total when the page itself proves it: a short, non-empty page (or an empty first page)
 * is the end of the result, so no COUNT query is needed.
 */
export function totalFromPage(page: number, size: number, numberOfElements: number): number | null {
  if (numberOfElements < size && (numberOfElements > 0 || page === 0)) return page * size + numberOfElements;
  return null;
}

/** The flat Page JSON of the interface: first, last, number, numberOfElements, ..., content. */
export function toPageResponse<T extends Row>(result: ListResult<T>): PageInfo & { readonly content: T[] } {
  return { ...result.page, content: result.content };
}
