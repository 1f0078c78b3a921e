// Calling media as an internal team does, without the gateway: its real routes and interceptors
// behind connect's serializing in-memory transport ("wire": messages encoded as over the network).
import { ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { createInMemoryTransport } from "@signage/platform";
import type { TestPlatform } from "@signage/testing";

/** A transport to the platform's media service that sends `token` as the caller's bearer token. */
export function mediaWireTransport(platform: TestPlatform, token: string): Transport {
  const media = platform.running.find((m) => m.name === "media")!;
  const withToken: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  return createInMemoryTransport(media.service.routes, { interceptors: media.service.interceptors, clientInterceptors: [withToken], mode: "wire" });
}

/** The code and error key a call failed with (fails the test if it succeeded). */
export async function failureOf(call: Promise<unknown>): Promise<{ code: number; key: string | undefined }> {
  const err = await call.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}
