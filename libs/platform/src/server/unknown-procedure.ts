import http2 from "node:http2";
import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";

type NodeHandlerFn = NonNullable<ConnectNodeAdapterOptions["fallback"]>;

/**
 * The answer to a path no service of this port has. connect-node's default is a bare HTTP 404,
 * which gRPC clients report as "Received HTTP status code 404" (most often: the right service
 * called on the wrong port). gRPC and gRPC-Web callers get status 12 Unimplemented as the gRPC
 * spec asks (trailers-only), everyone else the Connect protocol's 404 with an `unimplemented`
 * error body; both name the services this port does serve.
 */
export function unknownProcedure(servedServices: () => readonly string[]): NodeHandlerFn {
  return (req, res) => {
    const message = `no procedure ${procedureOf(req.url)} here: this port serves ${servedServices().join(", ")}`;
    const contentType = String(req.headers["content-type"] ?? "");
    if (contentType.startsWith("application/grpc")) {
      res.writeHead(200, { "content-type": contentType, "grpc-status": "12", "grpc-message": percentEncode(message) });
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.write(JSON.stringify({ code: "unimplemented", message }));
    }
    // A body the caller is still sending is not read: the stream (HTTP/2) or connection
    // (HTTP/1.1) ends once the answer is out.
    if (!req.complete) res.once("finish", () => stopReading(req));
    res.end();
  };
}

/**
 * HTTP/2: RST_STREAM NO_ERROR, the way RFC 9113 8.1 has a server that answered tell its peer
 * to stop sending the request; HTTP/1.1: the connection closes (a body cannot be skipped).
 */
function stopReading(req: Parameters<NodeHandlerFn>[0]): void {
  if ("stream" in req) req.stream.close(http2.constants.NGHTTP2_NO_ERROR);
  else req.destroy();
}

/** The path without its query, cut: the answer never echoes a caller's megabytes. */
function procedureOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0];
  return path.length > MAX_ECHOED ? `${path.slice(0, MAX_ECHOED)}…` : path;
}

const MAX_ECHOED = 200;

/** grpc-message: printable ASCII except '%' as is, every other byte of its UTF-8 as %XX. */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
