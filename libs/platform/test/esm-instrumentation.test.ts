import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

interface SpanSummary {
  name: string;
  kind: number;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/**
 * Runs a fixture app the way apps are started in production
 * (`node --import tsx --import @signage/platform/register main.ts`), since
 * the ESM loader hook can't be exercised inside vitest's own module loader.
 * The database URL points at a closed port: pg spans are made either way.
 */
async function runFixture(): Promise<{ result: Record<string, string>; spans: SpanSummary[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--import", "@signage/platform/register", "test/fixtures/instrumented-main.ts"],
    { cwd: packageDir, env: { ...process.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }, timeout: 30_000 },
  );
  const line = stdout.split("\n").find((l) => l.startsWith("SPANS "));
  if (!line) throw new Error(`fixture printed no spans:\n${stdout}`);
  return JSON.parse(line.slice("SPANS ".length));
}

describe("auto-instrumentation under ESM + tsx", () => {
  it("traces koa, http, pg imported as ESM, pg required by knex, and RPCs without duplicate parents", async () => {
    const { result, spans } = await runFixture();
    expect(result.koaStatus).toBe(200);
    const scopes = (scope: string) => spans.filter((s) => s.scope === `@opentelemetry/instrumentation-${scope}`);

    // Koa's ESM entry (dist/koa.mjs) is only patchable through the loader hook.
    // Router layers are traced, plain middleware is not (instrumentations.ts).
    expect(scopes("koa").map((s) => s.name)).toContain("router - /hello");
    expect(scopes("koa").map((s) => s.name).filter((name) => name.startsWith("middleware"))).toEqual([]);
    const [httpServer] = scopes("http").filter((s) => s.kind === 1 /* SERVER */);
    expect(httpServer).toBeDefined();
    expect(scopes("koa")[0].parentSpanId).toBe(httpServer.spanId);

    for (const parentName of ["pg-esm", "pg-knex"]) {
      const parent = spans.find((s) => s.name === parentName)!;
      const children = scopes("pg").filter((s) => s.parentSpanId === parent.spanId);
      expect(children.map((s) => s.name), parentName).toContain("pg.connect");
    }

    // RPC spans: over h2 (not auto-instrumented) SERVER is the child of our
    // CLIENT span; over HTTP/1.1 it nests under the http SERVER span, which
    // itself is the child of fetch's (undici) CLIENT span: one chain, no siblings.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentOf = (s: SpanSummary) => (s.parentSpanId ? byId.get(s.parentSpanId) : undefined);
    const rpcServers = spans.filter((s) => s.name === "signage.testing.v1.ProbeService/Public" && s.kind === 1);
    expect(rpcServers).toHaveLength(2);
    const chains = rpcServers.map((server) => {
      const chain: string[] = [];
      for (let s: SpanSummary | undefined = server; s; s = parentOf(s)) chain.push(`${s.scope.replace("@opentelemetry/instrumentation-", "")}:${s.name}:${s.kind}`);
      return chain.join(" <- ");
    });
    expect(chains.sort()).toEqual([
      "fixture:signage.testing.v1.ProbeService/Public:1 <- fixture:signage.testing.v1.ProbeService/Public:2 <- fixture:rpc-h2:0",
      "fixture:signage.testing.v1.ProbeService/Public:1 <- http:POST:1 <- undici:POST:2 <- fixture:rpc-http1:0",
    ]);
    expect(result).toMatchObject({ rpcHttp1: 200, rpcH2: "echo: x" });
  }, 40_000);
});
