import type { Knex } from "knex";
import type pg from "pg";
import { planList, runList, tenantScope, type ListParams } from "@signage/query";
import { deviceResource } from "./bench-resource.js";
import { TENANT } from "./bench-data.js";
import { summarize, type Summary } from "./stats.js";

/** One list request and the SQL a person would write for the same result. */
export interface Scenario {
  readonly title: string;
  readonly params: ListParams;
  /** Statements run in order through the plain driver; together they answer the request. */
  readonly handWritten: readonly { readonly text: string; readonly values: readonly unknown[] }[];
}

// The columns `select=*` loads for the device resource, written out by hand.
const STAR_COLUMNS = `id, name, comment, device_status, floor(extract(epoch from last_activity) * 1000)::bigint as last_activity,
  tags, device_group_id, device_group_path`;

function pageAndCount(where: string, values: readonly unknown[]): Scenario["handWritten"] {
  return [
    { text: `select ${STAR_COLUMNS} from device where customer_id = $1 and ${where} order by name, id limit 20 offset 0`, values: [TENANT, ...values] },
    { text: `select count(*) from device where customer_id = $1 and ${where}`, values: [TENANT, ...values] },
  ];
}

export const SCENARIOS: readonly Scenario[] = [
  {
    title: "direct parent   deviceGroupId=c123",
    params: { search: "deviceGroupId=c123" },
    handWritten: pageAndCount("device_group_id = $2", ["c123"]),
  },
  {
    title: "recursive path  deviceGroupPath:b12",
    params: { search: "deviceGroupPath:b12" },
    handWritten: pageAndCount("device_group_path @> array[$2]", ["b12"]),
  },
  {
    title: "tag containment tags:tag42",
    params: { search: "tags:tag42" },
    handWritten: pageAndCount("tags @> array[$2]", ["tag42"]),
  },
  {
    title: "name contains   name:4242",
    params: { search: "name:4242" },
    handWritten: pageAndCount("name like $2", ["%4242%"]),
  },
  {
    title: "count           size=1&select=id",
    params: { size: 1, select: "id" },
    handWritten: [{ text: "select count(*) from device where customer_id = $1", values: [TENANT] }],
  },
  {
    title: "(extra) team    teamAssignments.team.id=team7",
    params: { search: "teamAssignments.team.id=team7" },
    handWritten: pageAndCount(
      "exists (select 1 from device_team_assignment a where a.resource_id = device.id and a.team_id = $2)",
      ["team7"],
    ),
  },
  {
    title: "(extra) big subtree deviceGroupPath:a1",
    params: { search: "deviceGroupPath:a1" },
    handWritten: pageAndCount("device_group_path @> array[$2]", ["a1"]),
  },
];

export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly library: Summary;
  readonly handWritten: Summary;
  readonly totalElements: number;
}

/**
 * Alternates library and hand-written runs so both see the same cache state; each sample is
 * the wall time of a whole page request (planning and every statement included).
 */
export async function measureScenario(knex: Knex, pool: pg.Pool, scenario: Scenario, budgetMs: number): Promise<ScenarioResult> {
  const scope = tenantScope([TENANT]);
  const library = async () => runList(knex, planList(deviceResource, scenario.params), { scope });
  const handWritten = async () => {
    const client = await pool.connect();
    try {
      for (const statement of scenario.handWritten) await client.query(statement.text, statement.values as unknown[]);
    } finally {
      client.release();
    }
  };
  const first = await library();
  await handWritten();
  for (let i = 0; i < 3; i++) {
    await library();
    await handWritten();
  }
  const librarySamples: number[] = [];
  const handSamples: number[] = [];
  const deadline = performance.now() + budgetMs;
  while ((librarySamples.length < 30 || performance.now() < deadline) && librarySamples.length < 1500) {
    const order = librarySamples.length % 2 === 0 ? [library, handWritten] : [handWritten, library];
    for (const run of order) {
      const start = performance.now();
      await run();
      (run === library ? librarySamples : handSamples).push(performance.now() - start);
    }
  }
  return { scenario, library: summarize(librarySamples), handWritten: summarize(handSamples), totalElements: first.page.totalElements };
}
