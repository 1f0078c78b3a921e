// Tests import the library through its public entry point, as apps do.
export * from "../../src/index.js";
export type { Interceptor } from "@connectrpc/connect";
