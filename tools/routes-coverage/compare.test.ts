import { describe, expect, it } from "vitest";
import { allFiles } from "@signage/contracts";
import { buildRouteTable } from "@signage/gateway";
import { compareRoutes, parseRoutesTsv, routeKey } from "./compare.js";

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
});
