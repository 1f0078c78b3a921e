// Environment of a service process (cluster composition).
import { z } from "zod";
import { baseServiceConfigSchema } from "@signage/platform";

export const serviceProcessConfigSchema = baseServiceConfigSchema.extend({
  DATABASE_URL: z.string().min(1, "DATABASE_URL is required for a service process"),
  NATS_URL: z.string().min(1, "NATS_URL is required for a service process"),
  NATS_STREAM: z.string().default("SIGNAGE_EVENTS"),
  NATS_SUBJECT_PREFIX: z.string().default("signage"),
  DATA_DIR: z.string().default("./.data"),
});

export type ServiceProcessConfig = z.output<typeof serviceProcessConfigSchema>;
