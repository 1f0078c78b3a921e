// Which table holds each team-enabled resource type of a service.
import { Code } from "@connectrpc/connect";
import { serviceError } from "@signage/auth";

export interface TeamResourceTable {
  /** Documented type name: `file`, `fileFolder`, `user`. */
  resourceType: string;
  table: string;
  idColumn?: string;
  tenantColumn?: string;
}

export type TeamResourceTables = ReadonlyMap<string, TeamResourceTable>;

export function teamResourceTables(tables: readonly TeamResourceTable[]): TeamResourceTables {
  return new Map(tables.map((t) => [t.resourceType, t]));
}

export function tableOf(tables: TeamResourceTables, resourceType: string): TeamResourceTable {
  const table = tables.get(resourceType);
  if (!table) {
    throw serviceError(Code.Unimplemented, "team.error.resourceTypeNotEnabled", `Resource type ${resourceType} is not team-enabled yet`, { resourceType });
  }
  return table;
}
