// A query string's percent-escapes name UTF-8 bytes (RFC 3986 2.5). Koa's parser turns bytes that are
// not UTF-8 (`name=caf%E9`, Latin-1) into U+FFFD, so a write would store `caf\uFFFD` and a filter would
// look for it: such a parameter is refused as malformed instead. A `%` not followed by two hex digits
// stays the literal `%` it is parsed as (nothing is lost).
import { RestInputError } from "../transcode/rest-input-error.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** A run of escapes: a multi-byte character's bytes (all >= 0x80) always sit in one run. */
const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

function isUtf8(run: string): boolean {
  try {
    utf8.decode(Buffer.from(run.replaceAll("%", ""), "hex"));
    return true;
  } catch {
    return false;
  }
}

/**
 * Throws a 400 naming the first parameter the operation takes (`takes`) whose name or value escapes
 * bytes that are not UTF-8. Parameters it does not take are left to the caller's rules (reads ignore them).
 */
export function refuseNonUtf8Query(querystring: string, takes: (name: string) => boolean): void {
  if (!querystring.includes("%")) return;
  for (const pair of querystring.split("&")) {
    const runs = pair.match(ESCAPE_RUN);
    if (!runs || runs.every(isUtf8)) continue;
    const rawName = pair.split("=", 1)[0].replaceAll("+", " ");
    const name = rawName.replace(ESCAPE_RUN, (run) => (isUtf8(run) ? decodeURIComponent(run) : run));
    if (!takes(name)) continue;
    throw new RestInputError(`Query parameter '${name}'`, "is not valid percent-encoded UTF-8 (RFC 3986 2.5: escape each byte of the UTF-8 text as %XX)");
  }
}
