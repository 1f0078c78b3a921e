// The platform for private-app HTTP tests: core + media behind the real
// gateway, package blobs on a temp directory, small upload limits.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { coreModule } from "@signage/core";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { mediaModule } from "../../src/module.js";

export const MAX_UPLOAD_BYTES = 256 * 1024;
/** Signs the package file URLs (appRootPath, entryPoint, iconPath); a test may sign its own with it. */
export const SIGNING_SECRET = "custom-apps-test-signing-secret-0123";

export interface CustomAppsPlatform {
  platform: TestPlatform;
  blobRoot: string;
  adminToken: string;
  tenant(role?: string): Promise<{ customerId: number; owner: TenantUser }>;
  close(): Promise<void>;
}

export async function startCustomAppsPlatform(env: Record<string, string> = {}): Promise<CustomAppsPlatform> {
  const blobRoot = await mkdtemp(join(tmpdir(), "custom-apps-blobs-"));
  const platform = await startPlatform({
    modules: [coreModule, mediaModule],
    prefix: "custom_apps_test",
    env: { STORAGE_URL: pathToFileURL(blobRoot).href, STORAGE_SIGNING_SECRET: SIGNING_SECRET, CUSTOM_APP_MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), ...env },
  });
  const adminToken = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  return {
    platform,
    blobRoot,
    adminToken,
    async tenant(role = "OWNER") {
      const customer = await createCustomer(platform.http, adminToken);
      const owner = await createUser(platform.http, adminToken, customer.id, role);
      return { customerId: customer.id, owner };
    },
    async close() {
      await platform.close();
      await rm(blobRoot, { recursive: true, force: true });
    },
  };
}

/** A multipart body with the package in field `file`. */
export function packageForm(zip: Buffer, contentType = "application/zip", field = "file"): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(zip)], { type: contentType }), "package.zip");
  return form;
}
