// A small, deliberately partial kustomize for the checks in manifests.test.ts.
//
// CI has no kustomize/kubectl binary, so the test renders k8s/ itself: enough of
// kustomize's semantics for the features k8s/ uses (resources, components,
// config/secret generators, strategic-merge and JSON 6902 patches with targets,
// images, replicas, namespace). Anything else in a kustomization makes the
// render throw, so a new feature cannot be silently ignored by the checks:
// extend this file when you use one. When a real kustomize is on the PATH the
// test also renders with it and runs the same checks on its output.
//
// Differences from kustomize that the checks tolerate: generated ConfigMaps and
// Secrets keep their plain names (kustomize appends a content hash), and object
// order differs.
import { existsSync, readFileSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { basename, join, resolve } from "node:path";
import { parseAllDocuments } from "yaml";

// Kubernetes objects are free-form JSON here.
export type Obj = Record<string, any>;

export const KUSTOMIZATION_FILE = "kustomization.yaml";

/** Parses every document of a YAML file; fails on syntax errors, duplicate keys and warnings. */
export function loadYaml(file: string): unknown[] {
  const text = readFileSync(file, "utf8");
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) return [];
  const out: unknown[] = [];
  for (const doc of docs) {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0) {
      throw new Error(`${file}: ${problems.map((p) => p.message).join("; ")}`);
    }
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

export function loadObjects(file: string): Obj[] {
  return loadYaml(file).map((doc, i) => {
    if (!isObject(doc) || typeof doc.kind !== "string" || typeof doc.apiVersion !== "string") {
      throw new Error(`${file}: document ${i} is not a Kubernetes object`);
    }
    if (!isObject(doc.metadata) || typeof doc.metadata.name !== "string") {
      throw new Error(`${file}: ${doc.kind} without metadata.name`);
    }
    return doc;
  });
}

export interface PatchRef {
  path?: string;
  patch?: string;
  target?: Target;
}
export interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}
export interface Generator {
  name: string;
  behavior?: "create" | "merge" | "replace";
  literals?: string[];
  files?: string[];
  envs?: string[];
  type?: string;
  options?: Obj;
}
export interface Kustomization {
  apiVersion: string;
  kind: "Kustomization" | "Component";
  namespace?: string;
  resources?: string[];
  components?: string[];
  patches?: PatchRef[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  replicas?: { name: string; count: number }[];
}

const SUPPORTED_KEYS = new Set([
  "apiVersion",
  "kind",
  "namespace",
  "resources",
  "components",
  "patches",
  "configMapGenerator",
  "secretGenerator",
  "images",
  "replicas",
]);

export function readKustomization(dir: string): Kustomization {
  const file = join(dir, KUSTOMIZATION_FILE);
  const docs = loadYaml(file);
  if (docs.length !== 1 || !isObject(docs[0])) throw new Error(`${file}: expected one mapping`);
  const k = docs[0] as Kustomization;
  for (const key of Object.keys(k)) {
    if (!SUPPORTED_KEYS.has(key)) {
      throw new Error(`${file}: '${key}' is not supported by tools/k8s/render.ts; extend it`);
    }
  }
  return k;
}

// ---------------------------------------------------------------------------
// Rendering

export function build(dir: string): Obj[] {
  return accumulate(resolve(dir), [], false);
}

function accumulate(dir: string, acc: Obj[], asComponent: boolean): Obj[] {
  const k = readKustomization(dir);
  const expectedKind = asComponent ? "Component" : "Kustomization";
  if (k.kind !== expectedKind) throw new Error(`${dir}: kind ${k.kind}, expected ${expectedKind}`);
  let objs = acc;
  for (const r of k.resources ?? []) {
    const p = join(dir, r);
    if (!existsSync(p)) throw new Error(`${dir}: resource ${r} does not exist`);
    const found = statSync(p).isDirectory() ? accumulate(p, [], false) : loadObjects(p);
    for (const o of found) {
      if (objs.some((x) => sameId(x, o))) throw new Error(`${dir}: duplicate ${o.kind}/${o.metadata.name}`);
    }
    objs = [...objs, ...found];
  }
  for (const c of k.components ?? []) {
    if (!existsSync(join(dir, c, KUSTOMIZATION_FILE))) throw new Error(`${dir}: component ${c} has no ${KUSTOMIZATION_FILE}`);
    objs = accumulate(join(dir, c), objs, true);
  }
  objs = runGenerators(dir, k, objs);
  objs = runTransformers(dir, k, objs);
  return objs;
}

function runGenerators(dir: string, k: Kustomization, objs: Obj[]): Obj[] {
  const out = objs.map(clone);
  const gens: [string, Generator[]][] = [
    ["ConfigMap", k.configMapGenerator ?? []],
    ["Secret", k.secretGenerator ?? []],
  ];
  for (const [kind, list] of gens) {
    for (const g of list) {
      const data = generatorData(dir, g);
      const existing = out.find((o) => o.kind === kind && o.metadata.name === g.name);
      const behavior = g.behavior ?? "create";
      if (behavior === "create") {
        if (existing) throw new Error(`${dir}: ${kind} ${g.name} generated twice`);
        const obj: Obj = { apiVersion: "v1", kind, metadata: { name: g.name }, data: {} };
        if (kind === "Secret") obj.type = g.type ?? "Opaque";
        out.push(obj);
        setData(obj, data);
      } else {
        if (!existing) throw new Error(`${dir}: ${kind} ${g.name}: behavior ${behavior} needs an existing one`);
        if (behavior === "replace") existing.data = {};
        setData(existing, data);
      }
    }
  }
  return out;
}

function setData(obj: Obj, data: Record<string, string>): void {
  obj.data ??= {};
  for (const [key, value] of Object.entries(data)) {
    obj.data[key] = obj.kind === "Secret" ? Buffer.from(value, "utf8").toString("base64") : value;
  }
}

/** The key/value pairs a config/secret generator entry produces (files are read). */
export function generatorData(dir: string, g: Generator): Record<string, string> {
  const data: Record<string, string> = {};
  for (const lit of g.literals ?? []) {
    const eq = lit.indexOf("=");
    if (eq <= 0) throw new Error(`${dir}: generator ${g.name}: bad literal '${lit}'`);
    data[lit.slice(0, eq)] = lit.slice(eq + 1);
  }
  for (const f of g.files ?? []) {
    const eq = f.indexOf("=");
    const key = eq > 0 ? f.slice(0, eq) : basename(f);
    const path = eq > 0 ? f.slice(eq + 1) : f;
    data[key] = readFileSync(join(dir, path), "utf8");
  }
  for (const e of g.envs ?? []) Object.assign(data, parseEnvFile(readFileSync(join(dir, e), "utf8")));
  return data;
}

/** KEY=value lines; blank lines and # comments ignored (kustomize's env file format). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) throw new Error(`bad env line '${line}'`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

const CLUSTER_SCOPED = new Set([
  "Namespace",
  "ClusterRole",
  "ClusterRoleBinding",
  "CustomResourceDefinition",
  "PersistentVolume",
  "StorageClass",
  "PriorityClass",
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
]);

function runTransformers(dir: string, k: Kustomization, objs: Obj[]): Obj[] {
  let out = objs.map(clone);
  for (const p of k.patches ?? []) out = applyPatch(dir, p, out);
  for (const img of k.images ?? []) {
    for (const o of out) {
      for (const c of podContainers(o)) {
        const { name, tag } = splitImage(c.image);
        if (name !== img.name) continue;
        const newName = img.newName ?? name;
        c.image = img.digest ? `${newName}@${img.digest}` : `${newName}:${img.newTag ?? tag ?? "latest"}`;
      }
    }
  }
  for (const r of k.replicas ?? []) {
    const hits = out.filter((o) => ["Deployment", "StatefulSet"].includes(o.kind) && o.metadata.name === r.name);
    if (hits.length === 0) throw new Error(`${dir}: replicas: no workload named ${r.name}`);
    for (const o of hits) o.spec.replicas = r.count;
  }
  if (k.namespace) {
    for (const o of out) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  return out;
}

function applyPatch(dir: string, ref: PatchRef, objs: Obj[]): Obj[] {
  let docs: unknown[];
  if (ref.path) docs = loadYaml(join(dir, ref.path));
  else if (ref.patch) docs = parseAllDocuments(ref.patch).map((d) => d.toJS());
  else throw new Error(`${dir}: patch without path or patch`);
  if (docs.length !== 1) throw new Error(`${dir}: a patch must be one document`);
  const body = docs[0];
  if (Array.isArray(body)) {
    if (!ref.target) throw new Error(`${dir}: a JSON 6902 patch needs a target`);
    const hits = objs.filter((o) => matchesTarget(o, ref.target as Target));
    if (hits.length === 0) throw new Error(`${dir}: patch ${ref.path ?? ""} matches nothing`);
    return objs.map((o) => (hits.includes(o) ? applyJson6902(o, body as Obj[]) : o));
  }
  if (!isObject(body)) throw new Error(`${dir}: patch is neither a list nor a mapping`);
  const target: Target = ref.target ?? { kind: body.kind, name: body.metadata?.name };
  const hits = objs.filter((o) => matchesTarget(o, target));
  if (hits.length === 0) throw new Error(`${dir}: patch ${ref.path ?? ""} matches nothing`);
  return objs.map((o) => {
    if (!hits.includes(o)) return o;
    const { metadata, ...rest } = body;
    const patched = strategicMerge(o, { ...rest, metadata: { ...metadata, name: o.metadata.name } });
    return patched as Obj;
  });
}

export function matchesTarget(o: Obj, t: Target): boolean {
  if (t.kind && o.kind !== t.kind) return false;
  if (t.name && !new RegExp(`^(?:${t.name})$`).test(o.metadata.name)) return false;
  if (t.namespace && o.metadata.namespace !== t.namespace) return false;
  const [group, version] = String(o.apiVersion).includes("/") ? o.apiVersion.split("/") : ["", o.apiVersion];
  if (t.group !== undefined && t.group !== group) return false;
  if (t.version !== undefined && t.version !== version) return false;
  if (t.labelSelector && !matchesSelectorString(o.metadata.labels ?? {}, t.labelSelector)) return false;
  return true;
}

/** Kubernetes label selector syntax: k=v, k==v, k!=v, k in (a,b), k notin (a,b), k, !k. */
export function matchesSelectorString(labels: Record<string, string>, selector: string): boolean {
  const terms: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      terms.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) terms.push(cur.trim());
  return terms.every((term) => {
    let m = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = m[3].split(",").map((s) => s.trim());
      const has = m[1] in labels && values.includes(labels[m[1]]);
      return m[2] === "in" ? has : !has;
    }
    m = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (m) return m[2] === "!=" ? labels[m[1]] !== m[3] : labels[m[1]] === m[3];
    if (term.startsWith("!")) return !(term.slice(1) in labels);
    if (/^\S+$/.test(term)) return term in labels;
    throw new Error(`unsupported label selector term '${term}'`);
  });
}

/** Merge keys of the lists that strategic merge patches here may touch (pod templates). */
const MERGE_KEYS: Record<string, string> = {
  containers: "name",
  initContainers: "name",
  volumes: "name",
  volumeMounts: "mountPath",
  env: "name",
  ports: "containerPort",
  topologySpreadConstraints: "topologyKey",
};

export function strategicMerge(target: unknown, patch: unknown, field = ""): unknown {
  if (Array.isArray(patch)) {
    const key = MERGE_KEYS[field];
    const mergeable =
      key !== undefined &&
      Array.isArray(target) &&
      patch.every((p) => isObject(p) && p[key] !== undefined) &&
      target.every((t) => isObject(t) && t[key] !== undefined);
    if (!mergeable) return clone(patch);
    // Like kustomize (kyaml): items only in the patch come first, in patch
    // order, then the target's items, merged with their patch counterparts.
    const merged = (target as Obj[]).map((t) => {
      const p = (patch as Obj[]).find((item) => item[key] === t[key]);
      return p ? (strategicMerge(t, p) as Obj) : clone(t);
    });
    const added = (patch as Obj[]).filter((item) => !(target as Obj[]).some((t) => t[key] === item[key]));
    return [...added.map(clone), ...merged];
  }
  if (isObject(patch)) {
    const out: Obj = isObject(target) ? clone(target) : {};
    for (const [k, v] of Object.entries(patch)) {
      if (k.startsWith("$")) throw new Error(`strategic merge directive ${k} is not supported by render.ts`);
      if (v === null) delete out[k];
      else out[k] = strategicMerge(out[k], v, k);
    }
    return out;
  }
  return patch;
}

export function applyJson6902(obj: Obj, ops: Obj[]): Obj {
  const out = clone(obj);
  for (const op of ops) {
    const parts = String(op.path)
      .split("/")
      .slice(1)
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = parts.pop();
    if (last === undefined) throw new Error(`bad JSON pointer ${op.path}`);
    let parent: Obj = out;
    for (const p of parts) {
      if (parent[p] === undefined) throw new Error(`JSON patch path ${op.path} does not exist`);
      parent = parent[p];
    }
    if (op.op === "add") {
      if (Array.isArray(parent)) {
        if (last === "-") parent.push(clone(op.value));
        else parent.splice(Number(last), 0, clone(op.value));
      } else parent[last] = clone(op.value);
    } else if (op.op === "replace") {
      if (parent[last] === undefined) throw new Error(`JSON patch replace: ${op.path} does not exist`);
      parent[last] = clone(op.value);
    } else if (op.op === "remove") {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else {
      throw new Error(`JSON patch op ${op.op} is not supported by render.ts`);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// Real kustomize, when one is installed (never in CI unless a project file
// installs it).

export interface RealKustomize {
  label: string;
  build(dir: string): Obj[];
}

export function findRealKustomize(): RealKustomize | undefined {
  const candidates: [string, string[]][] = [
    ["kustomize", ["build"]],
    ["kubectl", ["kustomize"]],
  ];
  for (const [bin, args] of candidates) {
    const probe = spawnSync(bin, args[0] === "build" ? ["version"] : ["version", "--client"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    if (probe.error || probe.status !== 0) continue;
    return {
      label: `${bin} ${args.join(" ")} (${probe.stdout.trim().split("\n").join(", ")})`,
      build(dir: string): Obj[] {
        const r = spawnSync(bin, [...args, dir], { encoding: "utf8", timeout: 120_000, maxBuffer: 64 << 20 });
        if (r.error) throw r.error;
        if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} ${dir} failed:\n${r.stderr}`);
        return parseAllDocuments(r.stdout)
          .map((d) => d.toJS())
          .filter((d) => d) as Obj[];
      },
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Helpers shared with the test

export function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function sameId(a: Obj, b: Obj): boolean {
  return a.kind === b.kind && a.metadata.name === b.metadata.name && a.metadata.namespace === b.metadata.namespace;
}

export function podSpec(o: Obj): Obj | undefined {
  if (["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"].includes(o.kind)) return o.spec?.template?.spec;
  if (o.kind === "CronJob") return o.spec?.jobTemplate?.spec?.template?.spec;
  if (o.kind === "Pod") return o.spec;
  return undefined;
}

export function podContainers(o: Obj): Obj[] {
  const spec = podSpec(o);
  return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
}

export function splitImage(image: string): { name: string; tag?: string; digest?: string } {
  const [rest, digest] = image.split("@");
  const slash = rest.lastIndexOf("/");
  const colon = rest.lastIndexOf(":");
  if (colon > slash) return { name: rest.slice(0, colon), tag: rest.slice(colon + 1), digest };
  return { name: rest, digest };
}

export function existsAsKustomization(dir: string): boolean {
  return existsSync(join(dir, KUSTOMIZATION_FILE));
}
