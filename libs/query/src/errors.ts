/**
 * One error family for every list parameter problem. Services map any ListQueryError to
 * gRPC InvalidArgument (HTTP 400) and pass `key`, `message` and `details` through unchanged.
 */
export type ListParameter = "search" | "quickFilter" | "sort" | "select" | "paging" | "selectTeamIds";

export class ListQueryError extends Error {
  readonly status = 400;
  constructor(
    readonly key: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The `search` (or quick filter) text is not valid filter language. */
export class FilterParseError extends ListQueryError {
  constructor(
    message: string,
    readonly position: number,
    readonly expected: readonly string[],
    readonly parameter: "search" | "quickFilter" = "search",
  ) {
    super("search.error.invalid", message, { parameter, position, expected: [...expected] });
  }
}

/** A field name that the resource does not know (or does not publish, for select). */
export class UnknownFieldError extends ListQueryError {
  constructor(
    readonly parameter: "search" | "quickFilter" | "sort" | "select",
    readonly field: string,
    readonly knownFields: readonly string[],
    readonly position?: number,
  ) {
    const where = position === undefined ? `in ${parameter}` : `in ${parameter} at position ${position}`;
    super(
      `${parameter === "quickFilter" ? "search" : parameter}.error.unknownField`,
      `Unknown field '${field}' ${where}; known fields: ${knownFields.join(", ")}`,
      { parameter, field, knownFields: [...knownFields], ...(position === undefined ? {} : { position }) },
    );
  }
}

/** A well-formed comparison that cannot apply: wrong operator for the type, bad value. */
export class InvalidFilterError extends ListQueryError {
  constructor(
    message: string,
    readonly field: string,
    readonly parameter: "search" | "quickFilter",
    readonly position?: number,
  ) {
    super("search.error.invalid", message, { parameter, field, ...(position === undefined ? {} : { position }) });
  }
}

export class InvalidSortError extends ListQueryError {
  constructor(message: string, readonly sort: string) {
    super("sort.error.invalid", message, { parameter: "sort", sort });
  }
}

export class InvalidSelectError extends ListQueryError {
  constructor(message: string, readonly select: string, readonly position?: number) {
    super("select.error.invalid", message, { parameter: "select", select, ...(position === undefined ? {} : { position }) });
  }
}

export class InvalidPagingError extends ListQueryError {
  constructor(message: string, readonly parameterName: "page" | "size", readonly value: unknown) {
    super("paging.error.invalid", message, { parameter: parameterName, value });
  }
}

/** selectTeamIds / includeResourcesWithoutTeam / includeReadOnlyInfo misuse. */
export class InvalidListParameterError extends ListQueryError {
  constructor(message: string, readonly parameterName: string, readonly value: unknown) {
    super(`${parameterName}.error.invalid`, message, { parameter: parameterName, value });
  }
}
