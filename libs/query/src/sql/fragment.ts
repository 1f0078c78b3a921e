/**
 * A piece of SQL as a constant template plus bindings: `?` takes a value, `??` an identifier
 * (quoted by Knex). Templates come only from this library's code and the registry's computed
 * fields; request input only ever travels in `bindings`.
 */
export interface SqlFragment {
  readonly sql: string;
  readonly bindings: readonly unknown[];
}

export const FALSE_FRAGMENT: SqlFragment = Object.freeze({ sql: "false", bindings: [] });

/** `alias.column` as an identifier binding. */
export function columnFragment(alias: string, column: string): SqlFragment {
  return { sql: "??", bindings: [`${alias}.${column}`] };
}
