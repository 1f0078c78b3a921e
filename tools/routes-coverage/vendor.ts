// `npm run routes:vendor`: writes the documented operations of the routes inventory
// (../shared/spec/routes.tsv, or ROUTES_TSV) into the gateway, which answers 501 for
// those no service serves yet. Rerun when the inventory changes.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { documentedOperations, renderDocumentedOperations } from "./documented.js";

const specPath = process.env.ROUTES_TSV || fileURLToPath(new URL("../../../shared/spec/routes.tsv", import.meta.url));
const target = fileURLToPath(new URL("../../apps/gateway/src/routes/documented-operations.ts", import.meta.url));
const operations = documentedOperations(readFileSync(specPath, "utf8"));
writeFileSync(target, renderDocumentedOperations(operations));
console.log(`${operations.length} documented operations written to ${target}`);
