// Shared helpers of the customers e2e tests (HTTP through the real gateway).
import type { HttpClient, HttpResponse } from "@signage/testing";

/** Repeats `call` until `done` holds (events reach other services asynchronously); returns the last answer and the time taken. */
export async function eventually(call: () => Promise<HttpResponse>, done: (r: HttpResponse) => boolean, timeoutMs = 3000) {
  const started = performance.now();
  let last = await call();
  while (!done(last) && performance.now() - started < timeoutMs) {
    await new Promise((r) => setTimeout(r, 10));
    last = await call();
  }
  return { response: last, ms: Math.round(performance.now() - started) };
}

export function expectKey(res: HttpResponse, status: number, key: string) {
  if (res.status !== status || res.body?.key !== key) {
    throw new Error(`expected ${status} ${key}, got ${res.status} ${res.text}`);
  }
}

/** Logs in and returns access + refresh tokens. */
export async function loginFull(http: HttpClient, email: string, password: string) {
  const res = await http.post("/oauth/token", { body: new URLSearchParams({ grant_type: "password", username: email, password }) });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}
