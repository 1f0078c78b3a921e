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
    /** The request parameter as the caller named it (search, quickFilter, or an endpoint's own, e.g. fileSearch). */
    readonly parameter: string = "search",
  ) {
    super("search.error.invalid", message, { parameter, position, expected: [...expected] });
  }
}

/** A field name that the resource does not know (or does not publish, for select). */
export class UnknownFieldError extends ListQueryError {
  constructor(
    /** As the caller named it (an endpoint may call its search `fileSearch`). */
    readonly parameter: string,
    readonly field: string,
    readonly knownFields: readonly string[],
    readonly position?: number,
    /** Which key family: the parameter's kind, whatever the endpoint calls it. */
    family: "search" | "sort" | "select" = parameter === "sort" || parameter === "select" ? parameter : "search",
  ) {
    const where = position === undefined ? `in ${parameter}` : `in ${parameter} at position ${position}`;
    super(
      `${family}.error.unknownField`,
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
    readonly parameter: string,
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
  constructor(message: string, readonly select: string, readonly position?: number, readonly parameter: string = "select") {
    super("select.error.invalid", message, { parameter, select, ...(position === undefined ? {} : { position }) });
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
