// The head of a blob download as media's BlobAccessService answers it, for the gateway tests'
// small in-test services: a `range` ("bytes=a-b", open-ended "bytes=a-") gives 206 with
// Content-Range, none gives 200. `headers` are the service's own extras (ETag, disposition ...).

export interface RangedHead {
  /** The bytes to send, inclusive. */
  start: number;
  end: number;
  head: { body: { kind: { case: "head"; value: { status: number; contentType: string; filename: string; size: bigint; headers: Record<string, string> } } } };
}

export function rangedHead(blob: Buffer, range: string | undefined, value: { contentType: string; filename: string; headers?: Record<string, string> }): RangedHead {
  const m = /^bytes=(\d+)-(\d*)$/.exec(range ?? "");
  const start = m ? Number(m[1]) : 0;
  const end = m && m[2] ? Math.min(Number(m[2]), blob.length - 1) : blob.length - 1;
  const headers = { "accept-ranges": "bytes", ...(m ? { "content-range": `bytes ${start}-${end}/${blob.length}` } : {}), ...value.headers };
  return { start, end, head: { body: { kind: { case: "head", value: { status: m ? 206 : 200, contentType: value.contentType, filename: value.filename, size: BigInt(end - start + 1), headers } } } } };
}

/** The first byte `range` asks for (0 without one): a service answers 416 when it is past the blob. */
export function rangeStart(range: string | undefined): number {
  const m = /^bytes=(\d+)-/.exec(range ?? "");
  return m ? Number(m[1]) : 0;
}
