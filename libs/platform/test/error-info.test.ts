// DESIGN.md's wire conventions: "services raise ConnectError with a code and a google.rpc.ErrorInfo
// detail (reason = stable key such as resourceLimit.error.limitReached, metadata = details)".
// Our own ErrorDetail stays (the gateway reads it); ErrorInfo is what gRPC clients in other
// languages look for.
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { ErrorInfoSchema } from "@signage/contracts/google/rpc/error_details_pb";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { BlobAccessService } from "@signage/contracts/signage/media/v1/upload_pb";
import { describe, expect, it } from "vitest";
import { createServiceTransport } from "./support/platform.js";
import { listeningService } from "./support/listening-service.js";

function register(router: ConnectRouter) {
  router.service(ProbeService, {
    public(req) {
      if (req.text === "plain") throw new ConnectError("no detail", Code.FailedPrecondition);
      throw new ConnectError("limit reached", Code.ResourceExhausted, undefined, [
        { desc: ErrorDetailSchema, value: { key: "resourceLimit.error.limitReached", details: { resource: "CUSTOMER", used: 3, limit: 3, ids: ["a", "b"] } } },
      ]);
    },
    viewerRead: () => ({ scope: "viewer" }),
    unannotated: () => ({}),
  });
  // A server-streaming handler's body runs only as the response is read, after the interceptors returned.
  router.service(BlobAccessService, {
    async *getPresignedBlob(req) {
      throw new ConnectError(`blob '${req.blob}' not found`, Code.NotFound, undefined, [{ desc: ErrorDetailSchema, value: { key: "storage.error.notFound", details: { blob: req.blob } } }]);
    },
  });
}

describe("errors carry google.rpc.ErrorInfo", () => {
  const server = listeningService(register);

  it.each(["grpc", "connect"] as const)("%s: reason = the key, metadata = the details as strings, ErrorDetail kept", async (protocol) => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: server.url, protocol }));
    const err = ConnectError.from(await probe.public({ text: "limit" }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.ResourceExhausted);
    const [info] = err.findDetails(ErrorInfoSchema);
    expect({ reason: info.reason, domain: info.domain, metadata: info.metadata }).toEqual({
      reason: "resourceLimit.error.limitReached",
      domain: "signage",
      metadata: { resource: "CUSTOMER", used: "3", limit: "3", ids: '["a","b"]' },
    });
    expect(err.findDetails(ErrorDetailSchema)[0].key).toBe("resourceLimit.error.limitReached");
    expect(err.findDetails(ErrorInfoSchema)).toHaveLength(1);
  });

  it.each(["grpc", "connect"] as const)("%s: a streaming response's error gets ErrorInfo and the size bound too", async (protocol) => {
    const blobs = createClient(BlobAccessService, createServiceTransport({ baseUrl: server.url, protocol }));
    const blob = "b".repeat(5000);
    const err = await (async () => {
      for await (const _ of blobs.getPresignedBlob({ blob })) void _;
    })().then(() => undefined, (e: unknown) => ConnectError.from(e));
    expect(err?.code).toBe(Code.NotFound);
    expect(err?.findDetails(ErrorInfoSchema)[0]?.reason).toBe("storage.error.notFound");
    expect(err!.rawMessage.length).toBeLessThan(1100);
  });

  it("an error without our detail gets no ErrorInfo either", async () => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: server.url, protocol: "grpc" }));
    const err = ConnectError.from(await probe.public({ text: "plain" }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.FailedPrecondition);
    expect(err.findDetails(ErrorInfoSchema)).toEqual([]);
  });
});
