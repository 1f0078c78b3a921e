import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import type { StreamRequest } from "@connectrpc/connect";
import { ProbeService, ViewerReadRequestSchema } from "@signage/contracts/signage/testing/v1/probe_pb";
import { methodPolicy } from "../src/index.js";
import { peekCustomerId } from "../src/interceptor/requested-customer.js";

describe("peekCustomerId", () => {
  const method = ProbeService.method.viewerRead;
  const field = methodPolicy(method).customerIdField!;

  it("the customer_selector option points at the request's customer_id field", () => {
    expect(field.name).toBe("customer_id");
    expect(methodPolicy(ProbeService.method.sensitiveChange).customerIdField).toBeUndefined();
  });

  it("reads a streaming request's first message and replays every message to the handler", async () => {
    const messages = [7n, 8n].map((id) => create(ViewerReadRequestSchema, { customerId: id }));
    const req = {
      stream: true,
      method,
      message: (async function* () {
        yield* messages;
      })(),
    } as unknown as StreamRequest;
    const peeked = await peekCustomerId(req, field);
    expect(peeked.requestedCustomerId).toBe(7);
    const seen = [];
    for await (const m of peeked.req.message) seen.push(m);
    expect(seen).toEqual(messages);
  });
});
