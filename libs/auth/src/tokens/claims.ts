import { z } from "zod";

/** Custom claims of an access token (registered claims sub/iss/iat/exp/jti are set by jose). */
export const accessClaimsSchema = z.object({
  sub: z.string().min(1),
  uid: z.string(),
  cid: z.number().int().positive(),
  role: z.string(),
  no: z.boolean(),
  tfa: z.boolean(),
  // Forced to set up 2FA. Optional: tokens issued before the claim existed still verify (as false),
  // so a rolling deploy does not log everyone out.
  f2fa: z.boolean().optional(),
  kind: z.enum(["user", "client"]),
  jti: z.string().min(1),
});

export type AccessClaims = z.infer<typeof accessClaimsSchema>;
