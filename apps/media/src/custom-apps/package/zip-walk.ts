// One guarded pass over a ZIP on disk: yauzl with lazy entries, every name
// checked by us, symlinks and encrypted entries refused, entry count and
// sizes bounded from the central directory first and again while inflating
// (declared sizes can lie: a zip bomb is caught by counting real bytes).
import { Transform, type Readable, pipeline } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
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

export async function walkZip(zipPath: string, limits: ZipLimits, visit: EntryVisitor): Promise<void> {
  const zip = await openZip(zipPath);
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new PackageError("tooManyEntries", `The package has ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`, { maxEntries: limits.maxEntries });
    }
    const seen = new Set<string>();
    let declaredTotal = 0;
    const inflated = { total: 0 };
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const raw = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileName as unknown as Buffer, entry.extraFields, true);
      const path = checkEntryName(raw, limits.maxEntryNameLength);
      if (seen.has(path)) throw new PackageError("duplicateEntry", `Entry ${path} appears twice`, { entry: path });
      seen.add(path);
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
            const guard = new Transform({
              transform(chunk: Buffer, _enc, done) {
                count += chunk.length;
                inflated.total += chunk.length;
                if (inflated.total > limits.maxTotalUncompressedBytes) return done(tooLarge(limits));
                if (ratioTooHigh(count, current.compressedSize, limits)) return done(ratioExceeded(path, limits));
                done(null, chunk);
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
