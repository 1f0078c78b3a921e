// google.api.http path templates ("/api/customer/{id}") -> Koa router paths
// ("/api/customer/:id") plus the request fields they bind.
import type { DescField, DescMessage } from "@bufbuild/protobuf";

export interface PathVariable {
  /** Router parameter name. */
  param: string;
  /** The top-level request field the segment fills. */
  field: DescField;
}

export interface PathTemplate {
  /** As written in the proto, e.g. `/api/customer/{id}`. */
  pattern: string;
  /** Koa router path, e.g. `/api/customer/:id`. */
  routerPath: string;
  variables: PathVariable[];
  /** Lower sorts first: fewer variables, so literal routes win over templates. */
  specificity: number;
}

export function parsePathTemplate(pattern: string, input: DescMessage): PathTemplate {
  const variables: PathVariable[] = [];
  const routerPath = pattern.replace(/\{([a-zA-Z0-9_.]+)(=[^}]*)?\}/g, (match: string, name: string, segments: string | undefined, offset: number, whole: string) => {
    if (name.includes(".")) throw new Error(`${input.typeName}: nested path variables are not supported (${pattern})`);
    const field = input.fields.find((f) => f.name === name);
    if (!field) throw new Error(`${input.typeName}: path variable {${name}} names no field (${pattern})`);
    if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") {
      throw new Error(`${input.typeName}: path variable {${name}} must be a scalar field`);
    }
    variables.push({ param: field.jsonName, field });
    // `{path=**}` (google.api.http: the rest of the path, slashes included) as a router wildcard;
    // the router percent-decodes the whole tail once, so the service sees "a/b c.css".
    if (segments === "=**") {
      if (offset + match.length !== whole.length) throw new Error(`${input.typeName}: {${name}=**} must end the path (${pattern})`);
      return `*${field.jsonName}`;
    }
    // A variable inside a segment (`/api/team/{resource_type}Assignments`): quote the
    // router name so the literal after it is not read as part of the name.
    const followedByName = /[A-Za-z0-9_$]/.test(whole.charAt(offset + match.length));
    return followedByName ? `:"${field.jsonName}"` : `:${field.jsonName}`;
  });
  // The router matches with an optional trailing slash; a documented one (`/api/fileFolder/`) is
  // dropped so that `/api/fileFolder` reaches the operation too, as `/api/customer/` reaches `/api/customer`.
  const withoutTrailingSlash = routerPath.length > 1 ? routerPath.replace(/\/+$/, "") : routerPath;
  return { pattern, routerPath: withoutTrailingSlash, variables, specificity: variables.length };
}
