// The team visibility policy (libs/auth teams) and the `teamIds` parameter,
// named after the document sentences they enforce.
import { describe, expect, it } from "vitest";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { DEFAULT_TEAM_ACCESS_SETTINGS, mayCreateInRoot, resolveTeamAccess, resourceAccess, visibleThroughTeamIds, type TeamFacts } from "@signage/auth";
import { parseTeamIdsParam } from "@signage/runtime";
import { readErrorDetail } from "@signage/auth";

const user = { role: Role.EDITOR, kind: "user" as const };
const facts = (over: Partial<TeamFacts> = {}): TeamFacts => ({ restricted: true, memberships: [{ teamId: "a", readOnly: false }, { teamId: "r", readOnly: true }], settings: DEFAULT_TEAM_ACCESS_SETTINGS, ...over });

describe("team access policy", () => {
  it("'restricted = sees only team-assigned resources'; unrestricted users, ADMIN and API clients see everything", () => {
    expect(resolveTeamAccess(user, facts())).toMatchObject({ kind: "teams", teamIds: ["a", "r"], writableTeamIds: ["a"], includeWithoutTeam: true });
    expect(resolveTeamAccess(user, facts({ restricted: false })).kind).toBe("full");
    expect(resolveTeamAccess({ role: Role.ADMIN, kind: "user" }, facts()).kind).toBe("full");
    expect(resolveTeamAccess({ role: Role.EDITOR, kind: "client" }, facts()).kind).toBe("full");
  });

  it("'userFullAccessIfNotInTeam' and 'accessResourcesWithoutTeam' (default true)", () => {
    expect(resolveTeamAccess(user, facts({ memberships: [] })).kind).toBe("full");
    const noTeam = resolveTeamAccess(user, facts({ memberships: [], settings: { ...DEFAULT_TEAM_ACCESS_SETTINGS, userFullAccessIfNotInTeam: false } }));
    expect(noTeam).toMatchObject({ kind: "teams", teamIds: [], includeWithoutTeam: true });
    const strict = resolveTeamAccess(user, facts({ settings: { ...DEFAULT_TEAM_ACCESS_SETTINGS, accessResourcesWithoutTeam: false } }));
    expect(strict).toMatchObject({ kind: "teams", includeWithoutTeam: false });
    expect(resourceAccess(strict, [])).toBe("none");
  });

  it("readOnly per caller: read-only assignments and read-only memberships refuse writes", () => {
    const access = resolveTeamAccess(user, facts());
    expect(resourceAccess(access, [{ teamId: "a", readOnly: false }])).toBe("write");
    expect(resourceAccess(access, [{ teamId: "a", readOnly: true }])).toBe("read");
    expect(resourceAccess(access, [{ teamId: "r", readOnly: false }])).toBe("read");
    expect(resourceAccess(access, [{ teamId: "b", readOnly: false }])).toBe("none");
    expect(resourceAccess(access, [{ teamId: "b", readOnly: false }, { teamId: "a", readOnly: false }])).toBe("write");
    expect(resourceAccess(access, [])).toBe("write");
  });

  it("a row read by its team_ids is visible exactly when its assignments are (the lists' SQL rule, in JS)", () => {
    const cases: [TeamFacts, string[]][] = [
      [facts(), ["a"]],
      [facts(), ["r"]],
      [facts(), ["b"]],
      [facts(), []],
      [facts({ settings: { ...DEFAULT_TEAM_ACCESS_SETTINGS, accessResourcesWithoutTeam: false } }), []],
      [facts({ restricted: false }), ["b"]],
    ];
    for (const [f, teamIds] of cases) {
      const access = resolveTeamAccess(user, f);
      const assignments = teamIds.map((teamId) => ({ teamId, readOnly: false }));
      expect(visibleThroughTeamIds(access, teamIds), JSON.stringify(teamIds)).toBe(resourceAccess(access, assignments) !== "none");
    }
    expect(visibleThroughTeamIds(resolveTeamAccess(user, facts()), ["b"])).toBe(false);
  });

  it("the three root-creation flags apply to team users only", () => {
    const settings = { ...DEFAULT_TEAM_ACCESS_SETTINGS, isFileAndFolderCreationEnabledInRootForTeamUsers: false };
    expect(mayCreateInRoot(resolveTeamAccess(user, facts({ settings })), "fileAndFolder")).toBe(false);
    expect(mayCreateInRoot(resolveTeamAccess(user, facts({ settings })), "deviceAndGroup")).toBe(true);
    expect(mayCreateInRoot(resolveTeamAccess(user, facts({ settings, restricted: false })), "fileAndFolder")).toBe(true);
  });
});

describe("teamIds parameter", () => {
  it("'Create with teamIds=<id>:<readOnly>,...' (readOnly defaults to false)", () => {
    expect(parseTeamIdsParam("t1:true, t2:false,t3")).toEqual([
      { teamId: "t1", readOnly: true },
      { teamId: "t2", readOnly: false },
      { teamId: "t3", readOnly: false },
    ]);
    expect(parseTeamIdsParam(undefined)).toEqual([]);
    for (const bad of ["t1:yes", "t1:true:x", ":true"]) {
      let key: string | undefined;
      try {
        parseTeamIdsParam(bad);
      } catch (e) {
        key = readErrorDetail(e)?.key;
      }
      expect(key, bad).toBe("team.error.invalidTeamIds");
    }
  });
});
