import { runStandalone } from "@signage/runtime";
import { licensingModule } from "./module.js";

await runStandalone(licensingModule);
