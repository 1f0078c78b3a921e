// Environment of a service process (cluster composition).
import { z } from "zod";
import { baseServiceConfigSchema } from "@signage/platform";
import { poolSizeFromEnv } from "@signage/db";

export const serviceProcessConfigSchema = baseServiceConfigSchema.extend({
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required for a service process"),
  NATS_URL: z.string().min(1, "NATS_URL is required for a service process"),
  NATS_STREAM: z.string().default("SIGNAGE_EVENTS"),
  NATS_SUBJECT_PREFIX: z.string().default("signage"),
  // JetStream keeps this many copies of the stream (a NATS cluster's servers; RAFT needs an odd
  // count to survive a loss). Unset: 1 for a new stream, an existing one keeps its count.
  NATS_STREAM_REPLICAS: z.coerce
    .number()
    .int("NATS_STREAM_REPLICAS must be a whole number from 1 to 5")
    .min(1, "NATS_STREAM_REPLICAS must be a whole number from 1 to 5")
    .max(5, "NATS_STREAM_REPLICAS must be a whole number from 1 to 5 (JetStream's limit)")
    .optional(),
  // The rule lives where the pool is built (@signage/db poolSizeFromEnv); applied here too so a
  // bad value fails with the rest of the configuration, before anything connects.
  DATABASE_POOL_MAX: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      try {
        return poolSizeFromEnv({ DATABASE_POOL_MAX: raw }).max;
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
        return z.NEVER;
      }
    }),
  DATA_DIR: z.string().default("./.data"),
});

export type ServiceProcessConfig = z.output<typeof serviceProcessConfigSchema>;
