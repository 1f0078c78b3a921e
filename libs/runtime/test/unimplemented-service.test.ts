import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, test } from "vitest";
import { readErrorDetail } from "@signage/auth";
import { StatisticsService } from "@signage/contracts/signage/reporting/v1/statistics_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { contractOnlyModule, type ModuleContext } from "../src/index.js";

describe("a service whose operations are not built yet (contractOnlyModule)", () => {
  test("answers Unimplemented with the key the REST edge's 501 carries, naming the method", async () => {
    // register() touches nothing of the context; the tenant directory reads its knex lazily.
    const instance = await contractOnlyModule("reporting", [StatisticsService], new URL("file:///unused/")).create({ knex: undefined } as unknown as ModuleContext);
    const transport = createRouterTransport((router) => instance.register(router));
    const error = await createClient(StatisticsService, transport)
      .getSystemDashboard({})
      .then(() => undefined, (err: unknown) => ConnectError.from(err));
    expect(error?.code).toBe(Code.Unimplemented);
    expect(error?.rawMessage).toBe("signage.reporting.v1.StatisticsService/GetSystemDashboard is not built yet");
    expect(readErrorDetail(error)).toEqual({ key: "error.notImplemented", details: { service: "signage.reporting.v1.StatisticsService", method: "GetSystemDashboard" } });
  });

  test("refuses a service whose methods the contract does not mark not_built (the OpenAPI document would call them built)", () => {
    expect(() => contractOnlyModule("reporting", [ProbeService], new URL("file:///unused/"))).toThrow(
      "signage.testing.v1.ProbeService/Public answers 501 here: mark it (signage.options.v1.not_built) in its proto",
    );
  });
});
