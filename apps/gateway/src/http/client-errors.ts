// Requests Node's HTTP parser refuses before any middleware runs (headers over its 16 KiB limit,
// bytes that are not HTTP, a request that took too long) are answered with the error body every
// other failure gets, not Node's bare status line: a client with a long `search` sees what to fix.
import { maxHeaderSize, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { errorBodyFor, HttpError } from "./error-body.js";

type ParserError = Error & { code?: string };

function answerFor(err: ParserError) {
  return errorBodyFor(refusalOf(err)).body;
}

function refusalOf(err: ParserError): HttpError {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return new HttpError(431, "request.error.headersTooLarge", `The request line and headers exceed ${maxHeaderSize} bytes; send long filters (search) in fewer or shorter terms`, { maxBytes: maxHeaderSize });
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new HttpError(408, "request.error.timeout", "The request did not arrive in time");
    default:
      return new HttpError(400, "request.error.malformed", "The request is not valid HTTP/1.1");
  }
}

export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: ParserError, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
    // A connection the client reset, or one already answering a request, gets nothing more.
    if (err.code === "ECONNRESET" || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const error = answerFor(err);
    const answer = JSON.stringify(error);
    socket.end(`HTTP/1.1 ${error.status} ${error.error}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(answer)}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${answer}`);
  });
}
