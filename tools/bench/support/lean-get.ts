// A latency probe's client: node:http on one kept-alive socket, the body read and
// dropped. fetch (undici) costs a few hundred microseconds a request in the same
// process as the server, which a latency comparison would charge to the server.
import http from "node:http";

export interface LeanGet {
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; bytes: number }>;
  close(): void;
}

export function createLeanGet(baseUrl: string): LeanGet {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (path, headers = {}) =>
      new Promise((resolve, reject) => {
        const req = http.get(new URL(path, baseUrl), { agent, headers }, (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => (bytes += chunk.length));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
          res.on("error", reject);
        });
        req.on("error", reject);
      }),
    close: () => agent.destroy(),
  };
}
