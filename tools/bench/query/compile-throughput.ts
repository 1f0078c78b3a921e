import type { Knex } from "knex";
import { applyCompiledFilter, compileFilter, parseFilter } from "@signage/query";
import { deviceResource } from "./bench-resource.js";

/** Search expressions of the kinds the services see, from one comparison to a dozen. */
export const EXPRESSIONS: readonly string[] = [
  "deviceGroupId=c123",
  "deviceGroupPath:b12",
  "tags:tag42",
  "name:lobby",
  "deviceStatus=ONLINE,name^Scr",
  "teamAssignments.team.id=team7",
  "teamAssignments=NULL",
  "lastActivity>1700000000000,lastActivity≤1710000000000",
  "(tags:a|tags:b),tags:c",
  "name:4242|comment:note,deviceStatus≠OFFLINE",
  "id∈d1%2Cd2%2Cd3%2Cd4%2Cd5",
  "deviceGroupPath:a1,(tags:tag1|tags:tag2|tags:tag3),deviceStatus=ONLINE,lastActivity≥1700000000000",
  "name:Lobby%2C%20main,comment=NULL",
  "deviceInfo.general.model=X1,teamAssignments.readOnly=false",
  "(name:a,tags:tag9)|(name:b,tags:tag10)|(deviceGroupId=c1,deviceStatus=ONLINE),lastActivity<1720000000000,id≠d9",
];

export interface Throughput {
  readonly label: string;
  readonly perSecond: number;
}

/** Expressions per second for each stage, measured over ~`budgetMs` each. */
export function measureCompileThroughput(knex: Knex, budgetMs: number): Throughput[] {
  const stages: { label: string; run: (text: string) => unknown }[] = [
    { label: "parse (text -> AST)", run: (text) => parseFilter(text) },
    { label: "parse + compile (AST + registry -> parameterised where)", run: (text) => compileFilter(deviceResource, parseFilter(text)) },
    {
      label: "... + applied as where clauses to a Knex query builder",
      run: (text) => applyCompiledFilter(knex("device").select("id"), compileFilter(deviceResource, parseFilter(text))),
    },
    {
      label: "... + Knex renders the whole select to SQL text (toSQL)",
      run: (text) => applyCompiledFilter(knex("device").select("id"), compileFilter(deviceResource, parseFilter(text))).toSQL(),
    },
  ];
  return stages.map(({ label, run }) => {
    for (let i = 0; i < 2_000; i++) run(EXPRESSIONS[i % EXPRESSIONS.length]);
    let count = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < budgetMs) {
      for (const text of EXPRESSIONS) run(text);
      count += EXPRESSIONS.length;
      elapsed = performance.now() - start;
    }
    return { label, perSecond: Math.round((count / elapsed) * 1000) };
  });
}
