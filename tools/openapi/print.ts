// `npm run openapi [-- out.json]`: the OpenAPI 3.1 document the gateway serves
// at /openapi.json, generated from the same descriptors, printed or written.
import { writeFileSync } from "node:fs";
import { allFiles } from "@signage/contracts";
import { buildRouteTable, generateOpenApi, unbuiltOperations } from "@signage/gateway";

const routes = buildRouteTable(allFiles);
const document = JSON.stringify(generateOpenApi(routes, {}, unbuiltOperations(routes)), null, 2);
const out = process.argv[2];
if (out) writeFileSync(out, `${document}\n`);
else process.stdout.write(`${document}\n`);
