import { runStandalone } from "@signage/runtime";
import { reportingModule } from "./module.js";

await runStandalone(reportingModule);
