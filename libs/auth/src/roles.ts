import { Role } from "@signage/contracts/signage/common/v1/role_pb";

// The enum numbers are the rank order (see role.proto), so the rank is the number itself.
export function roleRank(role: Role): number {
  return role;
}

/** True when `role` passes a method whose minimum is `min`. UNSPECIFIED never passes or grants. */
export function roleAtLeast(role: Role, min: Role): boolean {
  if (role === Role.UNSPECIFIED || min === Role.UNSPECIFIED) return false;
  return roleRank(role) >= roleRank(min);
}

/** Roles a signed-in principal can hold; PUBLIC only marks methods, it is never a caller's role. */
export function isCallerRole(role: Role): boolean {
  return roleRank(role) >= roleRank(Role.DEVICE_USER) && roleRank(role) <= roleRank(Role.ADMIN);
}

/** API value of a role, e.g. Role.OWNER -> "OWNER". */
export function roleName(role: Role): string {
  const name = Role[role] as string | undefined;
  if (name === undefined) throw new RangeError(`unknown role ${role}`);
  return name;
}

/** Parses an API role value ("OWNER"); undefined for unknown names and for UNSPECIFIED. */
export function roleFromName(name: string): Role | undefined {
  if (name === "UNSPECIFIED" || !Object.hasOwn(Role, name)) return undefined;
  const role = (Role as unknown as Record<string, unknown>)[name];
  return typeof role === "number" ? (role as Role) : undefined;
}
