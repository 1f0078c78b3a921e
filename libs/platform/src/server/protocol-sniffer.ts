import * as net from "node:net";

/** Every HTTP/2 prior-knowledge connection starts with "PRI * HTTP/2.0\r\n...". */
const H2_PREFACE = Buffer.from("PRI", "latin1");

export interface SnifferTargets {
  http1: net.Server;
  http2: net.Server;
  /** Connections that send nothing for this long are dropped. */
  prefaceTimeoutMs?: number;
}

/**
 * A TCP server that hands each connection to the HTTP/1.1 or the h2c server
 * by its first bytes. Node 20's http2.createServer only honours allowHTTP1
 * behind TLS (ALPN), so cleartext HTTP/1.1 on the same port needs this.
 */
export function createSniffingServer({ http1, http2, prefaceTimeoutMs = 10_000 }: SnifferTargets): net.Server {
  return net.createServer((socket) => {
    let buffered = Buffer.alloc(0);
    // Until handed over, nobody else listens for errors on this socket.
    const onError = () => socket.destroy();
    const onTimeout = () => socket.destroy();
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < H2_PREFACE.length) return;
      socket.off("data", onData);
      socket.off("error", onError);
      socket.off("timeout", onTimeout);
      socket.setTimeout(0);
      socket.pause();
      // Give the bytes back: both servers read them from the socket's buffer.
      socket.unshift(buffered);
      const isH2 = buffered.subarray(0, H2_PREFACE.length).equals(H2_PREFACE);
      (isH2 ? http2 : http1).emit("connection", socket);
      // The HTTP/1 parser only sees buffered bytes as 'data' events.
      if (!isH2) socket.resume();
    };
    socket.on("error", onError);
    socket.on("data", onData);
    socket.setTimeout(prefaceTimeoutMs, onTimeout);
  });
}
