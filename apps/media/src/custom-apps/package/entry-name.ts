// Every entry name is checked before anything is read or written: a package
// is unpacked into the blob store, so a name must never leave its root.
import { PackageError } from "./package-error.js";

/**
 * The entry's path relative to the package root ("a/b.js"; directories keep a
 * trailing "/"), or a PackageError("unsafePath") for absolute paths, drive
 * letters, backslashes, "." / ".." / empty segments and control characters.
 */
export function checkEntryName(name: string, maxLength: number): string {
  const refuse = (why: string) => new PackageError("unsafePath", `Unsafe entry name ${JSON.stringify(name)}: ${why}`, { entry: name.slice(0, 300), detail: why });
  if (name.length === 0) throw refuse("empty name");
  if (name.length > maxLength) throw refuse(`longer than ${maxLength} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw refuse("control character");
  if (name.includes("\\")) throw refuse("backslash");
  if (name.startsWith("/")) throw refuse("absolute path");
  if (/^[A-Za-z]:/.test(name)) throw refuse("drive letter");
  const isDirectory = name.endsWith("/");
  const segments = (isDirectory ? name.slice(0, -1) : name).split("/");
  for (const segment of segments) {
    if (segment === "..") throw refuse("parent directory segment");
    if (segment === "." || segment === "") throw refuse("empty or '.' segment");
  }
  return name;
}
