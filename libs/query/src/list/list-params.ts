import type { FilterNode } from "../filter/ast.js";

/** The common list parameters as the gateway hands them over (strings or typed values). */
export interface ListParams {
  readonly page?: number | string;
  readonly size?: number | string;
  /** Repeatable `field,direction`. */
  readonly sort?: string | readonly string[];
  readonly search?: string;
  readonly select?: string;
  /** The saved filter's criteria, already fetched by the service: text or AST. */
  readonly quickFilter?: string | FilterNode;
  /** Comma separated, or already split. */
  readonly selectTeamIds?: string | readonly string[];
  readonly includeResourcesWithoutTeam?: boolean | string;
  readonly includeReadOnlyInfo?: boolean | string;
}
