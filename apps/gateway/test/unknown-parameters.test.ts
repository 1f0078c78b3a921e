// In-memory level: a write refuses query parameters it does not take. Document 1 "Delete file |
// DELETE /api/file/{id} | ... | query removeFromPlaylists (bool)": a misspelt flag
// (`removeFromPlaylist`) used to be dropped, and the file deleted as if it had not been sent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { FileService, type DeleteFileRequest } from "@signage/contracts/signage/media/v1/file_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {} };
const deleted: DeleteFileRequest[] = [];
let base = "";
let close: () => Promise<unknown>;

beforeAll(() => {
  const transport = createRouterTransport((router) =>
    router.service(FileService, {
      deleteFile: (req) => {
        deleted.push(req);
        return {};
      },
      listFiles: () => ({}),
    }),
  );
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0);
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  close = () => new Promise((r) => server.close(r));
});
afterAll(() => close());

describe("query parameters a write does not take", () => {
  it("DELETE /api/file/{id}?removeFromPlaylist=true: 400 request.error.unknownParameter naming it and what the operation takes; nothing called", async () => {
    const res = await fetch(`${base}/api/file/f1?removeFromPlaylist=true`, { method: "DELETE" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      status: 400,
      key: "request.error.unknownParameter",
      message: "Query parameter 'removeFromPlaylist' is not a parameter of this operation; it takes: removeFromPlaylists",
      details: { parameter: "removeFromPlaylist", accepted: ["removeFromPlaylists"] },
    });
    expect(deleted).toEqual([]);
  });

  it("the parameters it takes, in their JSON or proto spelling, pass; so does a path variable's value", async () => {
    for (const query of ["removeFromPlaylists=true", "remove_from_playlists=true", ""]) {
      const res = await fetch(`${base}/api/file/f1?${query}`, { method: "DELETE" });
      expect(res.status, query).toBe(204);
    }
    expect(deleted.map((r) => r.removeFromPlaylists)).toEqual([true, true, undefined]);
  });

  it("customerId, which document 2's scoping table names for every call, is accepted on any write (ignored where the operation selects no customer, as before)", async () => {
    const res = await fetch(`${base}/api/file/f2?customerId=7`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(deleted.at(-1)?.fileId).toBe("f2");
  });

  it("reads stay lenient: an unknown parameter on a list is ignored (cache busters, shared links)", async () => {
    const res = await fetch(`${base}/api/v2/file?_=1700000000000`);
    expect(res.status).toBe(200);
  });
});
