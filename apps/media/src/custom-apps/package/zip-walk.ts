// One guarded pass over a ZIP on disk: yauzl with lazy entries, every name
// checked by us, symlinks and encrypted entries refused, entry count and
// sizes bounded from the central directory first and again while inflating
// (declared sizes can lie: a zip bomb is caught by counting real bytes).
import { Transform, type Readable, pipeline } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { crc32 } from "@node-rs/crc32";
import { checkEntryName } from "./entry-name.js";
import { PackageError } from "./package-error.js";
import type { ZipLimits } from "./zip-limits.js";

export interface ZipFileEntry {
  /** Checked relative path, e.g. "js/app.js". */
  path: string;
  uncompressedSize: number;
  compressedSize: number;
}

/** Called for each file entry (directories are skipped); `open` inflates it, guarded by the limits. */
export type EntryVisitor = (entry: ZipFileEntry, open: () => Promise<Readable>) => Promise<void>;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true }, (err, zip) => {
      if (err || !zip) reject(new PackageError("notZip", `Not a readable ZIP archive: ${err?.message ?? "unknown error"}`));
      else resolve(zip);
    });
  });
}

function nextEntry(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (entry: Entry) => (cleanup(), resolve(entry));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (err: Error) => (cleanup(), reject(new PackageError("notZip", `Corrupt ZIP archive: ${err.message}`)));
    zip.on("entry", onEntry).on("end", onEnd).on("error", onError);
    zip.readEntry();
  });
}

function tooLarge(limits: ZipLimits): PackageError {
  return new PackageError("tooLarge", `The package unpacks to more than ${limits.maxTotalUncompressedBytes} bytes`, { maxUncompressedBytes: limits.maxTotalUncompressedBytes });
}

function ratioExceeded(path: string, limits: ZipLimits): PackageError {
  return new PackageError("compressionRatio", `Entry ${path} is compressed more than ${limits.maxCompressionRatio}:1 (zip bomb)`, { entry: path, maxCompressionRatio: limits.maxCompressionRatio });
}

function ratioTooHigh(inflated: number, compressed: number, limits: ZipLimits): boolean {
  return inflated > limits.ratioFloorBytes && inflated / Math.max(compressed, 1) > limits.maxCompressionRatio;
}

/**
 * "invalid package content -> HTTP 400": the name an entry's local header carries must be the
 * one the central directory gives. We read names from the central directory, but the package is
 * also served back as uploaded (download), and a streaming extractor reads the local headers: a
 * ZIP that says "index.html" here and "../index.html" there is refused, not passed on.
 */
async function checkLocalHeader(zip: ZipFile, entry: Entry, path: string): Promise<void> {
  let local: { fileName: Buffer };
  try {
    local = await zip.readLocalFileHeaderPromise(entry);
  } catch (e) {
    throw new PackageError("notZip", `Cannot read the local header of entry ${path}: ${(e as Error).message}`, { entry: path });
  }
  if (!local.fileName.equals(entry.fileName as unknown as Buffer)) {
    throw new PackageError("unsafePath", `Entry ${path} has another name in its local header than in the central directory`, { entry: path, detail: "local header name differs" });
  }
}

/**
 * Paths no unpacked tree can hold at once ("a" as a file and "a/b", or "a/" and "a"):
 * refused as duplicates (400) before anything is written, never a store failure (500).
 */
class PathTree {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();

  add(path: string): void {
    const isDirectory = path.endsWith("/");
    const own = isDirectory ? path.slice(0, -1) : path;
    const segments = own.split("/");
    for (let i = 1; i < segments.length; i++) {
      const ancestor = segments.slice(0, i).join("/");
      if (this.files.has(ancestor)) throw clash(path, ancestor);
      this.dirs.add(ancestor);
    }
    if (isDirectory) {
      if (this.files.has(own)) throw clash(path, own);
      this.dirs.add(own);
    } else {
      if (this.dirs.has(own)) throw clash(path, `${own}/`);
      this.files.add(own);
    }
  }
}

function clash(path: string, other: string): PackageError {
  return new PackageError("duplicateEntry", `Entry ${path} clashes with ${other}: a path cannot be both a file and a folder`, { entry: path, other });
}

export async function walkZip(zipPath: string, limits: ZipLimits, visit: EntryVisitor): Promise<void> {
  const zip = await openZip(zipPath);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new PackageError("tooManyEntries", `The package has ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`, { maxEntries: limits.maxEntries });
    }
    const seen = new Set<string>();
    const tree = new PathTree();
    let declaredTotal = 0;
    const inflated = { total: 0 };
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const raw = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, true);
      const path = checkEntryName(raw, limits.maxEntryNameLength);
      if (seen.has(path)) throw new PackageError("duplicateEntry", `Entry ${path} appears twice`, { entry: path });
      seen.add(path);
      tree.add(path);
      await checkLocalHeader(zip, entry, path);
      if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
        throw new PackageError("unsupportedEntry", `Entry ${path} is a symbolic link`, { entry: path });
      }
      if (path.endsWith("/")) continue;
      if (entry.isEncrypted() || !entry.canDecodeFileData()) {
        throw new PackageError("unsupportedEntry", `Entry ${path} is encrypted or uses an unsupported compression method`, { entry: path });
      }
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > limits.maxTotalUncompressedBytes) throw tooLarge(limits);
      if (ratioTooHigh(entry.uncompressedSize, entry.compressedSize, limits)) throw ratioExceeded(path, limits);

      const current = entry;
      let streamFailure: unknown;
      const open = () =>
        new Promise<Readable>((resolve, reject) => {
          zip.openReadStream(current, (err, source) => {
            if (err || !source) return reject(new PackageError("notZip", `Cannot read entry ${path}: ${err?.message}`, { entry: path }));
            let count = 0;
            let crc = 0;
            const guard = new Transform({
              transform(chunk: Buffer, _enc, done) {
                count += chunk.length;
                crc = crc32(chunk, crc);
                inflated.total += chunk.length;
                if (inflated.total > limits.maxTotalUncompressedBytes) return done(tooLarge(limits));
                if (ratioTooHigh(count, current.compressedSize, limits)) return done(ratioExceeded(path, limits));
                done(null, chunk);
              },
              // "invalid package content -> HTTP 400": bytes that do not match the entry's CRC-32 are a corrupt package.
              flush(done) {
                if (crc >>> 0 !== current.crc32 >>> 0) return done(new PackageError("notZip", `Entry ${path} fails its CRC-32 check (corrupt ZIP)`, { entry: path }));
                done();
              },
            });
            pipeline(source, guard, (e) => {
              if (e) streamFailure = e instanceof PackageError ? e : new PackageError("notZip", `Corrupt entry ${path}: ${e.message}`, { entry: path });
            });
            resolve(guard);
          });
        });
      try {
        await visit({ path, uncompressedSize: entry.uncompressedSize, compressedSize: entry.compressedSize }, open);
      } catch (e) {
        // A failure of the ZIP stream wins over how the consumer reported it.
        throw streamFailure ?? e;
      }
      if (streamFailure) throw streamFailure;
    }
  } finally {
    zip.close();
  }
}
