// core in its own process, for bench:gateway's cluster-shaped path: the gateway
// (in the bench process) reaches it over loopback h2c, as in a real cluster,
// instead of paying for both ends of every call on one event loop. Same module
// setup as the in-process core (no telemetry, in-process bus); argv[2] carries
// the database URL and the signing key. Sends its URL over IPC once listening;
// stops when the parent disconnects.
import { trace } from "@opentelemetry/api";
import { importPrivateKey } from "@signage/auth";
import { createInProcessBus } from "@signage/events";
import { createLogger } from "@signage/platform";
import { startModule } from "@signage/runtime";
import { coreModule } from "@signage/core";

const { databaseUrl, privateKeyPem } = JSON.parse(process.argv[2]) as { databaseUrl: string; privateKeyPem: string };
const signingKeys = importPrivateKey(privateKeyPem);
const bus = createInProcessBus();
const core = await startModule(coreModule, {
  databaseUrl,
  bus,
  keys: { signingKeys, publicKey: signingKeys.publicKey },
  tracer: trace.getTracer("bench-core"),
  logger: createLogger({ name: "bench-core", level: "silent" }),
  env: {},
});
await core.instance.start?.();
const listening = await core.service.listen({ host: "127.0.0.1", port: 0 });
process.send?.({ url: listening.url });
process.on("disconnect", () => {
  void core
    .stop()
    .then(() => bus.close())
    .finally(() => process.exit(0));
});
