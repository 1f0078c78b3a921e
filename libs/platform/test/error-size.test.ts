// A service error that echoes a huge input (an unknown 200 KB id, a bad 200 KB tag) must reach a
// gRPC caller with its code: gRPC puts the message and details into HTTP/2 trailers, which peers
// refuse beyond a few KB (the stream was reset and the caller saw Internal, while a Connect
// caller, reading the error from the body, saw NotFound). Errors mapped by `errorMappers` are
// the API, not handler failures, so they are not logged as such.
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@signage/contracts/signage/common/v1/error_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createService, createServiceTransport, type Interceptor, type Service } from "./support/platform.js";
import { memoryLogger } from "./support/memory-logger.js";

class KnownProblem extends Error {}

function register(router: ConnectRouter) {
  router.service(ProbeService, {
    public(req) {
      if (req.text.startsWith("known:")) throw new KnownProblem("a known problem");
      if (req.text.startsWith("many:")) {
        const ids = Array.from({ length: Number(req.text.slice(5)) }, (_, i) => `id-${i}`);
        throw new ConnectError("unknown ids", Code.InvalidArgument, undefined, [{ desc: ErrorDetailSchema, value: { key: "thing.error.unknownIds", details: { ids, count: ids.length } } }]);
      }
      throw new ConnectError(`thing '${req.text}' not found`, Code.NotFound, undefined, [
        { desc: ErrorDetailSchema, value: { key: "thing.error.notFound", details: { id: req.text, nested: { ids: [req.text] }, n: 1 } } },
      ]);
    },
    viewerRead: () => ({ scope: "viewer" }),
    unannotated: () => ({}),
  });
}

const mapKnown: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (e) {
    throw e instanceof KnownProblem ? new ConnectError(e.message, Code.InvalidArgument) : e;
  }
};

describe("service errors echoing large inputs", () => {
  const log = memoryLogger();
  let service: Service;
  let url: string;
  beforeAll(async () => {
    service = createService({ name: "probe", logger: log.logger, register, errorMappers: [mapKnown] });
    ({ url } = await service.listen({ host: "127.0.0.1", port: 0 }));
  });
  afterAll(() => service.close({ timeoutMs: 1000 }));

  const huge = "x".repeat(200_000);

  it.each(["grpc", "connect"] as const)("%s: the caller gets NotFound with the message and detail strings cut to 1024 characters", async (protocol) => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol }));
    const err = ConnectError.from(await probe.public({ text: huge }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.NotFound);
    expect(err.rawMessage.startsWith("thing 'xxx")).toBe(true);
    expect(err.rawMessage.length).toBeLessThan(1100);
    expect(err.rawMessage).toMatch(/more characters\)$/);
    const detail = err.findDetails(ErrorDetailSchema)[0];
    expect(detail.key).toBe("thing.error.notFound");
    const details = detail.details as { id: string; nested: { ids: string[] }; n: number };
    expect(details.id.length).toBeLessThan(1100);
    expect(details.nested.ids[0].length).toBeLessThan(1100);
    expect(details.n).toBe(1);
  });

  // The cut never splits a surrogate pair: gRPC percent-encodes grpc-message, and a lone surrogate
  // made that throw (the caller got Internal again). Here an emoji straddles the 1024th character.
  it("grpc: an error cut inside an emoji still reaches the caller as NotFound", async () => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol: "grpc" }));
    const text = `${"x".repeat(1024 - "thing '".length - 1)}${"😀".repeat(1000)}`;
    const err = ConnectError.from(await probe.public({ text }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.NotFound);
    expect(err.rawMessage).toMatch(/x… \(\d+ more characters\)$/);
  });

  // 20,000 short ids are small strings but a 300 KB detail: lists are cut to 100 items too.
  it.each(["grpc", "connect"] as const)("%s: a detail list of 20,000 ids reaches the caller cut to 100, with its code", async (protocol) => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol }));
    const err = ConnectError.from(await probe.public({ text: "many:20000" }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.InvalidArgument);
    const details = err.findDetails(ErrorDetailSchema)[0].details as { ids: string[]; count: number };
    expect(details.ids).toHaveLength(100);
    expect(details.ids[99]).toBe("id-99");
    expect(details.count).toBe(20000);
  });

  it("short errors are passed on as they are", async () => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol: "grpc" }));
    const err = ConnectError.from(await probe.public({ text: "abc" }).catch((e: unknown) => e));
    expect(err.code).toBe(Code.NotFound);
    expect(err.rawMessage).toBe("thing 'abc' not found");
    expect(err.findDetails(ErrorDetailSchema)[0].details).toEqual({ id: "abc", nested: { ids: ["abc"] }, n: 1 });
  });

  it("an error an errorMapper turns into a ConnectError is not logged as a handler failure", async () => {
    const probe = createClient(ProbeService, createServiceTransport({ baseUrl: url, protocol: "connect" }));
    await expect(probe.public({ text: "known: 1" })).rejects.toMatchObject({ code: Code.InvalidArgument });
    expect(log.lines().filter((l) => l.msg === "rpc handler failed")).toEqual([]);
  });
});
