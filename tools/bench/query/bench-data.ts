import type { Knex } from "knex";
import { indexStatements } from "@signage/query";
import { deviceResource } from "./bench-resource.js";

export const ROWS = 1_000_000;
export const TENANT = 1;

/**
 * 1,000,000 devices: 90% in tenant 1 under a folder tree root > 10 > 100 > 1000 leaf folders,
 * 10% in tenant 2. Names "<word> <number>", 1-2 tags out of 200, 10% of devices in one of 20 teams.
 */
export async function loadBenchData(knex: Knex, log: (line: string) => void): Promise<void> {
  await knex.raw(`
    create table team (id text primary key, name text);
    create table device (
      id text primary key,
      customer_id bigint not null,
      name text not null,
      comment text,
      device_status text,
      last_activity timestamptz,
      tags text[] not null,
      device_info jsonb,
      device_group_id text not null,
      device_group_path text[] not null
    );
    create table device_team_assignment (resource_id text not null, team_id text not null, read_only boolean not null, primary key (resource_id, team_id));
  `);
  let started = Date.now();
  await knex.raw(`
    select setseed(0.42);
    insert into team select 'team' || i, 'Team ' || i from generate_series(1, 20) i;
    insert into device
    select
      'd' || g,
      case when g % 10 = 0 then 2 else 1 end,
      (array['Lobby','Screen','Menu','Kiosk','Wall','Desk','Entrance','Cafe','Hall','Room'])[1 + g % 10] || ' ' || floor(random() * 1000000)::int,
      case when random() < 0.2 then 'note ' || g end,
      case when random() < 0.7 then 'ONLINE' else 'OFFLINE' end,
      now() - random() * interval '90 days',
      case when random() < 0.5
        then array['tag' || floor(random() * 200)::int]
        else array['tag' || floor(random() * 200)::int, 'tag' || floor(random() * 200)::int] end,
      '{"general": {"model": "X1"}}'::jsonb,
      case when g % 10 = 0 then 'x2' else 'c' || (g % 1000) end,
      case when g % 10 = 0 then array['r2', 'x2']
        else array['r1', 'a' || (g % 1000) / 100, 'b' || (g % 1000) / 10, 'c' || (g % 1000)] end
    from generate_series(1, ${ROWS}) g;
    insert into device_team_assignment
    select id, 'team' || (1 + (hashtext(id) & 1023) % 20), (hashtext(id) & 1) = 0 from device where (hashtext(id) & 1023) < 100;
  `);
  log(`  loaded ${ROWS.toLocaleString("en")} devices in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  started = Date.now();
  await knex.transaction(async (trx) => {
    await trx.raw("set local maintenance_work_mem = '512MB'");
    for (const statement of indexStatements(deviceResource)) await trx.raw(statement.sql, statement.bindings as never[]);
  });
  await knex.raw("vacuum analyze device");
  await knex.raw("vacuum analyze device_team_assignment");
  await knex.raw("analyze team");
  log(`  built the registry's ${indexStatements(deviceResource).length - 1} indexes and analyzed in ${((Date.now() - started) / 1000).toFixed(1)}s`);
}
