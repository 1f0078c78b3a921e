// The kinds of a file (document 1 "Supported file kinds"), the values of the file list's `type`
// filter. Media derives a file's kind from its content type; quick filters (core) check FILE
// criteria against the same closed set, so a filter saved in core never fails in media's list.
export const FILE_KINDS = ["IMAGE", "VIDEO", "AUDIO", "FONT", "DOCUMENT", "DATA", "OTHER"] as const;
export type FileKind = (typeof FILE_KINDS)[number];
