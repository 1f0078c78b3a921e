import { runStandalone } from "@signage/runtime";
import { mediaModule } from "./module.js";

await runStandalone(mediaModule);
