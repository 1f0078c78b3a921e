import { InvalidPagingError } from "../errors.js";

export interface PagingOptions {
  /** Page size when the request has none ("size (int, default 20)"). */
  readonly defaultSize?: number;
  /** Per-endpoint cap on size ("the endpoint may impose a lower cap"). */
  readonly maxSize?: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * `page` (zero-based, default 0) and `size` (default 20). A size above the endpoint's cap
 * is lowered to it ("the endpoint may impose a lower cap"; the Page's `size` tells the
 * client), as Spring-style paging does; only a size below 1 or not a number is refused.
 */
export function resolvePaging(page: unknown, size: unknown, options: PagingOptions = {}): { page: number; size: number } {
  const maxSize = options.maxSize ?? DEFAULT_MAX_PAGE_SIZE;
  const defaultSize = Math.min(options.defaultSize ?? DEFAULT_PAGE_SIZE, maxSize);
  const pageNumber = page === undefined || page === null || page === "" ? 0 : integerParameter("page", page);
  if (pageNumber < 0) throw new InvalidPagingError(`Invalid page ${pageNumber}: pages are numbered from 0`, "page", page);
  const pageSize = size === undefined || size === null || size === "" ? defaultSize : integerParameter("size", size);
  if (pageSize < 1) throw new InvalidPagingError(`Invalid size ${pageSize}: a page holds at least 1 element`, "size", size);
  const cappedSize = Math.min(pageSize, maxSize);
  if (!Number.isSafeInteger(pageNumber * cappedSize)) {
    throw new InvalidPagingError(`Invalid page ${pageNumber}: it lies beyond any possible result`, "page", page);
  }
  return { page: pageNumber, size: cappedSize };
}

function integerParameter(name: "page" | "size", value: unknown): number {
  const number = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number)) {
    throw new InvalidPagingError(`Invalid ${name} '${String(value)}': expected a whole number`, name, value);
  }
  return number;
}
