// HTTP semantics of the streamed-download edge (download-route.ts) over the in-memory
// transport, against a small BlobAccessService that answers like media's: a strong
// ETag in the head, Range as a `range` field, 416 as storage.error.rangeNotSatisfiable
// with details.size. Rules: RFC 9110 §9.3.2 (HEAD), §14.2 (Range only for GET),
// §15.5.17 (416 Content-Range), §13.1.2 (If-None-Match), §13.1.5 (If-Range).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { BlobAccessService } from "@signage/contracts/signage/media/v1/upload_pb";
import { CustomAppService } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { rangedHead, rangeStart } from "./support/ranged-blob.js";
import { listenGateway } from "./support/listen-gateway.js";

const BLOB = Buffer.from("0123456789abcdefghij");
const ETAG = '"v1"';
const seen: { ranges: Array<string | undefined>; closed: number } = { ranges: [], closed: 0 };

const transport = createRouterTransport((router) => {
  router.service(BlobAccessService, {
    async putPresignedPart() {
      throw new ConnectError("unused", Code.Unimplemented);
    },
    async *getPresignedBlob(req) {
      seen.ranges.push(req.range);
      if (rangeStart(req.range) >= BLOB.length) {
        throw new ConnectError(`Range not satisfiable (size ${BLOB.length})`, Code.OutOfRange, undefined, [
          { desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { key: "storage.error.rangeNotSatisfiable", details: { size: BLOB.length } }) },
        ]);
      }
      const { start, end, head } = rangedHead(BLOB, req.range, { contentType: "image/png", filename: "", headers: { etag: ETAG } });
      try {
        yield head;
        yield { body: { kind: { case: "chunk", value: BLOB.subarray(start, end + 1) } } };
      } finally {
        seen.closed++;
      }
    },
  });
});

let base = "";
let closeAll: () => Promise<void>;
const url = () => `${base}/storage/v1/blobs/b1?expires=1&signature=s`;

beforeAll(async () => {
  ({ base, close: closeAll } = await listenGateway(transport));
});
afterAll(() => closeAll());

describe("download edge: HEAD, ranges and conditional requests", () => {
  it("RFC 9110 §9.3.2: HEAD answers 200 with the Content-Type and Content-Length a GET would (not 204), and no body", async () => {
    const res = await fetch(url(), { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(BLOB.length));
    expect(res.headers.get("etag")).toBe(ETAG);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("RFC 9110 §14.2: Range is ignored on HEAD (only GET has range handling): 200 with the full length", async () => {
    seen.ranges.length = 0;
    const res = await fetch(url(), { method: "HEAD", headers: { range: "bytes=0-3" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(BLOB.length));
    expect(res.headers.get("content-range")).toBeNull();
    expect(seen.ranges).toEqual([undefined]);
  });

  it("RFC 9110 §15.5.17: an unsatisfiable range answers 416 with `Content-Range: bytes */<length>` and the error body", async () => {
    const res = await fetch(url(), { headers: { range: "bytes=500-600" } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${BLOB.length}`);
    expect(await res.json()).toMatchObject({ status: 416, key: "storage.error.rangeNotSatisfiable", details: { size: BLOB.length } });
  });

  it("RFC 9110 §13.1.2: If-None-Match with the current ETag (weak comparison, lists, *) answers 304 without a body; another tag 200", async () => {
    for (const inm of [ETAG, `W/${ETAG}`, `"other", ${ETAG}`, "*"]) {
      const res = await fetch(url(), { headers: { "if-none-match": inm } });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get("etag")).toBe(ETAG);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
    const head = await fetch(url(), { method: "HEAD", headers: { "if-none-match": ETAG } });
    expect(head.status).toBe(304);
    const other = await fetch(url(), { headers: { "if-none-match": '"other"' } });
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).equals(BLOB)).toBe(true);
  });

  it("RFC 9110 §13.1.5: If-Range with the current strong ETag serves the range; with another validator (or a date) the whole body, 200", async () => {
    const hit = await fetch(url(), { headers: { range: "bytes=2-5", "if-range": ETAG } });
    expect(hit.status).toBe(206);
    expect(Buffer.from(await hit.arrayBuffer()).toString()).toBe("2345");
    for (const ifRange of ['"stale"', `W/${ETAG}`, "Wed, 21 Oct 2015 07:28:00 GMT"]) {
      const miss = await fetch(url(), { headers: { range: "bytes=2-5", "if-range": ifRange } });
      expect(miss.status, ifRange).toBe(200);
      expect(miss.headers.get("content-range")).toBeNull();
      expect(Buffer.from(await miss.arrayBuffer()).equals(BLOB)).toBe(true);
    }
  });
});

// If-Range before range processing: RFC 9110 §13.1.5 "If the validator does not match, then the
// server MUST ignore the Range header field", and §13.2.2 evaluates If-Range (step 5) before any
// range processing, so a range past the end answers 416 only when If-Range holds.
describe("download edge: If-Range before range processing", () => {
  it("RFC 9110 §13.1.5 'If the validator does not match ... MUST ignore the Range header field': a stale If-Range with a range past the end answers the whole body, 200, not 416", async () => {
    for (const ifRange of ['"stale"', `W/${ETAG}`, "Wed, 21 Oct 2015 07:28:00 GMT"]) {
      const res = await fetch(url(), { headers: { range: "bytes=500-", "if-range": ifRange } });
      expect(res.status, ifRange).toBe(200);
      expect(res.headers.get("content-range"), ifRange).toBeNull();
      expect(res.headers.get("etag")).toBe(ETAG);
      expect(Buffer.from(await res.arrayBuffer()).equals(BLOB), ifRange).toBe(true);
    }
  });

  it("with the current validator If-Range holds: the range past the end is still 416 with `Content-Range: bytes */<length>`", async () => {
    const res = await fetch(url(), { headers: { range: "bytes=500-", "if-range": ETAG } });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${BLOB.length}`);
    expect(await res.json()).toMatchObject({ key: "storage.error.rangeNotSatisfiable", details: { size: BLOB.length } });
  });
});

// RFC 9110 §13.1.2: "If the field value is "*", the condition is false if the origin server has a
// current representation for the target resource", and a GET or HEAD whose If-None-Match is
// false answers 304. Document 1: the private-app "Download package | ... | ZIP" answers without
// an ETag, so only `*` can match it.
describe("download edge: If-None-Match: * on a download without an ETag", () => {
  const ZIP = Buffer.from("PK\u0003\u0004zip-bytes");
  let zipBase = "";
  let closeZip: () => Promise<void>;
  const zipTransport = createRouterTransport((router) => {
    router.service(CustomAppService, {
      async *downloadMyAppPackage() {
        yield { body: { kind: { case: "head", value: { status: 200, contentType: "application/zip", filename: "app-1.zip", size: BigInt(ZIP.length), headers: { "Content-Disposition": "attachment" } } } } };
        yield { body: { kind: { case: "chunk", value: ZIP } } };
      },
    } as never);
  });
  beforeAll(async () => {
    ({ base: zipBase, close: closeZip } = await listenGateway(zipTransport));
  });
  afterAll(() => closeZip());
  const zipUrl = () => `${zipBase}/api/customApp/myApps/1/download`;

  it("GET and HEAD with `If-None-Match: *` answer 304 without a body; another tag is no match: 200 with the ZIP", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await fetch(zipUrl(), { method, headers: { authorization: "Bearer x", "if-none-match": "*" } });
      expect(res.status, method).toBe(304);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
    const other = await fetch(zipUrl(), { headers: { authorization: "Bearer x", "if-none-match": '"v1"' } });
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).equals(ZIP)).toBe(true);
  });
});
