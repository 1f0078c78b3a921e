// The service side of stream.proto's upload convention: the first message
// (path and query fields), then body parts, each a head followed by its
// chunks. Parts are handed out one at a time as Readables that pull from the
// RPC stream, so bytes flow with backpressure and nothing is buffered.
import { Readable } from "node:stream";
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import type { BodyHead, StreamedBodyPart } from "@signage/contracts/signage/common/v1/stream_pb";

export interface StreamedPart {
  head: BodyHead;
  /** The part's bytes (empty for plain form fields). Read it fully, or call nextPart() to skip the rest. */
  body: Readable;
}

type WithBody = { body?: StreamedBodyPart };

export class StreamedRequest<M extends WithBody> {
  private lookahead: M | undefined;
  private current: Readable | undefined;

  private constructor(
    readonly first: M,
    private readonly messages: AsyncIterator<M>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** `signal`: the call's; a stream that ends because the client went away is an error, not a short body. */
  static async open<M extends WithBody>(requests: AsyncIterable<M>, signal?: AbortSignal): Promise<StreamedRequest<M>> {
    const messages = requests[Symbol.asyncIterator]();
    const first = await messages.next();
    if (first.done) throw serviceError(Code.InvalidArgument, "upload.error.emptyRequest", "The upload carried no request");
    return new StreamedRequest(first.value, messages, signal);
  }

  private async read(): Promise<M | undefined> {
    if (this.lookahead) {
      const m = this.lookahead;
      this.lookahead = undefined;
      return m;
    }
    const next = await this.messages.next();
    if (next.done && this.signal?.aborted) throw serviceError(Code.Canceled, "upload.error.aborted", "The client cancelled the upload");
    return next.done ? undefined : next.value;
  }

  /** The next part, or undefined at the end of the body. */
  async nextPart(): Promise<StreamedPart | undefined> {
    if (this.current) {
      // Skip what the caller left unread of the previous part.
      for await (const _ of this.current) void _;
      this.current = undefined;
    }
    for (let m = await this.read(); m; m = await this.read()) {
      const kind = m.body?.kind;
      if (kind?.case !== "head") continue; // a stray chunk without a head carries nothing usable
      const head = kind.value;
      this.current = Readable.from(this.chunks(), { objectMode: false, highWaterMark: 1 });
      return { head, body: this.current };
    }
    return undefined;
  }

  private async *chunks(): AsyncGenerator<Buffer> {
    for (let m = await this.read(); m; m = await this.read()) {
      const kind = m.body?.kind;
      if (kind?.case === "head") {
        this.lookahead = m;
        return;
      }
      if (kind?.case === "chunk") yield Buffer.from(kind.value.buffer, kind.value.byteOffset, kind.value.byteLength);
    }
  }
}
