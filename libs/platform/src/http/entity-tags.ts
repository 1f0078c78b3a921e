// HTTP entity-tag comparison shared by the edge and the services that answer conditional
// requests themselves (media's downloads answer If-None-Match before reading a blob).

/** RFC 9110 §8.8.3.2 weak comparison (If-None-Match): any listed tag equal to `etag` once the W/ prefixes are dropped, or `*`. */
export function noneMatch(header: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === bare(etag));
}
