import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";

export interface ProbeHooks {
  /** Awaited inside Public before answering (to hold a call in flight). */
  beforePublic?: (text: string) => Promise<void> | void;
}

/** ProbeService as the tests host it: Public echoes, Unannotated fails. */
export function registerProbe(hooks: ProbeHooks = {}) {
  return (router: ConnectRouter) => {
    router.service(ProbeService, {
      async public(req) {
        await hooks.beforePublic?.(req.text);
        return { text: `echo: ${req.text}` };
      },
      viewerRead: () => ({ scope: "viewer" }),
      unannotated() {
        throw new ConnectError("denied", Code.PermissionDenied);
      },
    });
  };
}
