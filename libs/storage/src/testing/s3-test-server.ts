// A local S3-compatible server for tests: s3rver on port 0 with one bucket.
// s3rver lacks two multipart APIs the adapter relies on (ListParts and
// AbortMultipartUpload); this harness answers those two from s3rver's own
// on-disk upload directory, and hands every other request to s3rver.
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** Env for createBlobStoreFromUrl / the media service. */
  env: Record<string, string>;
  close(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}

function xml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function noSuchUpload(res: ServerResponse, uploadId: string): void {
  xml(res, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`);
}

export async function startS3TestServer(bucket = "test-bucket"): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), "s3rver-"));
  const server: S3rverInstance = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  const uploadsDir = (b: string) => server.store.getResourcePath(b, undefined, "uploads");

  async function multipartShim(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://s3");
    const uploadId = url.searchParams.get("uploadId");
    if (!uploadId || url.searchParams.has("partNumber") || (req.method !== "GET" && req.method !== "DELETE")) return false;
    const [, b, ...keyParts] = url.pathname.split("/");
    const dir = join(uploadsDir(decodeURIComponent(b)), uploadId);
    const exists = await stat(dir).then(() => true, () => false);
    req.resume();
    if (!exists) {
      noSuchUpload(res, uploadId);
      return true;
    }
    if (req.method === "DELETE") {
      await rm(dir, { recursive: true, force: true });
      res.writeHead(204).end();
      return true;
    }
    // s3rver writes `<n>.md5` once part n is complete; a part file without it is
    // the leftover of an aborted request, which S3 would never list.
    const entries = await readdir(dir);
    const names = entries.filter((n) => /^\d+$/.test(n) && entries.includes(`${n}.md5`)).map(Number).sort((x, y) => x - y);
    const parts = await Promise.all(
      names.map(async (n) => {
        const s = await stat(join(dir, String(n)));
        const md5 = (await readFile(join(dir, `${n}.md5`), "utf8").catch(() => "")).trim();
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${s.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${s.size}</Size></Part>`;
      }),
    );
    xml(res, 200, `<ListPartsResult><Bucket>${b}</Bucket><Key>${keyParts.join("/")}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`);
    return true;
  }

  const [s3rverHandler] = server.httpServer.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.httpServer.removeAllListeners("request");
  server.httpServer.on("request", (req: IncomingMessage, res: ServerResponse) => {
    multipartShim(req, res).then(
      (handled) => {
        if (!handled) s3rverHandler(req, res);
      },
      (err: Error) => xml(res, 500, `<Error><Code>InternalError</Code><Message>${err.message}</Message></Error>`),
    );
  });

  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: { AWS_ENDPOINT_URL_S3: endpoint, AWS_REGION: "us-east-1", AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER", AWS_S3_FORCE_PATH_STYLE: "true" },
    async close() {
      server.httpServer.closeAllConnections?.();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
