// The benchmark tenant: 50 teams made through the API, 100,000 files written
// straight into media's table (uploading them would measure uploads), each held
// by one team, with the same assignment rows and team_ids the API writes.
import type { Knex } from "knex";
import type { TestPlatform } from "@signage/testing";

export const FILES = 100_000;
export const TEAMS = 50;

export async function createTeams(platform: TestPlatform, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < TEAMS; i++) {
    const res = await platform.http.post("/api/team/", { token, body: { name: `Team ${String(i).padStart(2, "0")}` } });
    if (res.status !== 200) throw new Error(`create team failed: ${res.status} ${res.text}`);
    ids.push(res.body.id);
  }
  return ids;
}

/** Files i = 0..FILES-1 in the root folder; file i belongs to team i % TEAMS. */
export async function seedFiles(media: Knex, customerId: number, rootFolderId: string, teamIds: readonly string[]): Promise<void> {
  await media.raw(
    `insert into file (id, customer_id, name, content_type, type, size, file_folder_id, path, team_ids)
     select gen_random_uuid(), ?, 'file-' || lpad(i::text, 6, '0') || '.png', 'image/png', 'IMAGE', 1000 + i, ?::uuid, array[?::uuid],
            array[(?::uuid[])[1 + (i % ?)]]
       from generate_series(0, ? - 1) as i`,
    [customerId, rootFolderId, rootFolderId, [...teamIds], teamIds.length, FILES],
  );
  await media.raw(
    `insert into team_assignment (resource_type, resource_id, team_id, read_only, customer_id)
     select 'file', f.id, f.team_ids[1], false, f.customer_id from file f where f.customer_id = ?`,
    [customerId],
  );
  // A steady state as after autovacuum: statistics and the visibility map (index-only counts).
  await media.raw("vacuum analyze file");
  await media.raw("vacuum analyze team_assignment");
}
