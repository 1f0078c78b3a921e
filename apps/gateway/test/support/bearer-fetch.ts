// The gateway answers 401 to a protected route without bearer credentials before it reads the
// request (routes/bearer-refusal.ts). Edge tests of what comes after send a stand-in token: the
// gateway never verifies one, and their in-process services do not check it.
export const TEST_BEARER = "Bearer test-token";

/** fetch with `Authorization: Bearer test-token` unless the request names its own. */
export const bearerFetch: typeof fetch = (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (!headers.has("authorization")) headers.set("authorization", TEST_BEARER);
  return fetch(input, { ...init, headers });
};
