/** Malformed REST input (query, path or body): always a 400 naming where it is. */
export class RestInputError extends Error {
  constructor(readonly where: string, problem: string) {
    super(`${where} ${problem}`);
    this.name = "RestInputError";
  }
}

/**
 * A query parameter the operation does not take, on a write: 400 `request.error.unknownParameter`
 * naming it and the parameters the operation takes. A misspelt `removeOldFile` or `search` would
 * otherwise be dropped and the write done as if it had not been sent.
 */
export class UnknownParameterError extends RestInputError {
  constructor(readonly parameter: string, readonly accepted: readonly string[]) {
    super(`Query parameter '${parameter}'`, `is not a parameter of this operation${accepted.length ? `; it takes: ${accepted.join(", ")}` : "; it takes none"}`);
    this.name = "UnknownParameterError";
  }
}
