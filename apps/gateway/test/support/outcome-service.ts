// An in-test UserService whose `GET /api/v2/user/me` answers by the bearer token: `ok` a user,
// `crash` Internal (an unexpected failure: the gateway's 500), `down` Unavailable (an expected
// 503), `denied` PermissionDenied (a 403), `slow` a user after 300 ms.
import { Code, ConnectError, createRouterTransport, type Transport } from "@connectrpc/connect";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";

/** The message of the `crash` outcome's error: internal, never sent to the client. */
export const CRASH_MESSAGE = "relation core.app_user exploded";

export function outcomeTransport(): Transport {
  return createRouterTransport((router) =>
    router.service(UserService, {
      async getMe(_req, ctx) {
        const token = ctx.requestHeader.get("authorization")?.replace(/^Bearer /, "");
        if (token === "crash") throw new ConnectError(CRASH_MESSAGE, Code.Internal);
        if (token === "down") throw new ConnectError("core is not reachable", Code.Unavailable);
        if (token === "denied") throw new ConnectError("no", Code.PermissionDenied);
        if (token === "slow") await new Promise((r) => setTimeout(r, 300));
        return { user: { email: "a@b.c" } };
      },
    }),
  );
}
