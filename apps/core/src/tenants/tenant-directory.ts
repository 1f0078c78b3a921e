// Moved to customers/customer-directory.ts (it now also answers the per-call access check).
export { createCustomerTenantDirectory as createDbTenantDirectory } from "../customers/customer-directory.js";
