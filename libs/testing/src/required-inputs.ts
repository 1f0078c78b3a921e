// The inputs a route's contract marks `(google.api.field_behavior) = REQUIRED`, split as a REST
// caller sends them: query parameters, and fields of the JSON body. The required-inputs suites
// (apps/core, apps/media) derive their cases from these.
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { buildRouteTable, type RestRoute } from "@signage/gateway";
import { allFiles } from "@signage/contracts";
import { isRequired } from "@signage/platform";

/** The gateway's routes of one proto package prefix, e.g. "signage.media.". */
export function routesOf(packagePrefix: string): RestRoute[] {
  return buildRouteTable(allFiles).filter((r) => r.service.typeName.startsWith(packagePrefix));
}

/** Required inputs sent as query parameters (not path variables, not the body). */
export function requiredQuery(route: RestRoute): DescField[] {
  const inPath = new Set(route.template.variables.map((v) => v.field));
  return route.method.input.fields.filter((f) => isRequired(f) && f.name !== route.body && route.body !== "*" && !inPath.has(f));
}

/** The message a route's body field carries, if the body is one field of message type. */
export function bodyMessage(route: RestRoute): DescMessage | undefined {
  return route.method.input.fields.find((f) => f.name === route.body && f.fieldKind === "message")?.message;
}

/** Required fields of that body message. */
export function requiredInBody(route: RestRoute): DescField[] {
  return bodyMessage(route)?.fields.filter(isRequired) ?? [];
}
