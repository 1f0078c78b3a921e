// Bytes the platform stores for its users (files, thumbnails, profile pictures, packages)
// are served from the API's own origin. An uploaded SVG or HTML page opened there must not
// run script or be sniffed into something else: it is rendered as an inert, sandboxed
// document. Embedding in <img>/<video> elsewhere is unaffected (CSP governs documents).
import type { Context } from "koa";

const STORED_CONTENT_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; font-src 'self'; sandbox";
// Browsers refuse to show a PDF in a sandboxed document; their viewer runs PDF script apart from the origin.
const OWN_VIEWER = new Set(["application/pdf"]);

export function setStoredContentHeaders(ctx: Context, contentType: string): void {
  ctx.set("X-Content-Type-Options", "nosniff");
  const bare = contentType.split(";")[0].trim().toLowerCase();
  if (!OWN_VIEWER.has(bare)) ctx.set("Content-Security-Policy", STORED_CONTENT_POLICY);
}
