export { reportingModule } from "./module.js";
