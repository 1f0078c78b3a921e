import { getEventListeners } from "node:events";
import { Code, ConnectError, createClient, createContextKey, createContextValues, type ConnectRouter } from "@connectrpc/connect";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { BlobAccessService, FileUploadService } from "@signage/contracts/signage/media/v1/upload_pb";
import { describe, expect, it } from "vitest";
import { createDirectTransport, createInMemoryTransport, type Interceptor } from "./support/platform.js";

const callerNote = createContextKey<string>("none");

/** ProbeService.Public echoing what crossed the boundary: a header, the caller's context value, the request object. */
function registerEcho(seen: { request?: unknown; signal?: AbortSignal }, hold?: Promise<void>) {
  return (router: ConnectRouter) =>
    router.service(ProbeService, {
      async public(req, ctx) {
        seen.request = req;
        seen.signal = ctx.signal;
        await hold;
        ctx.responseHeader.set("x-answer", "42");
        ctx.responseTrailer.set("x-trailer", "done");
        return { text: `${req.text} header=${ctx.requestHeader.get("x-note")} value=${ctx.values.get(callerNote)}` };
      },
      viewerRead() {
        throw new TypeError("database password is hunter2");
      },
    });
}

describe("createDirectTransport (the in-process transport of the embedded composition)", () => {
  it("hands the message over without serializing; only headers cross, as on the network", async () => {
    const seen: { request?: unknown } = {};
    const transport = createDirectTransport(registerEcho(seen));
    const values = createContextValues().set(callerNote, "client-side only");
    const response = await transport.unary(ProbeService.method.public, undefined, undefined, { "x-note": "hello" }, { text: "hi" }, values);
    expect(response.message.text).toBe("hi header=hello value=none");
    expect((seen.request as { text: string }).text).toBe("hi");
    expect(response.header.get("x-answer")).toBe("42");
    expect(response.trailer.get("x-trailer")).toBe("done");
  });

  it("is the default of createInMemoryTransport; mode 'wire' serializes through connect's router transport", async () => {
    const seen: { request?: unknown } = {};
    const direct = createClient(ProbeService, createInMemoryTransport(registerEcho(seen)));
    const sent = { $typeName: "signage.testing.v1.PublicRequest" as const, text: "same object" };
    await direct.public(sent);
    expect(seen.request).toBe(sent);
    const wire = createClient(ProbeService, createInMemoryTransport(registerEcho(seen), { mode: "wire" }));
    await wire.public(sent);
    expect(seen.request).not.toBe(sent);
    expect(seen.request).toEqual(sent);
  });

  it("runs client interceptors, then server interceptors (first outermost), around the implementation", async () => {
    const order: string[] = [];
    const tag =
      (name: string): Interceptor =>
      (next) =>
      async (req) => {
        order.push(`${name}>`);
        if (name === "client") req.header.set("x-note", "from the client interceptor");
        const res = await next(req);
        order.push(`<${name}`);
        return res;
      };
    const client = createClient(
      ProbeService,
      createDirectTransport(registerEcho({}), { interceptors: [tag("server-outer"), tag("server-inner")], clientInterceptors: [tag("client")] }),
    );
    expect((await client.public({ text: "x" })).text).toBe("x header=from the client interceptor value=none");
    expect(order).toEqual(["client>", "server-outer>", "server-inner>", "<server-inner", "<server-outer", "<client"]);
  });

  it("keeps a non-ConnectError's message inside the service (Internal 'internal error'), as connect's handlers do", async () => {
    const client = createClient(ProbeService, createDirectTransport(registerEcho({})));
    const err = ConnectError.from(await client.viewerRead({}).catch((e: unknown) => e));
    expect(err.code).toBe(Code.Internal);
    expect(err.rawMessage).toBe("internal error");
    expect(err.message).not.toContain("hunter2");
  });

  it("answers Unimplemented for methods the service leaves out or does not serve", async () => {
    const client = createClient(ProbeService, createDirectTransport(registerEcho({})));
    await expect(client.ownerWrite({})).rejects.toMatchObject({ code: Code.Unimplemented });
    const other = createClient(FileUploadService, createDirectTransport(registerEcho({})));
    await expect(other.recoverUpload({})).rejects.toMatchObject({ code: Code.Unimplemented });
  });

  it("fails with DeadlineExceeded when the timeout passes, and aborts the handler's signal", async () => {
    const seen: { signal?: AbortSignal } = {};
    const client = createClient(ProbeService, createDirectTransport(registerEcho(seen, new Promise(() => {}))));
    await expect(client.public({ text: "slow" }, { timeoutMs: 30 })).rejects.toMatchObject({ code: Code.DeadlineExceeded });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("fails with Canceled when the caller aborts", async () => {
    const seen: { signal?: AbortSignal } = {};
    const client = createClient(ProbeService, createDirectTransport(registerEcho(seen, new Promise(() => {}))));
    const caller = new AbortController();
    const call = client.public({ text: "slow" }, { signal: caller.signal });
    await new Promise((r) => setTimeout(r, 10));
    caller.abort();
    await expect(call).rejects.toMatchObject({ code: Code.Canceled });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("fails with Canceled at once when the caller's signal is already aborted; the handler sees it aborted", async () => {
    const seen: { signal?: AbortSignal } = {};
    const client = createClient(ProbeService, createDirectTransport(registerEcho(seen, new Promise(() => {}))));
    await expect(client.public({ text: "late" }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: Code.Canceled });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("leaves no listener on the caller's signal and no pending deadline timer once a unary call ends", async () => {
    const transport = createDirectTransport(registerEcho({}));
    const caller = new AbortController();
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    for (let i = 0; i < 20; i++) await transport.unary(ProbeService.method.public, caller.signal, 60_000, {}, { text: "quick" });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(process.getActiveResourcesInfo().filter((r) => r === "Timeout").length).toBe(timersBefore);
  });

  it("streams a client stream's messages to the implementation as the caller produces them, and a server stream back", async () => {
    const received: string[] = [];
    const routes = (router: ConnectRouter) => {
      router.service(FileUploadService, {
        async uploadPart(requests) {
          let size = 0;
          for await (const r of requests) {
            received.push(r.body?.kind.case === "chunk" ? `chunk ${r.body.kind.value.length}` : `part ${r.partNumber}`);
            if (r.body?.kind.case === "chunk") size += r.body.kind.value.length;
          }
          return { partNumber: 1, uploadedSize: BigInt(size), success: true };
        },
      });
      router.service(BlobAccessService, {
        async *getPresignedBlob(req) {
          for (const piece of req.blob.split(",")) yield { body: { kind: { case: "chunk", value: new TextEncoder().encode(piece) } } };
        },
      });
    };
    const transport = createDirectTransport(routes);
    const client = createClient(FileUploadService, transport);
    const blobs = createClient(BlobAccessService, transport);
    async function* parts() {
      yield { partNumber: 1 };
      yield { body: { kind: { case: "chunk" as const, value: new Uint8Array(3) } } };
      yield { body: { kind: { case: "chunk" as const, value: new Uint8Array(5) } } };
    }
    const result = await client.uploadPart(parts());
    expect(result.uploadedSize).toBe(8n);
    expect(received).toEqual(["part 1", "chunk 3", "chunk 5"]);
    const pieces: string[] = [];
    for await (const r of blobs.getPresignedBlob({ blob: "a,bc,def" })) pieces.push(new TextDecoder().decode(r.body?.kind.value as Uint8Array));
    expect(pieces).toEqual(["a", "bc", "def"]);
  });
});
