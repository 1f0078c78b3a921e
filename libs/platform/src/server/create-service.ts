import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import type { Logger } from "pino";
import { setMaxListeners } from "node:events";
import { withConnectUnaryFastPath } from "./connect-unary-fast-path.js";
import { registerHealth, type Readiness } from "./health.js";
import { recordRoutes } from "./serve-implementation.js";
import { logUnexpectedErrors } from "./log-unexpected-errors.js";
import { boundErrorSize } from "./bound-error-size.js";
import { addErrorInfo } from "./error-info-detail.js";
import { unknownProcedure } from "./unknown-procedure.js";
import { createDrainableServer, type ListenOptions, type Listening, type NodeHandler } from "./h2c-server.js";

export type Routes = (router: ConnectRouter) => void;

export interface ServiceOptions {
  /** Used in logs only; the RPC names come from the registered services. */
  name: string;
  logger: Logger;
  /** Registers this service's implementations, as in connect-es examples. */
  register: Routes;
  /** Server-side interceptors (tracing, auth...), first = outermost. */
  interceptors?: Interceptor[];
  /**
   * Innermost interceptors that turn known non-Connect errors (list query errors, database
   * errors that are the caller's doing) into ConnectErrors: they run inside the
   * unexpected-error log, so what they map is not logged as a handler failure.
   */
  errorMappers?: Interceptor[];
  /** Drives grpc.health.v1.Health/Check; defaults to always ready. */
  readiness?: Readiness;
  /**
   * Largest request message a call may send (each message of a stream); a larger one is
   * ResourceExhausted before it is buffered. Default DEFAULT_READ_MAX_BYTES.
   */
  readMaxBytes?: number;
  /** Default drain budget for close(); usually SHUTDOWN_TIMEOUT_MS. */
  shutdownTimeoutMs?: number;
  /** HTTP/2 connections get GOAWAY after about this long (±10%), so clients rebalance; 0 or unset: never. */
  maxConnectionAgeMs?: number;
}

export interface Service {
  readonly name: string;
  /** `register` plus the health service: host it anywhere (h2 server, createRouterTransport). */
  readonly routes: Routes;
  /** What the router runs: the given interceptors + error logging; pass to createInMemoryTransport. */
  readonly interceptors: readonly Interceptor[];
  /** Node request handler (http2 or http1 compatible), for custom servers. */
  readonly handler: NodeHandler;
  listen(options: ListenOptions): Promise<Listening>;
  /** Stops accepting, drains in-flight calls, then destroys what is left. Idempotent. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * connect-node reads messages up to 4 GiB by default: one caller could make a service buffer
 * that much. The largest our contracts need is a chunk of a streamed upload or a 2 MiB profile
 * picture; the gateway caps JSON bodies at 5 MiB.
 */
const DEFAULT_READ_MAX_BYTES = 32 * 1024 * 1024;

export function createService(options: ServiceOptions): Service {
  const { name, logger, register, interceptors = [], errorMappers = [], readiness = () => true, shutdownTimeoutMs = 10_000, maxConnectionAgeMs, readMaxBytes = DEFAULT_READ_MAX_BYTES } = options;
  let draining = false;
  // Aborts every handler's signal when the drain budget runs out (streams, long polls).
  const shutdown = new AbortController();
  // Every call in flight links its handler signal to this one (connect unlinks it when the
  // call ends), so its listener count is the concurrency, not a leak.
  setMaxListeners(0, shutdown.signal);

  let served: string[] = [];
  const routes: Routes = (router) => {
    register(router);
    const services = new Set(router.handlers.map((h) => h.service.typeName));
    services.add("grpc.health.v1.Health");
    served = [...services].sort();
    registerHealth(router, {
      services,
      // A draining instance reports NOT_SERVING so probes and balancers move away first.
      readiness: () => !draining && readiness(),
      onReadinessError: (err) => logger.warn({ err }, "readiness check failed"),
    });
  };

  const allInterceptors = [boundErrorSize, addErrorInfo, ...interceptors, logUnexpectedErrors(logger), ...errorMappers];
  // `register` runs once; connect-node's router gets the very implementation objects the fast path calls.
  const recorded = recordRoutes(routes);
  const handler = withConnectUnaryFastPath({
    routes: recorded,
    interceptors: allInterceptors,
    shutdownSignal: shutdown.signal,
    readMaxBytes,
    fallback: connectNodeAdapter({ routes: recorded.replay, interceptors: allInterceptors, shutdownSignal: shutdown.signal, readMaxBytes, fallback: unknownProcedure(() => served) }),
  });
  const server = createDrainableServer(handler, { maxConnectionAgeMs });
  let closing: Promise<void> | undefined;

  return {
    name,
    routes,
    interceptors: allInterceptors,
    handler,
    async listen(listenOptions) {
      const listening = await server.listen(listenOptions);
      logger.info({ url: listening.url, port: listening.port }, `${name} listening (gRPC, gRPC-Web, Connect)`);
      return listening;
    },
    close({ timeoutMs = shutdownTimeoutMs } = {}) {
      closing ??= (async () => {
        draining = true;
        logger.info({ inFlight: server.inFlight(), timeoutMs }, `${name} draining`);
        const { forced } = await server.close({
          timeoutMs,
          onForce: () => shutdown.abort(new Error("server shutting down")),
        });
        if (forced) logger.warn(`${name} drain timed out; remaining calls aborted`);
        logger.info(`${name} closed`);
      })();
      return closing;
    },
  };
}
