import { defineResource } from "../../src/index.js";

/** A resource exercising every field type, relation kind, folder and team feature. */
export const contentResource = defineResource({
  table: "content",
  fields: {
    name: { type: "string" },
    kind: { type: "enum", values: ["SLIDE", "COMPLEX"] },
    updatedAt: { type: "timestamp" },
  },
});

export const folderResource = defineResource({
  table: "folder",
  folder: { parentField: "parentId", pathField: "folderPath", pathColumn: "path" },
  fields: { name: { type: "string" } },
});

export const itemResource = defineResource({
  table: "item",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    customerId: { type: "number", selectable: false },
    name: { type: "string", index: "trgm" },
    comment: { type: "string" },
    weight: { type: "number", sqlType: "integer" },
    score: { type: "number", sqlType: "bigint" },
    ratio: { type: "number", sqlType: "double precision" },
    price: { type: "number", sqlType: "numeric" },
    enabled: { type: "boolean" },
    createdDate: { type: "timestamp" },
    lastSeen: { type: "timestamp", storage: "epochMs", column: "last_seen_ms" },
    status: { type: "enum", values: ["ONLINE", "OFFLINE", "UNKNOWN"] },
    tags: { type: "stringArray", index: "gin" },
    info: { type: "json" },
    uid: { type: "id", sqlType: "uuid" },
    bigRef: { type: "id", sqlType: "bigint" },
    secret: { type: "string", selectOnly: true },
    tagCount: { type: "number", sqlType: "integer", computed: { sql: "coalesce(cardinality(??), 0)", columns: ["tags"] } },
    content: { type: "relation", cardinality: "one", target: contentResource, localColumn: "content_id", targetColumn: "id" },
    contentName: { type: "string", path: "content.name" },
    teamIds: { type: "id", path: "teamAssignments.team.id", selectable: false },
    folder: { type: "relation", cardinality: "one", target: () => folderResource, localColumn: "folder_id", targetColumn: "id" },
  },
  folder: { parentField: "folderId", pathField: "folderPath" },
  teams: { table: "item_team_assignment", teamTable: "team" },
});

export const FIXTURE_DDL = `
create table team (id text primary key, name text);
create table folder (id text primary key, customer_id bigint not null, parent_id text references folder, path text[] not null, name text);
create table content (id text primary key, name text, kind text, updated_at timestamptz);
create table item (
  id text primary key,
  customer_id bigint not null,
  name text, comment text,
  weight integer, score bigint, ratio double precision, price numeric,
  enabled boolean,
  created_date timestamptz, last_seen_ms bigint,
  status text, tags text[], info jsonb,
  uid uuid, big_ref bigint, secret text,
  content_id text references content,
  folder_id text references folder, folder_path text[]
);
create table item_team_assignment (
  resource_id text not null references item, team_id text not null references team, read_only boolean not null,
  primary key (resource_id, team_id)
);
`;
