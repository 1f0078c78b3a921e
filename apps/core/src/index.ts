export { coreModule } from "./module.js";
