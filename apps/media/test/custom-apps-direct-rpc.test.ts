// Private apps over media's own RPC surface, as internal teams call it (gRPC/Connect, not the
// REST edge): enum numbers the contract does not define and over-long names are 400, never
// silently replaced by a default or stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, createClient, type Client } from "@connectrpc/connect";
import { CustomAppService, type CustomAppOwnershipType, type CustomAppType, type CustomAppWidgetCategory } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { startCustomAppsPlatform, type CustomAppsPlatform } from "./support/custom-apps-platform.js";
import { failureOf, mediaWireTransport } from "./support/direct-rpc.js";

let env: CustomAppsPlatform;
let apps: Client<typeof CustomAppService>;
let customerId: bigint;

beforeAll(async () => {
  env = await startCustomAppsPlatform();
  const tenant = await env.tenant();
  customerId = BigInt(tenant.customerId);
  apps = createClient(CustomAppService, mediaWireTransport(env.platform, tenant.owner.token));
}, 60_000);
afterAll(() => env?.close());

const failure = failureOf;
const invalid = { code: Code.InvalidArgument, key: "customApp.error.invalidValue" };
const count = async () => (await apps.listMyApps({ query: { size: 1 } })).page!.totalElements;

describe("private apps over RPC", () => {
  it("undefined type and widgetCategory numbers are 400 on create, and nothing is written", async () => {
    const before = await count();
    expect(await failure(apps.createMyApp({ app: { name: "t", type: 999 as CustomAppType } }))).toEqual(invalid);
    expect(await failure(apps.createMyApp({ app: { name: "c", widgetCategory: 999 as CustomAppWidgetCategory } }))).toEqual(invalid);
    expect(await count()).toBe(before);
  });

  it("a name over 255 characters is 400 on create and update; 255 are fine", async () => {
    const before = await count();
    expect(await failure(apps.createMyApp({ app: { name: "x".repeat(200_000) } }))).toEqual(invalid);
    expect(await count()).toBe(before);
    const app = (await apps.createMyApp({ app: { name: "y".repeat(255) } })).app!;
    expect(await failure(apps.updateMyApp({ id: app.id, app: { name: "z".repeat(256) } }))).toEqual(invalid);
    expect(await failure(apps.updateMyApp({ id: app.id, app: { ownershipType: 999 as CustomAppOwnershipType } }))).toEqual(invalid);
    expect(await failure(apps.updateMyApp({ id: app.id, app: { widgetCategory: 999 as CustomAppWidgetCategory } }))).toEqual(invalid);
    const stored = (await apps.listMyApps({ query: { search: `id=${app.id}` } })).content[0];
    expect(stored.name).toBe("y".repeat(255));
    expect(String(stored.customerId)).toBe(String(customerId));
  });
});
