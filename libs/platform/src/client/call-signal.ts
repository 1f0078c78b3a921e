import { Code, ConnectError } from "@connectrpc/connect";

const neverAborted = new AbortController().signal;

/** False for the signal of a call with neither deadline nor caller signal (shared by all such calls: listening on it would pile up listeners). */
export function canAbort(signal: AbortSignal): boolean {
  return signal !== neverAborted;
}

/** The signal a call runs under, and how its result settles: with the call, or Canceled / DeadlineExceeded as soon as the signal aborts. */
export interface CallSignal {
  signal: AbortSignal;
  settle<T>(result: Promise<T>): Promise<T>;
}

/** Starts watching for an abort (calling `stop` with its reason, never synchronously) and returns how to stop watching. */
type Watch = (stop: (reason: unknown) => void) => () => void;

function settleUnlessStopped<T>(result: Promise<T>, watch: Watch): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const release = watch((reason) => {
      release();
      reject(abortError(reason));
    });
    result.then(
      (value) => {
        release();
        resolve(value);
      },
      (err) => {
        release();
        reject(ConnectError.from(err));
      },
    );
  });
}

const unlinked: CallSignal = { signal: neverAborted, settle: (result) => settleUnlessStopped(result, () => () => {}) };

/**
 * A unary call ends when its response arrives, so one controller, a plain timer and a
 * listener on the caller's signal, all released at the end, cover it. Every unary call
 * (in-process and over the network) takes this path: AbortSignal.timeout + AbortSignal.any
 * cost two more signals, weak references and a DOMException per call.
 */
export function unaryCallSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  const hasDeadline = timeoutMs !== undefined && timeoutMs > 0;
  if (!hasDeadline && !caller) return unlinked;
  const controller = new AbortController();
  if (caller?.aborted) controller.abort(caller.reason);
  const watch: Watch = (stop) => {
    if (controller.signal.aborted) {
      queueMicrotask(() => stop(controller.signal.reason));
      return () => {};
    }
    const abort = (reason: unknown) => {
      controller.abort(reason);
      stop(reason);
    };
    const onCallerAbort = () => abort(caller!.reason);
    const timer = hasDeadline ? setTimeout(() => abort(deadlineExceeded()), timeoutMs) : undefined;
    caller?.addEventListener("abort", onCallerAbort, { once: true });
    return () => {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onCallerAbort);
    };
  };
  return { signal: controller.signal, settle: (result) => settleUnlessStopped(result, watch) };
}

/** A stream outlives its response (the deadline still applies to its messages), so its signal is left to the garbage collector. */
export function streamCallSignal(caller: AbortSignal | undefined, timeoutMs: number | undefined): CallSignal {
  if (timeoutMs === undefined || timeoutMs <= 0) return caller ? watching(caller) : unlinked;
  const deadline = AbortSignal.timeout(timeoutMs);
  return watching(caller ? AbortSignal.any([caller, deadline]) : deadline);
}

function watching(signal: AbortSignal): CallSignal {
  const watch: Watch = (stop) => {
    const onAbort = () => stop(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) queueMicrotask(onAbort);
    return () => signal.removeEventListener("abort", onAbort);
  };
  return { signal, settle: (result) => settleUnlessStopped(result, watch) };
}

export function deadlineExceeded(): ConnectError {
  return new ConnectError("the operation timed out", Code.DeadlineExceeded);
}

function abortError(reason: unknown): ConnectError {
  if (reason instanceof DOMException && reason.name === "TimeoutError") return deadlineExceeded();
  return ConnectError.from(reason, Code.Canceled);
}
