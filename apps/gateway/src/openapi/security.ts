// Security schemes and the per-call headers the auth interceptor reads (libs/auth:
// auth-interceptor.ts reads `x-totp`, captcha `g-recaptcha-response`).
import type { Schema } from "./schemas.js";

export const TOKEN_URL = "/oauth/token";

/** Bearer for clients holding a token; oauth2 tells generated clients how to get one (oauth-routes.ts grants). */
export const SECURITY_SCHEMES: Record<string, Schema> = {
  bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
  oauth2: {
    type: "oauth2",
    description: "RFC 6749 token endpoint; refresh with grant_type=refresh_token at the same URL. Tokens are sent as bearer tokens.",
    flows: {
      password: { tokenUrl: TOKEN_URL, refreshUrl: TOKEN_URL, scopes: {} },
      clientCredentials: { tokenUrl: TOKEN_URL, refreshUrl: TOKEN_URL, scopes: {} },
    },
  },
};

/** Either scheme is accepted on a protected operation. */
export const DEFAULT_SECURITY = [{ bearer: [] }, { oauth2: [] }];

/** Header parameters of a `(sensitive)` operation. */
export const SENSITIVE_HEADERS: Schema[] = [
  { name: "x-totp", in: "header", required: false, description: "The current TOTP code; required when the caller has two-factor authentication on.", schema: { type: "string" } },
  { name: "g-recaptcha-response", in: "header", required: false, description: "The CAPTCHA response token; required when the platform has CAPTCHA on (RECAPTCHA_SECRET).", schema: { type: "string" } },
];
