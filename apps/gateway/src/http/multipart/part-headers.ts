// The header block of one multipart/form-data part (RFC 7578): which form
// field it is, whether it carries a file, and its media type. Header bytes are
// read as UTF-8 because browsers send non-ASCII file names raw in
// `filename="..."`; `filename*` (RFC 5987) is honoured when present.
import { MultipartError } from "./multipart-error.js";

export interface PartHead {
  /** The form field name (`name` parameter); "" when absent. */
  field: string;
  /** Set for file parts: the file name without any directory part. */
  filename?: string;
  /** `type/subtype`, lower case; "text/plain" when the part has no Content-Type (RFC 7578 4.4). */
  contentType: string;
  /** The Content-Type's charset, lower case, when given. */
  charset?: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Content-Disposition / Content-Type style `value; a=b; c="d"` (parameter names lower-cased). */
export function parseHeaderValue(text: string): { value: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  const semi = text.indexOf(";");
  const value = (semi === -1 ? text : text.slice(0, semi)).trim().toLowerCase();
  let at = semi === -1 ? text.length : semi + 1;
  while (at < text.length) {
    const eq = text.indexOf("=", at);
    if (eq === -1) break;
    // A parameter without a value (`foo;`) is skipped, not read as part of the next one's name.
    const semi = text.indexOf(";", at);
    if (semi !== -1 && semi < eq) {
      at = semi + 1;
      continue;
    }
    const name = text.slice(at, eq).trim().toLowerCase();
    let raw: string;
    let i = eq + 1;
    while (text[i] === " " || text[i] === "\t") i++;
    if (text[i] === '"') {
      raw = "";
      // A backslash escapes only `"` and `\\`: old browsers send Windows paths unescaped in file names.
      for (i++; i < text.length && text[i] !== '"'; i++) raw += text[i] === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\") ? text[++i] : text[i];
      const next = text.indexOf(";", i);
      at = next === -1 ? text.length : next + 1;
    } else {
      const next = text.indexOf(";", i);
      raw = text.slice(i, next === -1 ? text.length : next).trim();
      at = next === -1 ? text.length : next + 1;
    }
    if (TOKEN.test(name) && !params.has(name)) params.set(name, raw);
  }
  return { value, params };
}

/** RFC 5987 `charset'language'percent-encoded`; undefined when malformed or of an unknown charset. */
function decodeExtended(text: string): string | undefined {
  const m = /^([^']*)'[^']*'((?:%[0-9a-fA-F]{2}|[\x21-\x24\x26-\x7e])*)$/.exec(text);
  if (!m) return undefined;
  try {
    const bytes = Buffer.from(m[2].replace(/%([0-9a-fA-F]{2})/g, (_s, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1");
    return new TextDecoder(m[1] || "utf-8").decode(bytes);
  } catch {
    return undefined;
  }
}

/** Browsers (WHATWG multipart/form-data encoding) send `"`, CR and LF of a file name as %22, %0D and %0A. */
function decodeFormEscapes(name: string | undefined): string | undefined {
  return name?.replace(/%(22|0D|0A)/gi, (_s, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A file name as the client's path separators may have given it: only its last segment counts. */
function baseName(name: string): string {
  const last = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  return last === "." || last === ".." ? "" : last;
}

/** Lines `Name: value` (folded lines continue the previous value); names lower-cased, first occurrence wins. */
export function parseHeaderLines(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  let last: string | undefined;
  for (const line of block.split("\r\n")) {
    if (line === "") continue;
    if ((line[0] === " " || line[0] === "\t") && last !== undefined) {
      headers.set(last, `${headers.get(last)} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon === -1 ? "" : line.slice(0, colon).toLowerCase();
    if (!TOKEN.test(name)) throw new MultipartError(`Malformed part header '${line.slice(0, 64)}'`);
    if (headers.has(name)) {
      last = undefined;
      continue;
    }
    headers.set(name, line.slice(colon + 1).trim());
    last = name;
  }
  return headers;
}

/** The part's head, or undefined for a part that is not form data (no Content-Disposition: form-data): such parts are skipped. */
export function partHead(headers: Map<string, string>): PartHead | undefined {
  const disposition = headers.get("content-disposition");
  if (disposition === undefined) return undefined;
  const { value, params } = parseHeaderValue(disposition);
  if (value !== "form-data") return undefined;
  const extended = params.has("filename*") ? decodeExtended(params.get("filename*")!) : undefined;
  const filename = extended ?? decodeFormEscapes(params.get("filename"));
  const type = headers.has("content-type") ? parseHeaderValue(headers.get("content-type")!) : undefined;
  return {
    field: params.get("name") ?? "",
    filename: filename === undefined ? undefined : baseName(filename),
    contentType: type?.value || "text/plain",
    charset: type?.params.get("charset")?.toLowerCase(),
  };
}

/** Files are parts with a file name or of type application/octet-stream; the rest are plain fields. */
export function isFilePart(head: PartHead): boolean {
  return head.filename !== undefined || head.contentType === "application/octet-stream";
}

/** The boundary of a multipart Content-Type header, or undefined when it names none usable (RFC 2046: 1 to 70 characters). */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const { value, params } = parseHeaderValue(contentType);
  const boundary = params.get("boundary");
  if (!value.startsWith("multipart/") || !boundary || boundary.length > 70) return undefined;
  return boundary;
}
