import pino from "pino";
import type { DbLogger } from "../src/index.js";
const l: DbLogger = pino();
const c: DbLogger = console;
export { l, c };
