// Server-streaming RPCs with a google.api.http rule: the first answer's
// `body.head` sets status and headers, every later `body.chunk` is written as
// it arrives (Koa pipes with backpressure, so a slow client slows the
// service down instead of filling memory). The `Range` header goes to a
// request field named `range` when there is one, `If-None-Match` to one named
// `if_none_match` (the service then answers 304 itself, without reading the bytes).
import { create, type DescMethodStreaming, type DescMessage } from "@bufbuild/protobuf";
import { Readable } from "node:stream";
import type { Context } from "koa";
import { ConnectError, type Transport } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import type { RestRoute } from "../routes/route-table.js";
import { buildRequest, type QueryValues } from "../transcode/request-builder.js";
import { forwardHeaders } from "../http/forward-headers.js";
import { setStoredContentHeaders } from "../http/stored-content-headers.js";
import { responseAbortSignal } from "../http/response-abort-signal.js";
import { noneMatch } from "@signage/platform";

interface StreamedPart {
  kind: { case: "head"; value: { filename: string; contentType: string; size?: bigint; status: number; headers: Record<string, string> } } | { case: "chunk"; value: Uint8Array } | { case: undefined };
}

/**
 * RFC 6266 §4.1 with the name twice: `filename*` (RFC 8187/5987 ext-value, UTF-8) for clients that
 * read it, and an ASCII-only quoted `filename` for those that do not. `type` is the service's:
 * `inline` unless its head asks for `attachment` (a `content-disposition` header, see below).
 */
function contentDisposition(type: "inline" | "attachment", filename: string): string {
  // Quoted-string fallback: no non-ASCII, control characters, `"` or `\`; no `%XX` that some
  // clients would percent-decode (RFC 6266 Appendix D).
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_").replace(/%(?=[0-9A-Fa-f]{2})/g, "_");
  // attr-char (RFC 8187 §3.2.1) has no ' ( ) *, which encodeURIComponent leaves as they are.
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The disposition type a service asks for: its head's `content-disposition` header names it
 * (`attachment` for a package to save; anything else, or none, is `inline`); the file name
 * parameters are the gateway's, from `head.filename`.
 */
function dispositionType(headers: Record<string, string>): "inline" | "attachment" {
  const asked = headerOf(headers, "content-disposition")?.split(";")[0].trim().toLowerCase();
  return asked === "attachment" ? "attachment" : "inline";
}

/** RFC 9110 §13.1.5: If-Range holds when its entity-tag is strongly equal to the current one (a date never, no Last-Modified is given). */
function ifRangeHolds(header: string, etag: string | undefined): boolean {
  const tag = header.trim();
  return etag !== undefined && !tag.startsWith("W/") && !etag.startsWith("W/") && tag === etag;
}

/** `head.headers` names are the service's; HTTP names are case-insensitive. */
function headerOf(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

type Head = Extract<StreamedPart["kind"], { case: "head" }>["value"];

/**
 * Request fields of a download RPC that the gateway fills from the HTTP request's headers, never
 * from the query (the OpenAPI document lists them as headers).
 */
export const HEADER_FIELDS: Readonly<Record<string, string>> = { range: "Range", if_none_match: "If-None-Match" };

function headerField(method: DescMethodStreaming<DescMessage, DescMessage>, name: keyof typeof HEADER_FIELDS) {
  return method.input.fields.find((f) => f.name === name && f.fieldKind === "scalar");
}

export function downloadHandler(route: RestRoute, transport: Transport) {
  const method = route.method as DescMethodStreaming<DescMessage, DescMessage>;
  const rangeField = headerField(method, "range");
  const ifNoneMatchField = headerField(method, "if_none_match");
  const open = async (ctx: Context, range: string | undefined): Promise<{ head: Head; answers: AsyncIterator<unknown> }> => {
    const request = buildRequest(route, { params: ctx.params as Record<string, string>, query: ctx.query as QueryValues, body: undefined }) as Record<string, unknown>;
    // Only from the headers: a query parameter of the same name is not the client's Range or condition.
    if (rangeField) request[rangeField.localName] = range;
    if (ifNoneMatchField) request[ifNoneMatchField.localName] = ctx.get("if-none-match") || undefined;
    let response;
    try {
      response = await transport.stream(method, responseAbortSignal(ctx), undefined, forwardHeaders(ctx), single(create(method.input, request as never)));
    } catch (err) {
      throw withUnsatisfiedRange(ctx, err);
    }
    const answers = response.message[Symbol.asyncIterator]();
    let first;
    try {
      first = await answers.next();
    } catch (err) {
      throw withUnsatisfiedRange(ctx, err);
    }
    const head = (first.value as { body?: StreamedPart } | undefined)?.body?.kind;
    if (first.done || head?.case !== "head") {
      await answers.return?.();
      throw new Error(`${method.name}: a download stream must start with body.head`);
    }
    return { head: head.value, answers };
  };
  /**
   * RFC 9110 §13.1.5: a Range whose If-Range validator does not match the current representation
   * MUST be ignored: the whole body, 200. That includes a range past the end: 416 is range
   * processing (§13.2.2 step 5), so it applies only when If-Range holds.
   */
  const openHonouringIfRange = async (ctx: Context, range: string | undefined): Promise<Awaited<ReturnType<typeof open>>> => {
    const ifRange = range ? ctx.get("if-range") : "";
    if (!ifRange) return open(ctx, range);
    let opened: Awaited<ReturnType<typeof open>>;
    try {
      opened = await open(ctx, range);
    } catch (err) {
      if (!isUnsatisfiedRange(err)) throw err;
      // The current validator comes with the whole representation's head.
      const unsatisfied = ctx.response.get("Content-Range");
      ctx.remove("Content-Range");
      const whole = await open(ctx, undefined);
      if (!ifRangeHolds(ifRange, headerOf(whole.head.headers, "etag"))) return whole;
      await whole.answers.return?.();
      if (unsatisfied) ctx.set("Content-Range", unsatisfied);
      throw err;
    }
    if (opened.head.status !== 206 || ifRangeHolds(ifRange, headerOf(opened.head.headers, "etag"))) return opened;
    await opened.answers.return?.();
    return open(ctx, undefined);
  };
  return async (ctx: Context): Promise<void> => {
    // RFC 9110 §14.2: GET is the only method with range handling; a server MUST ignore Range on any other (HEAD answers as a GET would without it).
    const range = ctx.method === "GET" ? ctx.get("range") || undefined : undefined;
    const { head, answers } = await openHonouringIfRange(ctx, range);
    setStoredContentHeaders(ctx, head.contentType);
    for (const [name, value] of Object.entries(head.headers)) ctx.set(name, value);
    if (head.filename) ctx.set("Content-Disposition", contentDisposition(dispositionType(head.headers), head.filename));
    // RFC 9110 §13.1.2 / §15.4.5: a GET or HEAD whose If-None-Match matches the current ETag answers 304 without a body.
    const etag = headerOf(head.headers, "etag");
    const ifNoneMatch = ctx.get("if-none-match");
    // The service answered the condition itself (304: nothing read), or the edge checks its tag;
    // `*` matches any current representation, one without an ETag too (a package download).
    const matched = ifNoneMatch !== "" && (etag ? noneMatch(ifNoneMatch, etag) : ifNoneMatch.split(",").some((tag) => tag.trim() === "*"));
    if (head.status === 304 || (matched && (head.status || 200) < 300)) {
      await answers.return?.();
      ctx.status = 304;
      for (const name of ["content-range", "content-disposition", "content-security-policy", "x-content-type-options"]) ctx.remove(name);
      return;
    }
    ctx.status = head.status || 200;
    ctx.type = head.contentType || "application/octet-stream";
    if (ctx.method === "HEAD") {
      // RFC 9110 §9.3.2: HEAD answers the status and header fields a GET would, Content-Type and Content-Length included (not 204).
      await answers.return?.();
      if (head.size !== undefined) ctx.length = Number(head.size);
      return;
    }
    const body = Readable.from(chunksOf(answers), { objectMode: false });
    // A client gone before Koa pipes the body (it left while the head was on its way) gets the
    // body destroyed unread: chunksOf never ran, so its `finally` cannot end the service's stream,
    // which would stay suspended after its head with the blob open (a file descriptor per such
    // request, never closed). Ending the answers here covers that; a second return is a no-op.
    body.once("close", () => void answers.return?.()?.catch(() => undefined));
    ctx.body = body;
    if (head.size !== undefined) ctx.length = Number(head.size);
  };
}

function isUnsatisfiedRange(err: unknown): boolean {
  return err instanceof ConnectError && err.findDetails(ErrorDetailSchema)[0]?.key === "storage.error.rangeNotSatisfiable";
}

/** RFC 9110 §15.5.17: a 416 names the current length in `Content-Range: bytes *\/<size>` (the service's `details.size`). */
function withUnsatisfiedRange(ctx: Context, err: unknown): unknown {
  if (err instanceof ConnectError) {
    const detail = err.findDetails(ErrorDetailSchema)[0];
    const size = Number((detail?.details as Record<string, unknown> | undefined)?.size);
    if (detail?.key === "storage.error.rangeNotSatisfiable" && Number.isSafeInteger(size) && size >= 0) ctx.set("Content-Range", `bytes */${size}`);
  }
  return err;
}

async function* single<T>(message: T): AsyncGenerator<T> {
  yield message;
}

async function* chunksOf(answers: AsyncIterator<unknown>): AsyncGenerator<Buffer> {
  try {
    for (let next = await answers.next(); !next.done; next = await answers.next()) {
      const kind = (next.value as { body?: StreamedPart }).body?.kind;
      if (kind?.case === "chunk") yield Buffer.from(kind.value.buffer, kind.value.byteOffset, kind.value.byteLength);
    }
  } finally {
    await answers.return?.();
  }
}
