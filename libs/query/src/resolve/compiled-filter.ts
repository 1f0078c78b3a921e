import type { SqlFragment } from "../sql/fragment.js";

/** One step of an EXISTS chain: `select from table as alias where alias.targetColumn = parentAlias.localColumn`. */
export interface ExistsHop {
  readonly table: string;
  readonly alias: string;
  readonly targetColumn: string;
  readonly parentAlias: string;
  readonly localColumn: string;
}

/** A filter checked against the registry, ready to become a Knex where (applyCompiledFilter). */
export type CompiledFilter =
  | { readonly kind: "and" | "or"; readonly children: readonly CompiledFilter[] }
  | { readonly kind: "predicate"; readonly predicate: SqlFragment }
  | {
      readonly kind: "exists";
      readonly negated: boolean;
      readonly hops: readonly ExistsHop[];
      /** Condition on the last hop's row; null = the related row merely exists. */
      readonly predicate: SqlFragment | null;
    };
