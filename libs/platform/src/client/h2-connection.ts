import * as http2 from "node:http2";

/** One HTTP/2 cleartext connection to a peer, opened on first use and replaced once it closes or goes away. */
export interface H2Connection {
  /** Opens a stream; a connection that is closing or gone is replaced first. */
  request(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream;
  /** Closes the current connection (GOAWAY; streams in flight finish). */
  close(): void;
}

export interface KeepAliveOptions {
  /** While calls are in flight, the peer is sent a PING this often. */
  pingIntervalMs: number;
  /** A PING unanswered this long means the peer is gone: the connection and its calls fail (Unavailable). */
  pingTimeoutMs: number;
}

/**
 * A peer that vanished without closing its connection (node lost, network cut) would leave
 * calls without a deadline waiting for TCP to give up, many minutes later; a PING exposes it.
 */
export const DEFAULT_KEEP_ALIVE: KeepAliveOptions = { pingIntervalMs: 10_000, pingTimeoutMs: 10_000 };

interface Session {
  session: http2.ClientHttp2Session;
  open(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream;
}

/**
 * `origin` is e.g. "http://core:50051" (prior knowledge, no TLS: in-cluster traffic).
 * The connection holds the event loop open only while it has streams in flight, so an
 * idle client never keeps a process from exiting.
 */
export function createH2Connection(origin: string, keepAlive: KeepAliveOptions = DEFAULT_KEEP_ALIVE): H2Connection {
  let current: Session | undefined;

  function connect(): Session {
    const session = http2.connect(origin);
    let inFlight = 0;
    // Checks only while calls wait; an idle connection is left alone.
    const pinger = setInterval(() => {
      if (inFlight > 0) checkPeer(session, keepAlive.pingTimeoutMs);
    }, keepAlive.pingIntervalMs).unref();
    const entry: Session = {
      session,
      open(headers) {
        const stream = session.request(headers);
        if (inFlight++ === 0) session.ref();
        stream.once("close", () => {
          if (--inFlight === 0 && !session.destroyed) session.unref();
        });
        return stream;
      },
    };
    const forget = () => {
      if (current === entry) current = undefined;
    };
    // A failed connection fails its streams (they carry the cause); the next call reconnects.
    session.on("error", forget);
    session.on("goaway", forget);
    session.on("close", () => {
      clearInterval(pinger);
      forget();
    });
    session.unref();
    return entry;
  }

  const usable = (entry: Session | undefined): entry is Session => !!entry && !entry.session.closed && !entry.session.destroyed;

  return {
    request(headers) {
      if (!usable(current)) current = connect();
      const entry = current;
      try {
        return entry.open(headers);
      } catch (err) {
        // The session went away between the check and the request (GOAWAY in flight): once more on a fresh one.
        if (usable(entry)) throw err;
        if (current === entry) current = undefined;
        current = connect();
        return current.open(headers);
      }
    },
    close() {
      current?.session.close();
      current = undefined;
    },
  };
}

/** Sends a PING; without its answer in time the session is destroyed, failing its streams as a lost connection. */
function checkPeer(session: http2.ClientHttp2Session, timeoutMs: number): void {
  if (session.destroyed || session.closed) return;
  const timer = setTimeout(() => {
    const error: NodeJS.ErrnoException = new Error(`no answer to an HTTP/2 PING within ${timeoutMs} ms: the peer is unreachable`);
    error.code = "ETIMEDOUT";
    session.destroy(error);
  }, timeoutMs).unref();
  try {
    session.ping(() => clearTimeout(timer));
  } catch {
    // Too many unanswered PINGs already, or the session is closing: the timer decides.
  }
}
