export { licensingModule } from "./module.js";
