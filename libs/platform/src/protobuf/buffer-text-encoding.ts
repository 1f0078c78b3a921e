// protobuf-es turns every string field into UTF-8 through the WHATWG
// TextEncoder/TextDecoder, one native call and one fresh allocation per
// string. A list page carries hundreds of short strings, which made binary
// (de)serialization the largest per-row cost of every list RPC. Node's
// Buffer does the same conversion about twice as fast (pooled allocation,
// no WHATWG wrapper). Same bytes, same replacement of invalid sequences;
// strict decoding and UTF-8 checks stay with the library's defaults.
// Installed once per process (a documented protobuf-es hook) by whoever (de)serializes
// on a hot path: the gateway response renderer and the services' list code.
import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";

let installed = false;

export function installBufferTextEncoding(): void {
  if (installed || typeof Buffer === "undefined") return;
  installed = true;
  const fallback = getTextEncoding();
  configureTextEncoding({
    checkUtf8: fallback.checkUtf8,
    encodeUtf8: (text) => Buffer.from(text, "utf8"),
    decodeUtf8: (bytes, strict) => (strict ? fallback.decodeUtf8(bytes, strict) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")),
  });
}
