import { InvalidPagingError } from "../errors.js";

export interface PagingOptions {
  /** Page size when the request has none ("size (int, default 20)"). */
  readonly defaultSize?: number;
  /** Per-endpoint cap on size ("the endpoint may impose a lower cap"). */
  readonly maxSize?: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/** `page` (zero-based, default 0) and `size` (default 20, at most the endpoint's cap). */
export function resolvePaging(page: unknown, size: unknown, options: PagingOptions = {}): { page: number; size: number } {
  const maxSize = options.maxSize ?? DEFAULT_MAX_PAGE_SIZE;
  const defaultSize = Math.min(options.defaultSize ?? DEFAULT_PAGE_SIZE, maxSize);
  const pageNumber = page === undefined || page === null || page === "" ? 0 : integerParameter("page", page);
  if (pageNumber < 0) throw new InvalidPagingError(`Invalid page ${pageNumber}: pages are numbered from 0`, "page", page);
  const pageSize = size === undefined || size === null || size === "" ? defaultSize : integerParameter("size", size);
  if (pageSize < 1 || pageSize > maxSize) {
    throw new InvalidPagingError(`Invalid size ${pageSize}: this list returns between 1 and ${maxSize} elements per page`, "size", size);
  }
  if (!Number.isSafeInteger(pageNumber * pageSize)) {
    throw new InvalidPagingError(`Invalid page ${pageNumber}: it lies beyond any possible result`, "page", page);
  }
  return { page: pageNumber, size: pageSize };
}

function integerParameter(name: "page" | "size", value: unknown): number {
  const number = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isSafeInteger(number)) {
    throw new InvalidPagingError(`Invalid ${name} '${String(value)}': expected a whole number`, name, value);
  }
  return number;
}
