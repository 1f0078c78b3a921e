// Download URLs are storage's job: the file operations call this port. (A
// deleted file's bytes go through blob intents: storage/blob-intents.ts.)

/** Download URLs (`location`, `thumbnail`, `firstFileThumbnail`) from blob keys; storage's job too. */
export interface BlobUrls {
  /** The URL of a stored blob; undefined renders the field empty. `filename`: the name a file downloads under. */
  urlOf(key: string, kind: "file" | "thumbnail", filename?: string): string | undefined;
}

/** TODO(storage): replace with the URL builder apps/media/src/storage (or uploads) exports. */
export const noBlobUrlsYet: BlobUrls = {
  urlOf: () => undefined,
};
