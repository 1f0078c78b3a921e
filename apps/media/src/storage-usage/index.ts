export { storageUsageService } from "./storage-usage-service.js";
export { filesBytesByCustomer } from "./storage-usage-query.js";
