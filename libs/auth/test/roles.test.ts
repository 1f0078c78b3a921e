import { describe, expect, it } from "vitest";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { isCallerRole, roleAtLeast, roleFromName, roleName, roleRank } from "../src/index.js";
import { file_grpc_health_v1_health } from "@signage/contracts/grpc/health/v1/health_pb";
import { methodPolicy } from "../src/interceptor/method-policy.js";

describe("roles", () => {
  it("ranks DEVICE_USER < VIEWER < EDITOR < APPROVER < TECHNICIAN < OWNER < ADMIN (ROLES.md)", () => {
    const order = [Role.DEVICE_USER, Role.VIEWER, Role.EDITOR, Role.APPROVER, Role.TECHNICIAN, Role.OWNER, Role.ADMIN];
    expect([...order].sort((a, b) => roleRank(a) - roleRank(b))).toEqual(order);
  });

  it("compares against a minimum; UNSPECIFIED never passes", () => {
    expect(roleAtLeast(Role.OWNER, Role.EDITOR)).toBe(true);
    expect(roleAtLeast(Role.EDITOR, Role.EDITOR)).toBe(true);
    expect(roleAtLeast(Role.VIEWER, Role.EDITOR)).toBe(false);
    expect(roleAtLeast(Role.ADMIN, Role.UNSPECIFIED)).toBe(false);
    expect(roleAtLeast(Role.UNSPECIFIED, Role.PUBLIC)).toBe(false);
  });

  it("maps API names both ways", () => {
    expect(roleName(Role.OWNER)).toBe("OWNER");
    expect(roleName(Role.DEVICE_USER)).toBe("DEVICE_USER");
    expect(roleFromName("OWNER")).toBe(Role.OWNER);
    expect(roleFromName("MESSENGER")).toBeUndefined();
    expect(roleFromName("UNSPECIFIED")).toBeUndefined();
    expect(roleFromName("toString")).toBeUndefined();
    expect(roleFromName("owner")).toBeUndefined();
  });

  it("PUBLIC and UNSPECIFIED are not caller roles", () => {
    expect(isCallerRole(Role.PUBLIC)).toBe(false);
    expect(isCallerRole(Role.UNSPECIFIED)).toBe(false);
    expect(isCallerRole(Role.DEVICE_USER)).toBe(true);
    expect(isCallerRole(Role.ADMIN)).toBe(true);
  });
});


describe("method policy", () => {
  it("grpc.health.v1.Health is public: Kubernetes probes send no token", () => {
    const check = file_grpc_health_v1_health.services[0].methods.find((m) => m.name === "Check")!;
    expect(methodPolicy(check).minRole).toBe(Role.PUBLIC);
  });
});
