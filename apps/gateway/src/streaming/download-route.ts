// Server-streaming RPCs with a google.api.http rule: the first answer's
// `body.head` sets status and headers, every later `body.chunk` is written as
// it arrives (Koa pipes with backpressure, so a slow client slows the
// service down instead of filling memory). The `Range` header goes to a
// request field named `range` when there is one.
import { create, type DescMethodStreaming, type DescMessage } from "@bufbuild/protobuf";
import { Readable } from "node:stream";
import type { Context } from "koa";
import type { Transport } from "@connectrpc/connect";
import type { RestRoute } from "../routes/route-table.js";
import { buildRequest, type QueryValues } from "../transcode/request-builder.js";
import { forwardHeaders } from "../http/forward-headers.js";
import { setStoredContentHeaders } from "../http/stored-content-headers.js";
import { responseAbortSignal } from "./call-signal.js";

interface StreamedPart {
  kind: { case: "head"; value: { filename: string; contentType: string; size?: bigint; status: number; headers: Record<string, string> } } | { case: "chunk"; value: Uint8Array } | { case: undefined };
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export function downloadHandler(route: RestRoute, transport: Transport) {
  const method = route.method as DescMethodStreaming<DescMessage, DescMessage>;
  const rangeField = method.input.fields.find((f) => f.name === "range" && f.fieldKind === "scalar");
  return async (ctx: Context): Promise<void> => {
    const request = buildRequest(route, { params: ctx.params as Record<string, string>, query: ctx.query as QueryValues, body: undefined }) as Record<string, unknown>;
    if (rangeField && ctx.get("range")) request[rangeField.localName] = ctx.get("range");
    const response = await transport.stream(method, responseAbortSignal(ctx), undefined, forwardHeaders(ctx), single(create(method.input, request as never)));
    const answers = response.message[Symbol.asyncIterator]();
    const first = await answers.next();
    const head = (first.value as { body?: StreamedPart } | undefined)?.body?.kind;
    if (first.done || head?.case !== "head") {
      await answers.return?.();
      throw new Error(`${method.name}: a download stream must start with body.head`);
    }
    ctx.status = head.value.status || 200;
    setStoredContentHeaders(ctx, head.value.contentType);
    for (const [name, value] of Object.entries(head.value.headers)) ctx.set(name, value);
    ctx.type = head.value.contentType || "application/octet-stream";
    if (head.value.filename) ctx.set("Content-Disposition", contentDisposition(head.value.filename));
    if (ctx.method === "HEAD") {
      if (head.value.size !== undefined) ctx.length = Number(head.value.size);
      await answers.return?.();
      ctx.body = null;
      return;
    }
    ctx.body = Readable.from(chunksOf(answers), { objectMode: false });
    if (head.value.size !== undefined) ctx.length = Number(head.value.size);
  };
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
