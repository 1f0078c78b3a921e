import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allFiles } from "@signage/contracts";
import { buildRouteTable } from "@signage/gateway";
import { compareRoutes, parseRoutesTsv, routeKey } from "./compare.js";
import { documentedOperations, renderDocumentedOperations } from "./documented.js";

const inventory = process.env.ROUTES_TSV || fileURLToPath(new URL("../../../shared/spec/routes.tsv", import.meta.url));
const vendored = fileURLToPath(new URL("../../apps/gateway/src/routes/documented-operations.ts", import.meta.url));

const tsv = [
  "method\tpath\tmin_role\tcustomer_selector\tservice\tseed\toperation",
  "GET\t/api/customer\t?\t-\tcore\tx\tSearch",
  "PUT\t/api/customer/{id}\tADMIN\t-\tcore\tx\tUpdate",
  "GET\t/api/v2/device\t?\tC\tcore\tx\tList devices",
  "?\t?\tVIEWER\tC\tmedia\tx\tBreadcrumb",
].join("\n");

describe("routes coverage", () => {
  it("matches routes by method and path template, ignoring parameter names", () => {
    expect(routeKey("GET", "/api/customer/{customerId}")).toBe(routeKey("GET", "/api/customer/{id}"));
  });

  it("reports covered, missing and role mismatches per service", () => {
    const [core] = compareRoutes(parseRoutesTsv(tsv), buildRouteTable(allFiles));
    expect(core.service).toBe("core");
    expect(core.covered.map((r) => r.path)).toEqual(["/api/customer", "/api/customer/{id}"]);
    expect(core.missing.map((r) => r.path)).toEqual(["/api/v2/device"]);
    // Documented ADMIN here on purpose: the contract says OWNER (network owners update members).
    expect(core.roleMismatches).toEqual([{ route: expect.objectContaining({ path: "/api/customer/{id}" }), ours: "OWNER" }]);
  });

  // The gateway answers 501 for documented operations no RPC serves: from this vendored copy.
  it.skipIf(!existsSync(inventory))("the gateway's documented operations are the inventory's (else: npm run routes:vendor)", () => {
    expect(readFileSync(vendored, "utf8")).toBe(renderDocumentedOperations(documentedOperations(readFileSync(inventory, "utf8"))));
  });

  it("summaries end at the first ':' or ';' outside parentheses", () => {
    const [op] = documentedOperations(["h", "POST\t/api/x\t?\t-\tcore\ts\tTag devices (only way; also batch): query search; body"].join("\n"));
    expect(op).toEqual({ method: "POST", path: "/api/x", minRole: "?", service: "core", summary: "Tag devices (only way; also batch)" });
  });
});
