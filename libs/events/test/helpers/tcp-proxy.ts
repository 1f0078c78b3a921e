import net from "node:net";

/**
 * A TCP proxy in front of the shared NATS server, so a test can cut one
 * client's connection (an outage as that client sees it) without touching the
 * server other people use.
 */
export interface TcpProxy {
  url: string;
  /** Drops every connection and refuses new ones until restore(). */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(Number(targetPort || 4222), hostname);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on("close", () => sockets.delete(sock));
          sock.on("error", () => undefined);
        }
        client.pipe(upstream).on("error", () => undefined);
        upstream.pipe(client).on("error", () => undefined);
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });

  const stopListening = () =>
    new Promise<void>((resolve) => {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  // While cut, a client reconnecting to the port may be given that very port as its own end
  // (TCP self-connect): it holds it until the client gives up on that socket. Try again meanwhile.
  const relisten = async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await listen();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 100) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };

  await listen();
  return {
    url: `nats://127.0.0.1:${port}`,
    cut: stopListening,
    restore: relisten,
    close: stopListening,
  };
}
