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
    const message = `no procedure ${req.url ?? "/"} here: this port serves ${servedServices().join(", ")}`;
    const contentType = String(req.headers["content-type"] ?? "");
    if (contentType.startsWith("application/grpc")) {
      res.writeHead(200, { "content-type": contentType, "grpc-status": "12", "grpc-message": percentEncode(message) });
    } else {
      res.writeHead(404, { "content-type": "application/json" });
      res.write(JSON.stringify({ code: "unimplemented", message }));
    }
    res.end();
    // A body the caller is still sending is not needed.
    req.resume();
  };
}

/** grpc-message: printable ASCII except '%' as is, every other byte of its UTF-8 as %XX. */
function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
