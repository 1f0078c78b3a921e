// A service on port 0 for one suite: started before its tests, closed after them.
import type { ConnectRouter } from "@connectrpc/connect";
import { afterAll, beforeAll } from "vitest";
import { createService, type Service } from "./platform.js";
import { memoryLogger } from "./memory-logger.js";

export function listeningService(register: (router: ConnectRouter) => void): { readonly url: string } {
  let service: Service;
  let url = "";
  beforeAll(async () => {
    service = createService({ name: "probe", logger: memoryLogger().logger, register });
    ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => service.close({ timeoutMs: 1000 }));
  return {
    get url() {
      return url;
    },
  };
}
