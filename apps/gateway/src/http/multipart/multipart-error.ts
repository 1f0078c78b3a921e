import { HttpError } from "../error-body.js";

/** A request body that is not well-formed multipart/form-data. */
export class MultipartError extends Error {
  override readonly name = "MultipartError";
}

/** How the edge answers one: 400 request.error.invalidMultipart. */
export function invalidMultipart(message: string): HttpError {
  return new HttpError(400, "request.error.invalidMultipart", `Malformed multipart request: ${message}`);
}
