export { mediaModule } from "./module.js";
