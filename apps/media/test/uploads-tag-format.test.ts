// POST /api/file "tags (comma separated)" against document 2 "Tag": "Format: must
// not start with `-` or whitespace; letters, digits and `- _ # .` allowed; at most
// 2048 characters." Checked with the rest of the query, before a byte is stored.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;

beforeAll(async () => {
  env = await startUploadPlatform("uploads_tag_format");
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

const upload = (name: string, tags: string) =>
  env.platform.http.post("/api/file", { token: t.editor.token, body: multipart([{ name: "files[]", filename: name, type: "image/png", data: png(2, 2) }]), query: { tags } });

describe("upload tags", () => {
  it("a bad tag is 400 tag.error.invalidFormat and nothing is stored; spaces around the commas are separators, good tags are kept", async () => {
    for (const tags of ["good,-bad", "good,semi;colon", `good,${"x".repeat(2049)}`]) {
      const res = await upload("refused.png", tags);
      expect([res.status, res.body.key], tags).toEqual([400, "tag.error.invalidFormat"]);
    }
    expect(await env.platform.knexOf("media")("file").where({ customer_id: t.id, name: "refused.png" })).toHaveLength(0);
    expect(await readdir(`${env.blobDir}/files/${t.id}`).catch(() => [])).toEqual([]);

    const ok = await upload("kept.png", "good, with space ,a#b.c_d,good");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body[0].tags).toEqual(["good", "with space", "a#b.c_d"]);
  });
});
