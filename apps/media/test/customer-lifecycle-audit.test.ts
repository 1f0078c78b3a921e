// Customer lifecycle as media sees it, over HTTP through the gateway (core and media together).
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@signage/testing";
import { pathOf, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
beforeAll(async () => {
  env = await startUploadPlatform("media_customer_lifecycle");
}, 60_000);
afterAll(() => env?.close());

const http = () => env.platform.http;
const media = () => env.platform.knexOf("media");

async function setCustomer(id: number, body: Record<string, unknown>, replicated: (row: any) => boolean): Promise<void> {
  const res = await http().put(`/api/customer/${id}`, { token: env.admin, body });
  expect(res.status, res.text).toBe(200);
  await eventually(() => media()("tenant").where({ customer_id: id }).first(), (row) => row !== undefined && replicated(row), "customer.updated replicated to media");
}

async function uploadPng(t: UploadTenant, name: string) {
  const form = new FormData();
  form.append("files[]", new Blob([new Uint8Array(png(3, 2))], { type: "image/png" }), name);
  const res = await http().post("/api/file", { token: t.owner.token, body: form });
  expect(res.status, res.text).toBe(200);
  return res.body[0];
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true })) as string[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

describe("customer lifecycle in media", { timeout: 30_000 }, () => {
  // Seed (document 2, "Customer"): "restricted | boolean | true disables all access"; "States and
  // transitions": "Customer | active | PUT restricted true ... | all access blocked". A signed
  // download URL carries no token, so the check must be made on the URL's customer.
  it("a restricted customer's signed download and presigned part URLs stop working, and work again once lifted", async () => {
    const t = await env.tenant();
    const other = await env.tenant();
    const file = await uploadPng(t, "r.png");
    const otherFile = await uploadPng(other, "o.png");
    const init = await http().post("/api/v2/file/upload/init", { token: t.owner.token, body: { name: "r.mp4", size: 20, totalChunks: 2, contentType: "video/mp4" } });
    expect(init.status, init.text).toBe(200);
    const download = () => fetch(new URL(pathOf(file.location), env.platform.url));
    expect((await download()).status).toBe(200);

    await setCustomer(t.id, { restricted: true }, (row) => row.restricted === true);
    expect((await http().get("/api/v2/file", { token: t.owner.token })).status).toBe(403);
    const refused = await download();
    const refusedBody = await refused.json();
    expect(refused.status, JSON.stringify(refusedBody)).toBe(403);
    expect(refusedBody).toMatchObject({ key: "auth.error.customerRestricted" });
    const part = await fetch(new URL(pathOf(init.body.uploadUrls["1"]), env.platform.url), { method: "PUT", body: new Uint8Array(10) });
    expect(part.status, await part.text()).toBe(403);
    // Another tenant is untouched.
    expect((await fetch(new URL(pathOf(otherFile.location), env.platform.url))).status).toBe(200);

    await setCustomer(t.id, { restricted: false }, (row) => row.restricted === false);
    expect((await download()).status).toBe(200);
    const partAgain = await fetch(new URL(pathOf(init.body.uploadUrls["1"]), env.platform.url), { method: "PUT", body: new Uint8Array(10) });
    expect(partAgain.status, await partAgain.text()).toBe(200);
  });

  // Seed (document 2, "Customers"): "Delete | DELETE `/api/customer/{id}` | ... cascades to devices,
  // content, data sources, channels"; DESIGN: "Deleting a customer cascades to every service through an
  // event; nothing of it remains readable afterwards". An upload let in before the delete (still
  // streaming its bytes) must not recreate the customer's root folder and commit a file after the purge.
  it("a simple upload still streaming when its customer is deleted fails and leaves no folder, file or blob", async () => {
    const t = await env.tenant();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const boundary = "----lifecycleBoundary";
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="late.json"\r\nContent-Type: application/json\r\n\r\n{"a":"`));
        await gate;
        controller.enqueue(enc.encode(`${"x".repeat(1000)}"}\r\n--${boundary}--\r\n`));
        controller.close();
      },
    });
    const slow = fetch(new URL("/api/file", env.platform.url), {
      method: "POST",
      headers: { authorization: `Bearer ${t.owner.token}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 300));

    const del = await http().delete(`/api/customer/${t.id}`, { token: env.admin });
    expect(del.status, del.text).toBe(204);
    await eventually(() => media()("tenant").where({ customer_id: t.id }).first(), (row) => row?.deleted === true, "customer.deleted applied in media");
    release();
    const late = await slow;
    const lateBody = await late.json();
    expect(late.status, JSON.stringify(lateBody)).toBe(404);

    expect(await media()("file_folder").where({ customer_id: t.id })).toHaveLength(0);
    expect(await media()("file").where({ customer_id: t.id })).toHaveLength(0);
    const blobs = await eventually(() => filesUnder(join(env.blobDir, "files", String(t.id))), (files) => files.length === 0, "no blob of the deleted customer");
    expect(blobs).toEqual([]);
  });
});
