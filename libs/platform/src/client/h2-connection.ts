import * as http2 from "node:http2";

/** One HTTP/2 cleartext connection to a peer, opened on first use and replaced once it closes or goes away. */
export interface H2Connection {
  /** Opens a stream; a connection that is closing or gone is replaced first. */
  request(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream;
  /** Closes the current connection (GOAWAY; streams in flight finish). */
  close(): void;
}

interface Session {
  session: http2.ClientHttp2Session;
  open(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream;
}

/**
 * `origin` is e.g. "http://core:50051" (prior knowledge, no TLS: in-cluster traffic).
 * The connection holds the event loop open only while it has streams in flight, so an
 * idle client never keeps a process from exiting.
 */
export function createH2Connection(origin: string): H2Connection {
  let current: Session | undefined;

  function connect(): Session {
    const session = http2.connect(origin);
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
    let inFlight = 0;
    const forget = () => {
      if (current === entry) current = undefined;
    };
    // A failed connection fails its streams (they carry the cause); the next call reconnects.
    session.on("error", forget);
    session.on("goaway", forget);
    session.on("close", forget);
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
