// A latency probe whose client runs in its own process (remote-get-child.ts), as
// an API consumer's would: the client's own CPU (request building, response
// parsing) is not charged to the server it measures. Each request is timed in
// the child, so the IPC hop is not part of the figure.
import { fork } from "node:child_process";

export interface RemoteGet {
  /** One GET; `ms` as the child measured it (send to last byte). */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; bytes: number; ms: number }>;
  close(): void;
}

interface Answer {
  id: number;
  status?: number;
  bytes?: number;
  ms?: number;
  error?: string;
}

export function createRemoteGet(baseUrl: string): RemoteGet {
  const child = fork(new URL("./remote-get-child.ts", import.meta.url), [baseUrl], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, { resolve: (a: Answer) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  child.on("message", (answer: Answer) => {
    const pending = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error) pending?.reject(new Error(answer.error));
    else pending?.resolve(answer);
  });
  child.on("exit", (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`probe process exited (${code})`));
    waiting.clear();
  });
  return {
    get: (path, headers = {}) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: (a) => resolve({ status: a.status!, bytes: a.bytes!, ms: a.ms! }), reject });
        child.send({ id, path, headers });
      }),
    close: () => child.disconnect(),
  };
}
