// ZIP builders for the private-app tests: yazl for honest archives, and a
// minimal hand-written writer for archives yazl refuses to make ("../"
// names, absolute paths, backslashes, symlinks, sizes that lie).
import { deflateRawSync, crc32 } from "node:zlib";
import yazl from "yazl";

export interface HandEntry {
  name: string;
  data?: Buffer | string;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
  /** Overrides the uncompressed size written in both headers (a lying archive). */
  declaredSize?: number;
  /** Unix mode in the external attributes, e.g. 0o120777 for a symlink (default: a folder for names ending in /, else a file). */
  unixMode?: number;
  /** CRC-32 written in both headers (default: the data's). */
  crc?: number;
  /** Name written in the local header (default: `name`, as in the central directory). */
  localName?: string;
}

/** A ZIP with exactly these names and headers, whatever they say. */
export function handMadeZip(entries: HandEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? "", "utf8");
    const body = e.deflate ? deflateRawSync(data) : data;
    const name = Buffer.from(e.name, "utf8");
    const localName = Buffer.from(e.localName ?? e.name, "utf8");
    const crc = e.crc ?? crc32(data);
    const size = e.declaredSize ?? data.length;
    const method = e.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    locals.push(local, localName, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.unixMode ?? (e.name.endsWith("/") ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + localName.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An honest ZIP built by yazl; values are file contents (Buffer or text). */
export async function zipOf(files: Record<string, Buffer | string>, options: { compress?: boolean } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8"), name, { compress: options.compress ?? true });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export const widgetZip = (config: unknown = { name: "clock-widget", version: "1.0.0" }, extra: Record<string, string | Buffer> = {}) =>
  zipOf({ "config.json": JSON.stringify(config), "index.html": "<html>clock</html>", "icon.png": Buffer.from([0x89, 0x50, 0x4e, 0x47]), ...extra });

export const bundleZip = (extra: Record<string, string | Buffer> = {}) => zipOf({ "index.html": "<html>bundle</html>", "js/app.js": "console.log(1)", ...extra });
