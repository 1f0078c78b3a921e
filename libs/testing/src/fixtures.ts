// Tenants and users for HTTP tests, created through the public API as a client would.
import type { HttpClient } from "./http-client.js";

export interface TenantUser {
  email: string;
  password: string;
  token: string;
}

export async function createCustomer(http: HttpClient, adminToken: string, body: Record<string, unknown> = {}): Promise<{ id: number } & Record<string, any>> {
  const name = (body.name as string) ?? `Customer ${Math.random().toString(36).slice(2, 10)}`;
  const res = await http.post("/api/customer", { token: adminToken, body: { ...body, name } });
  if (res.status !== 200) throw new Error(`create customer failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates a user of `role` in `customerId` and logs it in. */
export async function createUser(http: HttpClient, adminToken: string, customerId: number, role: string, extra: Record<string, unknown> = {}): Promise<TenantUser> {
  const email = `${role.toLowerCase()}-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const password = "password-123";
  const res = await http.post("/api/user/", { token: adminToken, query: { customerId }, body: { email, name: email, role, password, ...extra } });
  if (res.status !== 200) throw new Error(`create user failed: ${res.status} ${res.text}`);
  return { email, password, token: await http.login(email, password) };
}
