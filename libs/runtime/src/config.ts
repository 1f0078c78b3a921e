// Environment of a service process (cluster composition).
import { z } from "zod";
import { baseServiceConfigSchema } from "@signage/platform";

const DATABASE_POOL_MAX_LIMIT = 100;

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
  // Read by @signage/db where the pool is built (libs/db/src/knex-config.ts, the same range);
  // validated here too so a bad value fails with the rest, before anything connects.
  DATABASE_POOL_MAX: z.coerce
    .number()
    .int(`DATABASE_POOL_MAX must be a whole number from 1 to ${DATABASE_POOL_MAX_LIMIT}`)
    .min(1, `DATABASE_POOL_MAX must be a whole number from 1 to ${DATABASE_POOL_MAX_LIMIT}`)
    .max(DATABASE_POOL_MAX_LIMIT, `DATABASE_POOL_MAX must be a whole number from 1 to ${DATABASE_POOL_MAX_LIMIT}`)
    .optional(),
  DATA_DIR: z.string().default("./.data"),
});

export type ServiceProcessConfig = z.output<typeof serviceProcessConfigSchema>;
