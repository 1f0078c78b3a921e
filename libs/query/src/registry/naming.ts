const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** `deviceGroupId` -> `device_group_id`: the default column of a field. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** Registry names end up as quoted identifiers; refusing odd ones early keeps errors readable. */
export function assertIdentifier(value: string, what: string): void {
  if (typeof value !== "string" || !IDENTIFIER.test(value)) throw new Error(`${what} must be an identifier ([A-Za-z_][A-Za-z0-9_]*), got '${value}'`);
}

export function assertTableName(value: string, what: string): void {
  if (typeof value !== "string" || !TABLE.test(value)) throw new Error(`${what} must be a table name (optionally schema-qualified), got '${value}'`);
}

/** The unqualified name, used as the default alias: `core.device` -> `device`. */
export function tableBaseName(table: string): string {
  return table.slice(table.lastIndexOf(".") + 1);
}
