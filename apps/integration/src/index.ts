export { integrationModule } from "./module.js";
