// Tags a client writes on files (upload, PUT /api/file/{id}, tags/add and tags/set).
// Document 2 "Tag": "Format: must not start with `-` or whitespace; letters, digits
// and `- _ # .` allowed; at most 2048 characters." Checked as sent (no trimming):
// a tag that breaks the rule is a 400, never silently rewritten.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";
import { tagFormatProblem } from "@signage/runtime";

/** The tags without duplicates (first occurrence kept), or 400 tag.error.invalidFormat (core's key for bad tags). */
export function checkTags(tags: readonly unknown[]): string[] {
  for (const tag of tags) {
    const problem = tagFormatProblem(tag);
    if (problem) throw serviceError(Code.InvalidArgument, "tag.error.invalidFormat", problem, { parameter: "tags", tag: typeof tag === "string" ? tag : null });
  }
  return [...new Set(tags as string[])];
}
