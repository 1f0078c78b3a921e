// A floor server listening on an ephemeral loopback port, as the benchmark's client reaches it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

export async function listenLocal(server: Server): Promise<LocalServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
