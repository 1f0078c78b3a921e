// Entry paths -> blob-key suffixes. Blob keys allow only [A-Za-z0-9_.=-] per
// segment and no leading dot, so every other byte (UTF-8) is written `=HH`,
// which is reversible and leaves ordinary names ("js/app.js") unchanged.
const SAFE = /[A-Za-z0-9_.-]/;

function encodeSegment(segment: string): string {
  let out = "";
  for (const ch of segment) {
    if (SAFE.test(ch)) out += ch;
    else for (const byte of Buffer.from(ch, "utf8")) out += `=${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out.startsWith(".") ? `=2E${out.slice(1)}` : out;
}

/** A checked entry path ("a/b c.js") as a relative key ("a/b=20c.js"). */
export function entryPathToKey(path: string): string {
  return path.split("/").map(encodeSegment).join("/");
}

/** The inverse of entryPathToKey: a relative key ("a/b=20c.js") as its entry path ("a/b c.js"). */
export function keyToEntryPath(key: string): string {
  return key
    .split("/")
    .map((segment) => segment.replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replaceAll("=", ""), "hex").toString("utf8")))
    .join("/");
}
