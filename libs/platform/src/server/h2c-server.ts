import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { createSniffingServer } from "./protocol-sniffer.js";

type NodeRequest = http.IncomingMessage | http2.Http2ServerRequest;
type NodeResponse = http.ServerResponse | http2.Http2ServerResponse;
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void;

export interface ListenOptions {
  host: string;
  port: number;
}

export interface Listening {
  port: number;
  url: string;
}

export interface DrainableServer {
  listen(options: ListenOptions): Promise<Listening>;
  /** Number of requests whose response has not closed yet. */
  inFlight(): number;
  /**
   * Stops accepting connections, lets in-flight requests finish for up to
   * `timeoutMs`, then calls `onForce` (to abort handlers) and destroys what is left.
   */
  close(options: { timeoutMs: number; onForce?: () => void }): Promise<{ forced: boolean }>;
}

export interface DrainableServerOptions {
  /**
   * Each HTTP/2 connection is sent GOAWAY after about this long (±10%, so a fleet's clients
   * don't reconnect at once): calls in flight finish, new ones open a new connection, which a
   * Kubernetes Service may route to another replica. 0 or unset: never.
   */
  maxConnectionAgeMs?: number;
}

/**
 * One cleartext port: h2c for gRPC, gRPC-Web and Connect, and HTTP/1.1 for
 * Connect unary and gRPC-Web (curl, HTTP probes). gRPC itself needs h2.
 */
export function createDrainableServer(handler: NodeHandler, { maxConnectionAgeMs = 0 }: DrainableServerOptions = {}): DrainableServer {
  const sockets = new Set<Socket>();
  const http1Sockets = new WeakSet<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  let active = 0;
  let draining = false;
  let onIdle: (() => void) | undefined;

  const track = (req: NodeRequest, res: NodeResponse) => {
    active++;
    res.once("close", () => {
      active--;
      if (active === 0) onIdle?.();
    });
    if (req.httpVersionMajor === 1) {
      http1Sockets.add(req.socket);
      // HTTP/1.1 keep-alive has no GOAWAY: tell the client not to reuse the socket.
      if (draining) res.setHeader("connection", "close");
    }
    handler(req, res);
  };

  const h2 = http2.createServer(track);
  const h1 = http.createServer(track);
  const tcp = createSniffingServer({ http1: h1, http2: h2 });

  tcp.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  h2.on("session", (session) => {
    sessions.add(session);
    const aged = maxConnectionAgeMs > 0 ? setTimeout(() => session.close(), maxConnectionAgeMs * (0.9 + Math.random() * 0.2)).unref() : undefined;
    session.once("close", () => {
      clearTimeout(aged);
      sessions.delete(session);
    });
    // A connection accepted just before close() still gets GOAWAY.
    if (draining) session.close();
  });

  return {
    listen({ host, port }) {
      return new Promise((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen(port, host, () => {
          tcp.off("error", reject);
          const bound = (tcp.address() as AddressInfo).port;
          const urlHost = host.includes(":") ? `[${host}]` : host;
          resolve({ port: bound, url: `http://${urlHost}:${bound}` });
        });
      });
    },
    inFlight: () => active,
    async close({ timeoutMs, onForce }) {
      draining = true;
      // Stop accepting; the callback fires once every connection has closed.
      const closed = new Promise<void>((resolve) => {
        if (!tcp.listening) return resolve();
        tcp.close(() => resolve());
      });
      // GOAWAY: existing streams finish, no new ones are accepted on these sessions.
      for (const session of sessions) session.close();
      const idle = new Promise<void>((resolve) => {
        if (active === 0) return resolve();
        onIdle = resolve;
      });
      const deadline = Date.now() + timeoutMs;
      const forced = !(await within(idle, timeoutMs));
      if (forced) {
        onForce?.();
      } else {
        // Drained: h2 sessions close themselves after GOAWAY; idle HTTP/1.1
        // keep-alive sockets need a FIN, or the listener never reports closed.
        for (const socket of sockets) if (http1Sockets.has(socket)) socket.end();
        await within(closed, Math.max(0, deadline - Date.now()));
      }
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await closed;
      return { forced };
    },
  };
}

/** Resolves true if `promise` settles within `ms`, false on timeout. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
