// The REST route table, read from the generated descriptors: a route exists
// because an RPC carries a `google.api.http` option; its minimum role is the
// RPC's `min_role` option. Nothing here lists routes by hand.
import { getOption, hasOption, type DescFile, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { http } from "@signage/contracts/google/api/annotations_pb";
import type { HttpRule } from "@signage/contracts/google/api/http_pb";
import { customer_selector, max_page_size, min_role, sensitive } from "@signage/contracts/signage/options/v1/options_pb";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { parsePathTemplate, type PathTemplate } from "./path-template.js";

export type HttpVerb = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

export interface RestRoute {
  verb: HttpVerb;
  template: PathTemplate;
  service: DescService;
  method: DescMethod;
  /** Request field bound to the body: "", "*" or a top-level field name. */
  body: string;
  /** Response field rendered as the body, or "" for the whole message. */
  responseBody: string;
  minRole: Role;
  customerSelector: boolean;
  sensitive: boolean;
  maxPageSize: number | undefined;
}

function ruleBinding(rule: HttpRule): { verb: HttpVerb; path: string } | undefined {
  const p = rule.pattern;
  switch (p.case) {
    case "get": return { verb: "GET", path: p.value };
    case "post": return { verb: "POST", path: p.value };
    case "put": return { verb: "PUT", path: p.value };
    case "delete": return { verb: "DELETE", path: p.value };
    case "patch": return { verb: "PATCH", path: p.value };
    default: return undefined;
  }
}

function routesOfMethod(service: DescService, method: DescMethod): RestRoute[] {
  if (!hasOption(method, http)) return [];
  const rule = getOption(method, http);
  const common = {
    service,
    method,
    minRole: getOption(method, min_role),
    customerSelector: getOption(method, customer_selector),
    sensitive: getOption(method, sensitive),
    maxPageSize: getOption(method, max_page_size) || undefined,
  };
  return [rule, ...rule.additionalBindings].flatMap((r) => {
    const binding = ruleBinding(r);
    if (!binding) return [];
    return [{ ...common, verb: binding.verb, template: parsePathTemplate(binding.path, method.input), body: r.body, responseBody: r.responseBody }];
  });
}

/** Every REST route of the given files, in a stable order (literal paths before parameterised ones). */
export function buildRouteTable(files: readonly DescFile[]): RestRoute[] {
  const routes = files.flatMap((file) => file.services.flatMap((service) => service.methods.flatMap((m) => routesOfMethod(service, m))));
  return routes.sort((a, b) => a.template.specificity - b.template.specificity || a.template.pattern.localeCompare(b.template.pattern));
}
