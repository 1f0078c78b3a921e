/** Malformed REST input (query, path or body): always a 400 naming where it is. */
export class RestInputError extends Error {
  constructor(readonly where: string, problem: string) {
    super(`${where} ${problem}`);
    this.name = "RestInputError";
  }
}
