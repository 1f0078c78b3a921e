// Bytes the platform stores for its users (files, thumbnails, profile pictures, packages)
// are served from the API's own origin. An uploaded SVG or HTML page opened there must not
// run script or be sniffed into something else: `default-src 'none'` allows no script at
// all, and no form posts. No `sandbox`: its opaque origin would make 'self' miss, so an
// image or video opened at its own URL would not load. Embedding in <img>/<video> elsewhere
// is unaffected (CSP governs documents).
import type { Context } from "koa";

const STORED_CONTENT_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; font-src 'self'; form-action 'none'";
// A browser's PDF viewer is an embedded plugin document that `default-src 'none'` blocks; it runs PDF script apart from the origin.
const OWN_VIEWER = new Set(["application/pdf"]);

export function setStoredContentHeaders(ctx: Context, contentType: string): void {
  ctx.set("X-Content-Type-Options", "nosniff");
  const bare = contentType.split(";")[0].trim().toLowerCase();
  if (!OWN_VIEWER.has(bare)) ctx.set("Content-Security-Policy", STORED_CONTENT_POLICY);
}
