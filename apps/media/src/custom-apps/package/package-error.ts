// Why a package was refused. The service turns it into the documented
// "invalid package content -> HTTP 400" (or 413 for an oversized upload).
export type PackageProblem =
  | "notZip"
  | "unsafePath"
  | "duplicateEntry"
  | "unsupportedEntry"
  | "tooManyEntries"
  | "tooLarge"
  | "compressionRatio"
  | "missingConfig"
  | "invalidConfig"
  | "reservedIdentity"
  | "missingIndexHtml";

export class PackageError extends Error {
  constructor(
    readonly problem: PackageProblem,
    message: string,
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = "PackageError";
  }
}
