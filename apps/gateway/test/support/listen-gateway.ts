// The real gateway on port 0 with one transport behind every service package, for the tests'
// in-test services; close() drops kept-alive connections so the suite ends promptly.
import type { Transport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { createGateway, upstreamsByPackage, type GatewayOptions } from "../../src/index.js";

export async function listenGateway(transport: Transport, options: Partial<Omit<GatewayOptions, "files" | "upstreams">> = {}): Promise<{ base: string; close(): Promise<void> }> {
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const { app } = createGateway({ files: allFiles, upstreams, logger: { info() {}, warn() {}, error() {} }, ...options });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
