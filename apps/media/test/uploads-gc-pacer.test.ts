// gc-pacer.ts: with --expose-gc, media starts an incremental major GC every
// PACE bytes of upload body, so promoted chunk buffers don't pile up to V8's
// ~64 MB external-memory trigger ("media process stays under 150 MB RSS").
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { GcPacer } from "../src/uploads/gc-pacer.js";

describe("GcPacer", () => {
  it("asks for an async major GC once per pace of bytes, through its pass-through stream too", async () => {
    const calls: unknown[] = [];
    const pacer = new GcPacer((o) => calls.push(o), 1000);
    pacer.observe(600);
    expect(calls).toHaveLength(0);
    pacer.observe(600);
    expect(calls).toEqual([{ type: "major", execution: "async" }]);
    const received: Buffer[] = [];
    await pipeline(Readable.from([Buffer.alloc(500), Buffer.alloc(500), Buffer.alloc(1500)]), pacer.through(), new Writable({ write: (c, _e, done) => (received.push(c), done()) }));
    expect(Buffer.concat(received)).toHaveLength(2500);
    expect(calls).toHaveLength(3);
  });

  it("does nothing without an exposed gc", () => {
    expect(() => new GcPacer(undefined, 1).observe(10)).not.toThrow();
  });
});
