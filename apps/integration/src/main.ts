import { runStandalone } from "@signage/runtime";
import { integrationModule } from "./module.js";

await runStandalone(integrationModule);
