// "creator | object | has `email` and `name`": the uploader's name lives in
// core. Asked once per upload request (GetMe on behalf of the caller, before
// any transaction), never per row. The name is a courtesy: when core does not
// answer, the upload still succeeds with the name left empty.
import type { HandlerContext } from "@connectrpc/connect";
import { requireAuth } from "@signage/auth";
import { onBehalfOf } from "@signage/runtime";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import type { UploadDeps } from "./upload-deps.js";

/** A slow core must not hold an upload whose bytes are already stored. */
const NAME_TIMEOUT_MS = 3_000;

/** The calling user's name from core, or null (API clients, no name, core unavailable). Never rejects. */
export async function callerName(ctx: HandlerContext, deps: Pick<UploadDeps, "peers" | "files">): Promise<string | null> {
  const { caller } = requireAuth(ctx);
  if (caller.kind !== "user" || !deps.peers) return null;
  try {
    const { user } = await deps.peers.client(UserService, "core").getMe({}, { ...onBehalfOf(ctx), timeoutMs: NAME_TIMEOUT_MS });
    return user?.name?.trim() || null;
  } catch (err) {
    // The upload itself was cancelled (the client went away): nothing is wrong with core.
    if (!ctx.signal.aborted) deps.files.logger.warn({ err, userId: caller.userId }, "uploader's name not available from core; creator.name left empty");
    return null;
  }
}
