import { runStandalone } from "@signage/runtime";
import { coreModule } from "./module.js";

await runStandalone(coreModule);
