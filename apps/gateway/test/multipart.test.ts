// The multipart/form-data parser (plain unit): RFC 2046 delimiters wherever
// the chunk boundaries fall, RFC 7578 part heads, and the malformed bodies it
// must refuse.
import { describe, expect, it } from "vitest";
import { MultipartError } from "../src/http/multipart/multipart-error.js";
import { isFilePart, multipartBoundary, parseHeaderValue } from "../src/http/multipart/part-headers.js";
import { scanMultipart, MAX_PART_HEADER_BYTES, type MultipartItem } from "../src/http/multipart/scan-multipart.js";

const BOUNDARY = "----formdata-x1";

async function* chunksOf(body: Buffer, sizes: number[] | number): AsyncGenerator<Buffer> {
  let at = 0;
  for (let i = 0; at < body.length; i++) {
    const size = typeof sizes === "number" ? sizes : sizes[i % sizes.length];
    yield body.subarray(at, at + size);
    at += size;
  }
}

/** The parts as {head, data}, whatever the chunking. */
async function parse(body: Buffer, sizes: number[] | number = body.length, boundary = BOUNDARY) {
  const parts: Array<{ field: string; filename?: string; contentType: string; data: string }> = [];
  for await (const item of scanMultipart(chunksOf(body, sizes), boundary)) {
    if (item.kind === "head") parts.push({ field: item.head.field, filename: item.head.filename, contentType: item.head.contentType, data: "" });
    else parts[parts.length - 1].data += item.chunk.toString("latin1");
  }
  return parts;
}

async function collect(source: AsyncIterable<MultipartItem>): Promise<MultipartItem[]> {
  const items: MultipartItem[] = [];
  for await (const item of source) items.push(item);
  return items;
}

const body = (text: string) => Buffer.from(text.replaceAll("\n", "\r\n"), "utf8");

// Data that looks like the delimiter without being it: a CR LF and dashes, the
// boundary without its leading CRLF, a delimiter prefix cut short.
const TRICKY = "line\r\n--\r\n------formdata-x\r\n----formdata-x\r-";
const SAMPLE = Buffer.concat([
  body(`preamble to ignore\n--${BOUNDARY}\nContent-Disposition: form-data; name="tags"\n\nred,blue\n--${BOUNDARY}\nContent-Disposition: form-data; name="files[]"; filename="clip.mp4"\nContent-Type: Video/MP4\n\n`),
  Buffer.from(TRICKY, "latin1"),
  body(`\n--${BOUNDARY}  \t\nContent-Disposition: form-data; name="previews[]"; filename="C:\\shots\\clip.mp4"\nContent-Type: image/png\n\n`),
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 13, 10]),
  body(`\n--${BOUNDARY}--\nepilogue to ignore`),
]);
const EXPECTED = [
  { field: "tags", filename: undefined, contentType: "text/plain", data: "red,blue" },
  { field: "files[]", filename: "clip.mp4", contentType: "video/mp4", data: TRICKY },
  { field: "previews[]", filename: "clip.mp4", contentType: "image/png", data: "\x89PNG\r\n" },
];

describe("scanMultipart", () => {
  it("finds every part whatever the chunk boundaries (one chunk, 1-byte chunks, every split point)", async () => {
    expect(await parse(SAMPLE)).toEqual(EXPECTED);
    expect(await parse(SAMPLE, 1)).toEqual(EXPECTED);
    expect(await parse(SAMPLE, [3, 7, 1, 19])).toEqual(EXPECTED);
    for (let split = 1; split < SAMPLE.length; split++) expect(await parse(SAMPLE, [split, SAMPLE.length])).toEqual(EXPECTED);
  });

  it("a body may start right with the first boundary (no preamble)", async () => {
    const plain = body(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n\n1\n--${BOUNDARY}--`);
    expect(await parse(plain)).toEqual([{ field: "a", filename: undefined, contentType: "text/plain", data: "1" }]);
    expect(await parse(plain, 1)).toEqual([{ field: "a", filename: undefined, contentType: "text/plain", data: "1" }]);
  });

  it("hands large data on as views of the chunks it was given, not copies (only the first chunk is joined to the virtual leading CRLF)", async () => {
    const payload = Buffer.alloc(256 * 1024, 7);
    const input = Buffer.concat([body(`--${BOUNDARY}\nContent-Disposition: form-data; name="f"; filename="a.bin"\n\n`), payload, body(`\n--${BOUNDARY}--\n`)]);
    const chunks = [...(function* () { for (let at = 0; at < input.length; at += 64 * 1024) yield input.subarray(at, at + 64 * 1024); })()];
    const items = await collect(scanMultipart((async function* () { yield* chunks; })(), BOUNDARY));
    const data = items.filter((i): i is Extract<MultipartItem, { kind: "data" }> => i.kind === "data");
    expect(Buffer.concat(data.map((d) => d.chunk)).equals(payload)).toBe(true);
    const views = data.filter((d) => d.chunk.buffer === input.buffer);
    expect(views.reduce((n, d) => n + d.chunk.length, 0)).toBeGreaterThanOrEqual(payload.length - 64 * 1024);
  });

  it("skips parts that are not form data (no Content-Disposition: form-data)", async () => {
    const input = body(`--${BOUNDARY}\nContent-Type: text/plain\n\nlost\n--${BOUNDARY}\nContent-Disposition: attachment; name="x"\n\nlost too\n--${BOUNDARY}\n\nno headers at all\n--${BOUNDARY}\nContent-Disposition: form-data; name="kept"\n\nyes\n--${BOUNDARY}--\n`);
    expect(await parse(input, 5)).toEqual([{ field: "kept", filename: undefined, contentType: "text/plain", data: "yes" }]);
  });

  it("file names: UTF-8 as browsers send them, filename* (RFC 5987) preferred, directories dropped", async () => {
    const input = Buffer.concat([
      body(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"; filename="Größe.png"\n\n1\n`),
      body(`--${BOUNDARY}\nContent-Disposition: form-data; name="b"; filename="plain.png"; filename*=UTF-8''%E2%82%AC%20rates.png\n\n2\n`),
      body(`--${BOUNDARY}\nContent-Disposition: form-data; name="c"; filename="../../etc/passwd"\n\n3\n`),
      body(`--${BOUNDARY}\nContent-Disposition: form-data; name="d"; filename="a \\"quoted\\" name.png"\n\n4\n`),
      // What browsers send for a name with a quote and a line break (WHATWG form encoding).
      body(`--${BOUNDARY}\nContent-Disposition: form-data; name="e"; filename="say %22hi%22%0D%0A.png"\n\n5\n--${BOUNDARY}--`),
    ]);
    const names = (await parse(input)).map((p) => p.filename);
    expect(names).toEqual(["Größe.png", "€ rates.png", "passwd", 'a "quoted" name.png', 'say "hi"\r\n.png']);
  });

  it("refuses a body that ends before the closing boundary", async () => {
    await expect(parse(body(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n\ncut short`))).rejects.toThrow(MultipartError);
    await expect(parse(body(`no boundary anywhere`))).rejects.toThrow(/Unexpected end of form/);
    await expect(parse(Buffer.alloc(0))).rejects.toThrow(/Unexpected end of form/);
  });

  it("refuses malformed part headers, oversized header blocks and garbage after a boundary", async () => {
    await expect(parse(body(`--${BOUNDARY}\nnot a header\n\nx\n--${BOUNDARY}--`))).rejects.toThrow(/Malformed part header/);
    const huge = `X-Filler: ${"a".repeat(MAX_PART_HEADER_BYTES)}`;
    await expect(parse(body(`--${BOUNDARY}\n${huge}\n\nx\n--${BOUNDARY}--`), 1000)).rejects.toThrow(/headers exceed/);
    // The limit is the block's own size, wherever a chunk ends: a block of exactly the limit passes.
    const atLimit = `X-Filler: ${"a".repeat(MAX_PART_HEADER_BYTES - 'Content-Disposition: form-data; name="a"\r\nX-Filler: '.length)}`;
    const largest = body(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n${atLimit}\n\nx\n--${BOUNDARY}--`);
    const blockStart = largest.indexOf("Content-Disposition");
    for (const sizes of [largest.length, [blockStart + MAX_PART_HEADER_BYTES + 2, 1000], 1]) {
      expect(await parse(largest, sizes), String(sizes)).toEqual([{ field: "a", filename: undefined, contentType: "text/plain", data: "x" }]);
    }
    await expect(parse(body(`--${BOUNDARY}junk\nContent-Disposition: form-data; name="a"\n\nx\n--${BOUNDARY}--`))).rejects.toThrow(/Malformed boundary line/);
  });

  it("reads (and ignores) everything after the closing boundary", async () => {
    let pulled = 0;
    const input = body(`--${BOUNDARY}\nContent-Disposition: form-data; name="a"\n\n1\n--${BOUNDARY}--\n`);
    async function* source() {
      for (const chunk of [input, Buffer.from("epilogue 1"), Buffer.from("epilogue 2")]) {
        pulled++;
        yield chunk;
      }
    }
    await collect(scanMultipart(source(), BOUNDARY));
    expect(pulled).toBe(3);
  });
});

describe("part heads", () => {
  it("multipartBoundary: token or quoted, only for multipart types, at most 70 characters (RFC 2046)", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b;c"')).toBe("a b;c");
    expect(multipartBoundary("multipart/form-data")).toBeUndefined();
    expect(multipartBoundary("text/plain; boundary=abc")).toBeUndefined();
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeUndefined();
    // A parameter without a value does not swallow the next one.
    expect(multipartBoundary("multipart/form-data; foo; boundary=abc")).toBe("abc");
    expect(parseHeaderValue('form-data; foo; name="x"').params.get("name")).toBe("x");
  });

  it("parameters: names lower-cased, first occurrence wins, quoted-string escapes undone", () => {
    const { value, params } = parseHeaderValue('Form-Data; NAME="a\\"b"; name=second; filename=x.png');
    expect(value).toBe("form-data");
    expect(params.get("name")).toBe('a"b');
    expect(params.get("filename")).toBe("x.png");
  });

  it("a part is a file when it has a file name or is application/octet-stream", () => {
    expect(isFilePart({ field: "a", contentType: "text/plain" })).toBe(false);
    expect(isFilePart({ field: "a", filename: "", contentType: "text/plain" })).toBe(true);
    expect(isFilePart({ field: "a", contentType: "application/octet-stream" })).toBe(true);
  });
});
