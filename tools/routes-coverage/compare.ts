// Compares the gateway's route table with the documented inventory
// (../shared/spec/routes.tsv): covered / missing per service, role mismatches.
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { routeKey, type DocumentedOperation, type RestRoute } from "@signage/gateway";
import { documentedOperations } from "./documented.js";

export { routeKey };
export type SpecRoute = Pick<DocumentedOperation, "method" | "path" | "minRole" | "service">;

export interface ServiceCoverage {
  service: string;
  total: number;
  covered: SpecRoute[];
  missing: SpecRoute[];
  roleMismatches: Array<{ route: SpecRoute; ours: string }>;
}

export function parseRoutesTsv(text: string): SpecRoute[] {
  return documentedOperations(text);
}

export function compareRoutes(spec: SpecRoute[], routes: RestRoute[]): ServiceCoverage[] {
  const ours = new Map(routes.map((r) => [routeKey(r.verb, r.template.pattern), Role[r.minRole]]));
  const services = [...new Set(spec.map((r) => r.service))].sort();
  return services.map((service) => {
    const rows = spec.filter((r) => r.service === service);
    const covered = rows.filter((r) => ours.has(routeKey(r.method, r.path)));
    const roleMismatches = covered
      .map((route) => ({ route, ours: ours.get(routeKey(route.method, route.path))! }))
      .filter(({ route, ours: role }) => route.minRole !== "?" && route.minRole !== role);
    return { service, total: rows.length, covered, missing: rows.filter((r) => !covered.includes(r)), roleMismatches };
  });
}
