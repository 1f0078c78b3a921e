// Checks of the Kubernetes manifests in k8s/ (run: cd tools && npx vitest run k8s).
//
// Needs only Node and the repository's node_modules (vitest; `yaml`, which is
// installed through @opentelemetry/sdk-node and nx). k8s/ is rendered by the
// partial kustomize in render.ts; if a real `kustomize` or `kubectl` is on the
// PATH, every overlay is also rendered by it and must pass the same checks.
import { createPrivateKey, createPublicKey } from "node:crypto";
import { BlockList, isIPv6 } from "node:net";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import {
  build,
  existsAsKustomization,
  findRealKustomize,
  generatorData,
  isObject,
  KUSTOMIZATION_FILE,
  loadObjects,
  loadYaml,
  matchesSelectorString,
  parseEnvFile,
  podContainers,
  podSpec,
  readKustomization,
  splitImage,
  type Obj,
} from "./render";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const K8S = join(ROOT, "k8s");

const GRPC_SERVICES = ["core", "media", "integration", "reporting", "licensing"] as const;
const SERVICES = ["gateway", ...GRPC_SERVICES] as const;
const GRPC_PORT = 50051;
const HTTP_PORT = 8080;
const SECRET = "signage-secrets";
const CONFIG = "signage-config";
const OTEL_ENDPOINT = "http://otel-collector:4318";
const HA_SERVICES = ["gateway", "core", "media"];
// The processes that call other services, so load the peer addresses (the NetworkPolicies allow the same flows).
const PEER_CALLERS = ["gateway", "core", "media"];
// Room for the container's logs (the kubelet keeps up to 5 x 10Mi by default) above its emptyDirs.
const LOG_HEADROOM_BYTES = 64 * 1024 ** 2;

// Keys of the Secret each service must read, and the ones only that service may read.
const COMMON_SECRET_KEYS: Record<string, string[]> = {
  gateway: [],
  core: ["DATABASE_URL", "NATS_URL", "JWT_PUBLIC_KEY", "JWT_PRIVATE_KEY", "ADMIN_EMAIL", "ADMIN_PASSWORD"],
  media: ["DATABASE_URL", "NATS_URL", "JWT_PUBLIC_KEY", "STORAGE_URL", "STORAGE_SIGNING_SECRET"],
  integration: ["DATABASE_URL", "NATS_URL", "JWT_PUBLIC_KEY"],
  reporting: ["DATABASE_URL", "NATS_URL", "JWT_PUBLIC_KEY"],
  licensing: ["DATABASE_URL", "NATS_URL", "JWT_PUBLIC_KEY"],
};
const EXCLUSIVE_SECRET_KEYS: Record<string, string> = {
  JWT_PRIVATE_KEY: "core",
  ADMIN_EMAIL: "core",
  ADMIN_PASSWORD: "core",
  STORAGE_URL: "media",
  STORAGE_SIGNING_SECRET: "media",
};

// ---------------------------------------------------------------------------
// helpers

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const rel = (p: string) => relative(ROOT, p);
const isNamed = (o: Obj, name: string) => o.metadata.name === name || o.metadata.name.startsWith(`${name}-`);
const find = (objs: Obj[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
const workloads = (objs: Obj[]) => objs.filter((o) => podSpec(o) !== undefined);
const signageDeployment = (objs: Obj[], svc: string) => {
  const d = find(objs, "Deployment", svc);
  if (!d) throw new Error(`no Deployment ${svc}`);
  return d;
};
const mainContainer = (d: Obj): Obj => podSpec(d)!.containers[0];
const envOf = (c: Obj): Obj[] => c.env ?? [];
const envValue = (c: Obj, name: string) => envOf(c).find((e) => e.name === name)?.value;

function matchLabels(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const ml: Record<string, string> = selector.matchLabels ?? {};
  if (!Object.entries(ml).every(([k, v]) => labels[k] === v)) return false;
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const has = e.key in labels;
    const inValues = has && (e.values ?? []).includes(labels[e.key]);
    if (e.operator === "In" && !inValues) return false;
    if (e.operator === "NotIn" && inValues) return false;
    if (e.operator === "Exists" && !has) return false;
    if (e.operator === "DoesNotExist" && has) return false;
  }
  return true;
}

/** The numeric container port a Service port or probe port (number or name) refers to. */
function resolvePort(container: Obj, port: number | string): number | undefined {
  if (typeof port === "number") return (container.ports ?? []).some((p: Obj) => p.containerPort === port) ? port : undefined;
  return (container.ports ?? []).find((p: Obj) => p.name === port)?.containerPort;
}

function secretRefs(c: Obj): { env: string; key: string; name: string; optional: boolean }[] {
  return envOf(c)
    .filter((e) => e.valueFrom?.secretKeyRef)
    .map((e) => ({
      env: e.name,
      key: e.valueFrom.secretKeyRef.key,
      name: e.valueFrom.secretKeyRef.name,
      optional: e.valueFrom.secretKeyRef.optional === true,
    }));
}

function decodeSecret(s: Obj): Record<string, string> {
  const out: Record<string, string> = { ...(s.stringData ?? {}) };
  for (const [k, v] of Object.entries((s.data ?? {}) as Record<string, string>)) {
    out[k] = Buffer.from(v, "base64").toString("utf8");
  }
  return out;
}

/** Bytes of a Kubernetes quantity (binary and decimal suffixes). */
function quantityBytes(q: string | number): number {
  const m = /^(\d+(?:\.\d+)?)([KMGTE]i?)?$/.exec(String(q));
  if (!m) throw new Error(`unsupported quantity ${q}`);
  const unit = m[2] ?? "";
  const power = " KMGTE".indexOf(unit[0] ?? " ");
  return Number(m[1]) * (unit.endsWith("i") ? 1024 : 1000) ** Math.max(power, 0);
}

// ---------------------------------------------------------------------------
// The checks every rendering (base, dev, prod; ours and a real kustomize's) passes.

/** Security and operability rules for every workload, signage's own or infrastructure. */
function workloadProblems(objs: Obj[]): string[] {
  const problems: string[] = [];
  for (const w of workloads(objs)) {
    const id = `${w.kind}/${w.metadata.name}`;
    const pod = podSpec(w)!;
    const psc = pod.securityContext ?? {};
    if (pod.automountServiceAccountToken !== false) problems.push(`${id}: automountServiceAccountToken must be false`);
    if (pod.enableServiceLinks !== false) problems.push(`${id}: enableServiceLinks must be false`);
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${id}: host namespaces`);
    if (!matchLabels(w.spec.selector, pod && w.spec.template.metadata.labels)) {
      problems.push(`${id}: selector does not match the pod template labels`);
    }
    const volumes = new Set((pod.volumes ?? []).map((v: Obj) => v.name));
    for (const t of (w.spec.volumeClaimTemplates ?? []) as Obj[]) volumes.add(t.metadata.name);
    for (const c of podContainers(w)) {
      const cid = `${id} container ${c.name}`;
      const sc = c.securityContext ?? {};
      const eff = (k: string) => (sc[k] !== undefined ? sc[k] : psc[k]);
      if (eff("runAsNonRoot") !== true) problems.push(`${cid}: runAsNonRoot must be true`);
      const uid = eff("runAsUser");
      if (!Number.isInteger(uid) || uid <= 0) problems.push(`${cid}: runAsUser must be a non-zero uid`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${cid}: readOnlyRootFilesystem must be true`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${cid}: allowPrivilegeEscalation must be false`);
      if (sc.privileged === true) problems.push(`${cid}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) problems.push(`${cid}: must drop ALL capabilities`);
      if ((sc.capabilities?.add ?? []).length > 0) problems.push(`${cid}: adds capabilities`);
      if ((sc.seccompProfile ?? psc.seccompProfile)?.type !== "RuntimeDefault") {
        problems.push(`${cid}: seccompProfile must be RuntimeDefault`);
      }
      for (const kind of ["requests", "limits"]) {
        for (const r of ["cpu", "memory"]) {
          if (c.resources?.[kind]?.[r] === undefined) problems.push(`${cid}: missing resources.${kind}.${r}`);
        }
      }
      if (!c.readinessProbe) problems.push(`${cid}: no readinessProbe`);
      if (!c.livenessProbe) problems.push(`${cid}: no livenessProbe`);
      if (typeof c.image !== "string" || c.image === "") problems.push(`${cid}: no image`);
      for (const e of envOf(c)) {
        if ("value" in e && typeof e.value !== "string") problems.push(`${cid}: env ${e.name} must be a string`);
      }
      for (const m of (c.volumeMounts ?? []) as Obj[]) {
        if (!volumes.has(m.name)) problems.push(`${cid}: volumeMount ${m.name} has no volume`);
      }
      for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"]) {
        const p = c[probe];
        const port = p?.grpc?.port ?? p?.httpGet?.port ?? p?.tcpSocket?.port;
        if (port !== undefined && resolvePort(c, port) === undefined) {
          problems.push(`${cid}: ${probe} port ${port} is not a container port`);
        }
      }
    }
    // A Service must expose each workload (selector matches, ports resolve).
    const services = objs.filter(
      (s) => s.kind === "Service" && s.spec?.selector && matchLabels({ matchLabels: s.spec.selector }, w.spec.template.metadata.labels),
    );
    if (services.length === 0) problems.push(`${id}: no Service selects it`);
    for (const s of services) {
      for (const p of (s.spec.ports ?? []) as Obj[]) {
        const target = p.targetPort ?? p.port;
        if (!podContainers(w).some((c) => resolvePort(c, target) !== undefined)) {
          problems.push(`Service/${s.metadata.name}: port ${p.port} -> ${target} is not a port of ${id}`);
        }
      }
    }
    // emptyDirs live on the node's disk: requested so the scheduler counts them, limited above
    // their sizeLimits (plus logs) so a full volume is refused by its sizeLimit first.
    const emptyDirs = ((pod.volumes ?? []) as Obj[]).filter((v) => v.emptyDir && v.emptyDir.medium !== "Memory");
    if (emptyDirs.length > 0) {
      for (const v of emptyDirs) if (v.emptyDir.sizeLimit === undefined) problems.push(`${id}: emptyDir ${v.name} has no sizeLimit`);
      let limits = 0;
      for (const c of podContainers(w)) {
        for (const kind of ["requests", "limits"]) {
          if (c.resources?.[kind]?.["ephemeral-storage"] === undefined) problems.push(`${id} container ${c.name}: missing resources.${kind}.ephemeral-storage`);
        }
        limits += quantityBytes(c.resources?.limits?.["ephemeral-storage"] ?? 0);
      }
      const volumes = emptyDirs.reduce((sum, v) => sum + quantityBytes(v.emptyDir.sizeLimit ?? 0), 0);
      if (limits < volumes + LOG_HEADROOM_BYTES) problems.push(`${id}: ephemeral-storage limits (${limits} bytes) below its emptyDirs' sizeLimits plus logs (${volumes + LOG_HEADROOM_BYTES})`);
    }
    // A hard spread must not count nodes the pod cannot use (tainted pools, nodes being drained).
    for (const t of (pod.topologySpreadConstraints ?? []) as Obj[]) {
      if (t.whenUnsatisfiable === "DoNotSchedule" && t.nodeTaintsPolicy !== "Honor") {
        problems.push(`${id}: DoNotSchedule spread over ${t.topologyKey} needs nodeTaintsPolicy: Honor`);
      }
    }
    if (w.kind === "StatefulSet" && !find(objs, "Service", w.spec.serviceName)) {
      problems.push(`${id}: serviceName ${w.spec.serviceName} has no Service`);
    }
  }
  // An HPA owns its target's count: a count in the manifest would reset it on every apply.
  for (const hpa of objs.filter((o) => o.kind === "HorizontalPodAutoscaler")) {
    const target = find(objs, hpa.spec.scaleTargetRef.kind, hpa.spec.scaleTargetRef.name);
    if (!target) problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name}: no target ${hpa.spec.scaleTargetRef.name}`);
    else if (target.spec.replicas !== undefined) problems.push(`${target.kind}/${target.metadata.name}: spec.replicas set while HPA ${hpa.metadata.name} manages it`);
  }
  // Every ConfigMap an env/envFrom/volume names is part of the same rendering.
  for (const w of workloads(objs)) {
    const names = [
      ...podContainers(w).flatMap((c) => (c.envFrom ?? []).map((e: Obj) => e.configMapRef?.name)),
      ...podContainers(w).flatMap((c) => envOf(c).map((e) => e.valueFrom?.configMapKeyRef?.name)),
      ...(podSpec(w)!.volumes ?? []).map((v: Obj) => v.configMap?.name),
    ].filter(Boolean) as string[];
    for (const n of names) {
      if (!objs.some((o) => o.kind === "ConfigMap" && o.metadata.name === n)) {
        problems.push(`${w.kind}/${w.metadata.name}: ConfigMap ${n} is not in the rendering`);
      }
    }
  }
  return problems;
}

/** The six signage processes: ports, probes, env and Secret contract. */
function signageProblems(objs: Obj[], opts: { otel: boolean }): string[] {
  const problems: string[] = [];
  for (const svc of SERVICES) {
    const d = find(objs, "Deployment", svc);
    if (!d) {
      problems.push(`Deployment/${svc} missing`);
      continue;
    }
    const c = mainContainer(d);
    const pod = podSpec(d)!;
    const grpc = svc !== "gateway";
    const port = grpc ? GRPC_PORT : HTTP_PORT;
    if (pod.containers.length !== 1) problems.push(`${svc}: expected one container`);
    if (c.name !== svc) problems.push(`${svc}: container should be named ${svc}`);
    if (d.metadata.labels?.["app.kubernetes.io/component"] !== (grpc ? "backend" : "edge")) {
      problems.push(`${svc}: label app.kubernetes.io/component must be ${grpc ? "backend" : "edge"}`);
    }
    if (!/(^|\/)signage\/[a-z]+$/.test(splitImage(c.image).name) || !splitImage(c.image).name.endsWith(`/${svc}`)) {
      problems.push(`${svc}: image ${c.image} is not signage/${svc}`);
    }
    const uid = c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
    if (uid !== 10001) problems.push(`${svc}: must run as uid 10001 (the image's user), not ${uid}`);
    if (!(c.ports ?? []).some((p: Obj) => p.containerPort === port)) problems.push(`${svc}: no containerPort ${port}`);

    // Probes: native gRPC health for the services, /readyz and /healthz for the gateway.
    for (const probe of ["readinessProbe", "livenessProbe", "startupProbe"]) {
      const p = c[probe];
      if (!p && probe === "startupProbe") continue;
      if (grpc) {
        if (resolvePort(c, p?.grpc?.port) !== GRPC_PORT) problems.push(`${svc}: ${probe} must be grpc on ${GRPC_PORT}`);
      } else {
        const path = probe === "readinessProbe" ? "/readyz" : "/healthz";
        if (p?.httpGet?.path !== path || resolvePort(c, p?.httpGet?.port) !== HTTP_PORT) {
          problems.push(`gateway: ${probe} must be GET ${path} on ${HTTP_PORT}`);
        }
      }
    }

    // Service <svc> exposes the port under the name the gateway dials.
    const s = find(objs, "Service", svc);
    const sp = s?.spec?.ports?.find((p: Obj) => p.port === port);
    if (!s || !sp) problems.push(`${svc}: Service ${svc} must expose port ${port}`);
    else if (resolvePort(c, sp.targetPort ?? sp.port) !== port) problems.push(`${svc}: Service targetPort must reach ${port}`);
    else if (!matchLabels({ matchLabels: s.spec.selector }, d.spec.template.metadata.labels)) {
      problems.push(`${svc}: Service selector does not select the Deployment's pods`);
    }

    // Environment.
    if (grpc) {
      if (envValue(c, "SERVICE_HOST") !== "0.0.0.0") problems.push(`${svc}: SERVICE_HOST must be 0.0.0.0`);
      if (envValue(c, "SERVICE_PORT") !== String(GRPC_PORT)) problems.push(`${svc}: SERVICE_PORT must be ${GRPC_PORT}`);
    } else {
      if (envValue(c, "GATEWAY_HOST") !== "0.0.0.0") problems.push(`gateway: GATEWAY_HOST must be 0.0.0.0`);
      if (envValue(c, "GATEWAY_PORT") !== String(HTTP_PORT)) problems.push(`gateway: GATEWAY_PORT must be ${HTTP_PORT}`);
    }
    // Peer addresses: the gateway dials every service, core and media dial each other; set on the
    // container or through a ConfigMap it loads. The others call no peer and get none.
    const loaded = ((c.envFrom ?? []) as Obj[])
      .map((e) => objs.find((o) => o.kind === "ConfigMap" && o.metadata.name === e.configMapRef?.name))
      .filter(Boolean) as Obj[];
    for (const target of GRPC_SERVICES) {
      const key = `${target.toUpperCase()}_URL`;
      const want = PEER_CALLERS.includes(svc) ? `http://${target}:${GRPC_PORT}` : undefined;
      const got = envValue(c, key) ?? loaded.map((o) => o.data?.[key]).find((v) => v !== undefined);
      if (got !== want) problems.push(`${svc}: ${key} is ${got}, want ${want}`);
    }
    const fromConfig = (c.envFrom ?? []).some((e: Obj) => e.configMapRef && isNamed({ metadata: { name: e.configMapRef.name } }, CONFIG));
    if (!fromConfig) problems.push(`${svc}: must load envFrom ConfigMap ${CONFIG}`);
    if ((c.envFrom ?? []).some((e: Obj) => e.secretRef)) {
      problems.push(`${svc}: envFrom secretRef would hand every key to every service; use secretKeyRef`);
    }
    const refs = secretRefs(c);
    for (const r of refs) {
      if (!isNamed({ metadata: { name: r.name } }, SECRET)) problems.push(`${svc}: env ${r.env} reads Secret ${r.name}`);
      if (r.env !== r.key) problems.push(`${svc}: env ${r.env} should read key ${r.env}, not ${r.key}`);
      const owner = EXCLUSIVE_SECRET_KEYS[r.key];
      if (owner && owner !== svc) problems.push(`${svc}: must not read ${r.key} (only ${owner})`);
    }
    for (const key of COMMON_SECRET_KEYS[svc]) {
      if (!refs.some((r) => r.key === key && !r.optional)) problems.push(`${svc}: must read ${key} from ${SECRET}`);
    }
    if (svc === "gateway" && refs.some((r) => r.key === "DATABASE_URL")) problems.push(`gateway: needs no DATABASE_URL`);

    // Read-only root filesystem: /tmp must be a writable emptyDir (tsx cache, uploads).
    const tmp = (c.volumeMounts ?? []).find((m: Obj) => m.mountPath === "/tmp");
    const tmpVolume = tmp && (pod.volumes ?? []).find((v: Obj) => v.name === tmp.name);
    if (!tmpVolume?.emptyDir || tmp.readOnly) problems.push(`${svc}: /tmp must be a writable emptyDir`);

    const otel = envValue(c, "OTEL_EXPORTER_OTLP_ENDPOINT");
    if (opts.otel && otel !== OTEL_ENDPOINT) problems.push(`${svc}: OTEL_EXPORTER_OTLP_ENDPOINT is ${otel}, want ${OTEL_ENDPOINT}`);
    if (!opts.otel && otel !== undefined) problems.push(`${svc}: OTEL endpoint set without the otel component`);
    const names = envOf(c).map((e) => e.name);
    const dup = names.filter((n, i) => names.indexOf(n) !== i);
    if (dup.length) problems.push(`${svc}: duplicate env ${dup.join(", ")}`);
  }
  if (opts.otel) {
    const collector = find(objs, "Deployment", "otel-collector");
    if (!collector) problems.push("otel: Deployment otel-collector missing");
    else if (envValue(mainContainer(collector), "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined) {
      problems.push("otel: the collector must not export to itself");
    }
    const svc = find(objs, "Service", "otel-collector");
    if (!svc?.spec.ports.some((p: Obj) => p.port === 4318)) problems.push("otel: Service otel-collector must expose 4318");
  }
  return problems;
}

function namespaceProblems(objs: Obj[], ns: string): string[] {
  const problems: string[] = [];
  if (!find(objs, "Namespace", ns)) problems.push(`Namespace ${ns} missing`);
  for (const o of objs) {
    if (o.kind === "Namespace") continue;
    if (o.metadata.namespace !== ns) problems.push(`${o.kind}/${o.metadata.name}: namespace ${o.metadata.namespace}, want ${ns}`);
  }
  return problems;
}

// --- NetworkPolicy evaluation (ingress/egress by pod labels and TCP port) ----

interface Peer {
  labels: Record<string, string>;
  /** false: outside this namespace (another namespace's pod, or outside the cluster). */
  inNamespace: boolean;
  /** Another namespace's pod: its name (namespaceSelector matches kubernetes.io/metadata.name). */
  namespace?: string;
  /** Outside the cluster: its address (ipBlock rules apply to these only). */
  ip?: string;
}

function inCidr(ip: string, cidr: string): boolean {
  const [net, bits] = cidr.split("/");
  const type = isIPv6(net) ? "ipv6" : "ipv4";
  if (isIPv6(ip) !== (type === "ipv6")) return false;
  const list = new BlockList();
  list.addSubnet(net, Number(bits), type);
  return list.check(ip, type);
}

function portAllowed(rulePorts: Obj[] | undefined, port: number): boolean {
  if (!rulePorts || rulePorts.length === 0) return true;
  return rulePorts.some((p) => (p.protocol ?? "TCP") === "TCP" && (p.port === undefined || p.port === port));
}

function peerAllowed(peers: Obj[] | undefined, other: Peer): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((p) => {
    if (p.ipBlock) {
      const { cidr, except = [] } = p.ipBlock as { cidr: string; except?: string[] };
      return other.ip !== undefined && inCidr(other.ip, cidr) && !except.some((e) => inCidr(other.ip!, e));
    }
    if (p.namespaceSelector) {
      if (other.namespace === undefined) return false;
      const nsLabels = { "kubernetes.io/metadata.name": other.namespace };
      return matchLabels(p.namespaceSelector, nsLabels) && (!p.podSelector || matchLabels(p.podSelector, other.labels));
    }
    return other.inNamespace && matchLabels(p.podSelector, other.labels);
  });
}

function allowed(policies: Obj[], from: Peer, to: Peer, port: number): boolean {
  const direction = (pod: Peer, type: "Ingress" | "Egress", other: Peer) => {
    if (!pod.inNamespace) return true;
    const selecting = policies.filter(
      (p) => matchLabels(p.spec.podSelector, pod.labels) && (p.spec.policyTypes ?? ["Ingress"]).includes(type),
    );
    if (selecting.length === 0) return true;
    return selecting.some((p) =>
      ((type === "Ingress" ? p.spec.ingress : p.spec.egress) ?? []).some(
        (rule: Obj) => peerAllowed(type === "Ingress" ? rule.from : rule.to, other) && portAllowed(rule.ports, port),
      ),
    );
  };
  return direction(from, "Egress", to) && direction(to, "Ingress", from);
}

// ---------------------------------------------------------------------------
// Tests

const kustomizationDirs = walk(K8S)
  .filter((f) => f.endsWith(`/${KUSTOMIZATION_FILE}`))
  .map(dirname)
  .sort();

describe("k8s: kustomization files", () => {
  it("finds the expected layout", () => {
    const dirs = kustomizationDirs.map((d) => relative(K8S, d));
    for (const want of [
      "base",
      ...SERVICES.map((s) => `base/${s}`),
      "components/nats",
      "components/postgres",
      "components/otel",
      "components/network-policies",
      "overlays/dev",
      "overlays/prod",
    ]) {
      expect(dirs, want).toContain(want);
    }
  });

  it.each(kustomizationDirs.map((d) => [rel(d), d]))("%s: every referenced file exists", (_, dir) => {
    const k = readKustomization(dir);
    const isComponent = relative(K8S, dir).startsWith("components/");
    expect(k.kind).toBe(isComponent ? "Component" : "Kustomization");
    expect(k.apiVersion).toBe(isComponent ? "kustomize.config.k8s.io/v1alpha1" : "kustomize.config.k8s.io/v1beta1");
    for (const r of k.resources ?? []) {
      expect(r, "remote resources are not allowed").not.toMatch(/^(https?:|git@|github\.com)/);
      const p = join(dir, r);
      expect(() => statSync(p), `${rel(dir)}: resource ${r}`).not.toThrow();
      if (statSync(p).isDirectory()) expect(existsAsKustomization(p), `${r} has a kustomization`).toBe(true);
      else expect(loadObjects(p).length, `${r} holds objects`).toBeGreaterThan(0);
    }
    for (const c of k.components ?? []) {
      const p = join(dir, c);
      expect(existsAsKustomization(p), `${rel(dir)}: component ${c}`).toBe(true);
      expect(readKustomization(p).kind, `${c} is a Component`).toBe("Component");
    }
    for (const p of k.patches ?? []) {
      if (p.path) expect(() => loadYaml(join(dir, p.path!)), `${rel(dir)}: patch ${p.path}`).not.toThrow();
      else expect(p.patch, "inline patch").toBeTruthy();
    }
    for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
      expect(() => generatorData(dir, g), `${rel(dir)}: generator ${g.name} inputs`).not.toThrow();
    }
  });

  it("has no orphaned YAML: every manifest and patch under k8s/ is referenced", () => {
    const referenced = new Set<string>();
    for (const dir of kustomizationDirs) {
      const k = readKustomization(dir);
      referenced.add(join(dir, KUSTOMIZATION_FILE));
      for (const r of k.resources ?? []) referenced.add(join(dir, r));
      for (const p of k.patches ?? []) if (p.path) referenced.add(join(dir, p.path));
      for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
        for (const f of [...(g.files ?? []), ...(g.envs ?? [])]) referenced.add(join(dir, f.includes("=") ? f.split("=")[1] : f));
      }
    }
    const yamls = walk(K8S).filter((f) => /\.ya?ml$/.test(f));
    expect(yamls.filter((f) => !referenced.has(f)).map(rel)).toEqual([]);
  });

  it("every YAML file parses strictly (no duplicate keys)", () => {
    for (const f of walk(K8S).filter((f) => /\.ya?ml$/.test(f))) expect(() => loadYaml(f), rel(f)).not.toThrow();
  });
});

describe("k8s: base", () => {
  let objs: Obj[] = [];
  beforeAll(() => {
    objs = build(join(K8S, "base"));
  });

  it("defines the six services with their ServiceAccounts and the shared ConfigMap", () => {
    for (const svc of SERVICES) {
      expect(find(objs, "Deployment", svc), svc).toBeDefined();
      expect(find(objs, "Service", svc), svc).toBeDefined();
      expect(find(objs, "ServiceAccount", svc), svc).toBeDefined();
      expect(podSpec(signageDeployment(objs, svc))!.serviceAccountName).toBe(svc);
      expect(mainContainer(signageDeployment(objs, svc)).image).toBe(`signage/${svc}:latest`);
    }
    expect(find(objs, "ConfigMap", CONFIG)).toBeDefined();
  });

  it("ships no credentials: no Secret objects", () => {
    expect(objs.filter((o) => o.kind === "Secret").map((o) => o.metadata.name)).toEqual([]);
  });

  it("workloads are non-root, read-only, capability-free, with resources and probes", () => {
    expect(workloadProblems(objs)).toEqual([]);
  });

  it("services expose the right ports, probes and env", () => {
    expect(signageProblems(objs, { otel: false })).toEqual([]);
  });

  it("media reads STORAGE_URL and has the largest scratch /tmp (uploads stream through it)", () => {
    const media = signageDeployment(objs, "media");
    expect(secretRefs(mainContainer(media)).map((r) => r.key)).toContain("STORAGE_URL");
    const bytes = (q: string) => Number.parseFloat(q) * 1024 ** "KMGT".indexOf(q.replace(/[\d.]/g, "")[0]);
    const tmpSize = (svc: string) =>
      bytes(podSpec(signageDeployment(objs, svc))!.volumes.find((v: Obj) => v.name === "tmp").emptyDir.sizeLimit);
    for (const svc of SERVICES) if (svc !== "media") expect(tmpSize("media"), svc).toBeGreaterThan(tmpSize(svc));
  });

  it("sizes core's argon2 hashing and libuv threadpool for its CPU limit", () => {
    const core = mainContainer(signageDeployment(objs, "core"));
    const cpus = Math.ceil(quantityBytes(core.resources.limits.cpu));
    const hashes = Number(envValue(core, "AUTH_HASH_CONCURRENCY"));
    // Two limiters (token grants; authenticated callers) of AUTH_HASH_CONCURRENCY each.
    expect(hashes).toBeGreaterThanOrEqual(1);
    expect(hashes).toBeLessThanOrEqual(cpus);
    // libuv's default 4 threads stay free for DNS lookups and file I/O beside both limiters.
    expect(Number(envValue(core, "UV_THREADPOOL_SIZE"))).toBeGreaterThanOrEqual(2 * hashes + 4);
  });

  it("maps the optional S3 keys the storage adapter reads", () => {
    const refs = secretRefs(mainContainer(signageDeployment(objs, "media")));
    for (const key of ["AWS_REGION", "AWS_ENDPOINT_URL_S3", "AWS_S3_FORCE_PATH_STYLE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]) {
      expect(refs.find((r) => r.key === key), key).toMatchObject({ optional: true });
    }
  });

  it("every Secret key the manifests read is documented in secrets.env.example", () => {
    const example = readFileSync(join(K8S, "overlays/dev/secrets.env.example"), "utf8");
    // Set, commented out as `# KEY=value` (optional ones), or described as a file (`#   JWT_...`).
    const commented = [...example.matchAll(/^#\s*([A-Z][A-Z0-9_]+)=/gm), ...example.matchAll(/#\s+(JWT_\w+)/g)].map((m) => m[1]);
    const documented = new Set([...Object.keys(parseEnvFile(example)), ...commented]);
    const used = new Set(workloads(build(join(K8S, "overlays/dev"))).flatMap((w) => podContainers(w).flatMap((c) => secretRefs(c).map((r) => r.key))));
    expect([...used].filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !used.has(k))).toEqual([]);
  });
});

describe("k8s: overlays/dev", () => {
  let objs: Obj[] = [];
  beforeAll(() => {
    objs = build(join(K8S, "overlays/dev"));
  });

  it("passes the workload and service checks, with OTLP export", () => {
    expect(workloadProblems(objs)).toEqual([]);
    expect(signageProblems(objs, { otel: true })).toEqual([]);
  });

  it("puts everything in namespace signage-dev", () => {
    expect(namespaceProblems(objs, "signage-dev")).toEqual([]);
  });

  it("runs one replica of each service from locally built, non-latest images", () => {
    for (const svc of SERVICES) {
      const d = signageDeployment(objs, svc);
      expect(d.spec.replicas, svc).toBe(1);
      expect(splitImage(mainContainer(d).image).tag, svc).not.toBe("latest");
    }
  });

  it("includes single-node NATS JetStream and PostgreSQL with persistent volumes", () => {
    for (const name of ["nats", "postgres"]) {
      const s = find(objs, "StatefulSet", name);
      expect(s, name).toBeDefined();
      expect(s!.spec.replicas).toBe(1);
      expect(s!.spec.volumeClaimTemplates?.length, `${name} PVC`).toBe(1);
    }
    const natsConf = objs.find((o) => o.kind === "ConfigMap" && isNamed(o, "nats-config"));
    expect(natsConf?.data?.["nats.conf"]).toMatch(/jetstream\s*\{/);
  });

  it("generates signage-secrets with every key the pods read, consistent with PostgreSQL and NATS", () => {
    const secret = objs.find((o) => o.kind === "Secret" && isNamed(o, SECRET));
    expect(secret).toBeDefined();
    const data = decodeSecret(secret!);
    for (const w of workloads(objs)) {
      for (const c of podContainers(w)) {
        for (const r of secretRefs(c)) {
          if (!r.optional) expect(data[r.key], `${w.metadata.name} reads ${r.key}`).toBeTruthy();
        }
      }
    }
    const pg = mainContainer(find(objs, "StatefulSet", "postgres")!);
    const db = new URL(data.DATABASE_URL);
    expect(db.protocol).toMatch(/^postgres(ql)?:$/);
    expect(db.hostname).toBe("postgres");
    expect(db.port).toBe("5432");
    expect(decodeURIComponent(db.username)).toBe(envValue(pg, "POSTGRES_USER"));
    expect(decodeURIComponent(db.password)).toBe(data.POSTGRES_PASSWORD);
    expect(db.pathname).toBe(`/${envValue(pg, "POSTGRES_DB")}`);
    const nats = new URL(data.NATS_URL);
    expect(nats.protocol).toBe("nats:");
    expect(find(objs, "Service", nats.hostname)?.spec.ports.some((p: Obj) => p.port === Number(nats.port))).toBe(true);
    expect(data.JWT_PRIVATE_KEY).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(data.JWT_PUBLIC_KEY).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // Dev values are marked as such where they are defined.
    expect(readFileSync(join(K8S, "overlays/dev", KUSTOMIZATION_FILE), "utf8")).toMatch(/DEV-ONLY/);
  });

  it("ships a dev JWT key pair that libs/auth accepts (P-256 or Ed25519, PKCS#8 + SPKI, matching halves)", () => {
    const data = decodeSecret(objs.find((o) => o.kind === "Secret" && isNamed(o, SECRET))!);
    const priv = createPrivateKey(data.JWT_PRIVATE_KEY);
    const pub = createPublicKey(data.JWT_PUBLIC_KEY);
    const kind = priv.asymmetricKeyType === "ec" ? `ec/${priv.asymmetricKeyDetails?.namedCurve}` : priv.asymmetricKeyType;
    expect(["ec/prime256v1", "ed25519"]).toContain(kind);
    const derived = createPublicKey(priv).export({ type: "spki", format: "pem" }).toString();
    expect(pub.export({ type: "spki", format: "pem" }).toString()).toBe(derived);
  });

  it("in-cluster PostgreSQL and NATS accept only the services (their components carry the policies)", () => {
    const policies = objs.filter((o) => o.kind === "NetworkPolicy");
    const labels = (kind: string, name: string) => find(objs, kind, name)!.spec.template.metadata.labels as Record<string, string>;
    const admits = (store: string, port: number, from: Record<string, string>) =>
      policies
        .filter((p) => matchLabels(p.spec.podSelector, labels("StatefulSet", store)))
        .some((p) => (p.spec.ingress ?? []).some((r: Obj) => peerAllowed(r.from, { labels: from, inNamespace: true }) && portAllowed(r.ports, port)));
    for (const [store, port] of [["postgres", 5432], ["nats", 4222]] as const) {
      for (const svc of GRPC_SERVICES) expect(admits(store, port, labels("Deployment", svc)), `${svc} -> ${store}`).toBe(true);
      expect(admits(store, port, labels("Deployment", "gateway")), `gateway -> ${store}`).toBe(false);
      expect(admits(store, port, { app: "something-else" }), `stranger -> ${store}`).toBe(false);
    }
  });

  it("gives media a writable blob directory matching its dev STORAGE_URL", () => {
    const secret = decodeSecret(objs.find((o) => o.kind === "Secret" && isNamed(o, SECRET))!);
    const url = new URL(secret.STORAGE_URL);
    const media = signageDeployment(objs, "media");
    if (url.protocol === "file:") {
      const mount = (mainContainer(media).volumeMounts ?? []).find((m: Obj) => url.pathname.startsWith(m.mountPath));
      expect(mount, `a volume at ${url.pathname}`).toBeDefined();
      expect(mount.readOnly).not.toBe(true);
    }
  });
});

describe("k8s: overlays/prod", () => {
  let objs: Obj[] = [];
  beforeAll(() => {
    objs = build(join(K8S, "overlays/prod"));
  });

  it("passes the workload and service checks, with OTLP export", () => {
    expect(workloadProblems(objs)).toEqual([]);
    expect(signageProblems(objs, { otel: true })).toEqual([]);
  });

  it("puts everything in namespace signage", () => {
    expect(namespaceProblems(objs, "signage")).toEqual([]);
  });

  it("ships no credentials and no in-cluster PostgreSQL/NATS", () => {
    expect(objs.filter((o) => o.kind === "Secret")).toEqual([]);
    expect(objs.filter((o) => o.kind === "StatefulSet")).toEqual([]);
  });

  it("uses pinned registry images, not :latest", () => {
    for (const svc of SERVICES) {
      const { name, tag, digest } = splitImage(mainContainer(signageDeployment(objs, svc)).image);
      expect(name, svc).toContain("/signage/");
      expect(tag ?? digest, svc).toBeTruthy();
      expect(tag, svc).not.toBe("latest");
    }
  });

  it("runs gateway, core and media highly available: 2+ replicas, PDB, topology spread", () => {
    for (const svc of HA_SERVICES) {
      const d = signageDeployment(objs, svc);
      const labels = d.spec.template.metadata.labels;
      const hpa = objs.find((o) => o.kind === "HorizontalPodAutoscaler" && o.spec.scaleTargetRef.name === svc);
      expect(hpa?.spec.minReplicas ?? d.spec.replicas, svc).toBeGreaterThanOrEqual(2);
      const pdb = objs.find((o) => o.kind === "PodDisruptionBudget" && matchLabels(o.spec.selector, labels));
      expect(pdb, `${svc} PDB`).toBeDefined();
      expect(pdb!.apiVersion).toBe("policy/v1");
      const spread = (podSpec(d)!.topologySpreadConstraints ?? []) as Obj[];
      const keys = spread.filter((t) => matchLabels(t.labelSelector, labels)).map((t) => t.topologyKey);
      expect(keys, `${svc} spread`).toEqual(expect.arrayContaining(["kubernetes.io/hostname", "topology.kubernetes.io/zone"]));
    }
  });

  it("autoscales the gateway with an HPA whose floor keeps it HA", () => {
    const hpa = objs.find((o) => o.kind === "HorizontalPodAutoscaler" && o.spec.scaleTargetRef.name === "gateway");
    expect(hpa).toBeDefined();
    expect(hpa!.apiVersion).toBe("autoscaling/v2");
    expect(hpa!.spec.scaleTargetRef.kind).toBe("Deployment");
    expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa!.spec.maxReplicas).toBeGreaterThan(hpa!.spec.minReplicas);
    // Resource-based scaling needs requests on the target's containers (checked above).
    // The HPA alone sets the count (also part of workloadProblems).
    expect(signageDeployment(objs, "gateway").spec.replicas).toBeUndefined();
  });

  it("spreads hard over nodes counting only the nodes a pod may use (tainted and cordoned ones excluded)", () => {
    for (const svc of SERVICES) {
      const spread = (podSpec(signageDeployment(objs, svc))!.topologySpreadConstraints ?? []) as Obj[];
      const hard = spread.find((t) => t.topologyKey === "kubernetes.io/hostname");
      expect(hard, svc).toMatchObject({ whenUnsatisfiable: "DoNotSchedule", nodeTaintsPolicy: "Honor", nodeAffinityPolicy: "Honor" });
    }
  });

  it("trusts the ingress controller's X-Forwarded-For entry, and only the ingress controller reaches the gateway", () => {
    expect(envValue(mainContainer(signageDeployment(objs, "gateway")), "GATEWAY_TRUSTED_PROXIES")).toBe("1");
    const policy = objs.find((o) => o.kind === "NetworkPolicy" && o.spec.podSelector?.matchLabels?.["app.kubernetes.io/name"] === "gateway");
    expect(policy?.spec.ingress).toHaveLength(1);
    expect(policy!.spec.ingress[0].from).toEqual([{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } }]);
  });

  it("keeps the events stream on 3 servers of the managed NATS cluster", () => {
    expect(objs.find((o) => o.kind === "ConfigMap" && isNamed(o, CONFIG))?.data?.NATS_STREAM_REPLICAS).toBe("3");
  });

  it("network policies: default deny, and only the platform's flows allowed", () => {
    const policies = objs.filter((o) => o.kind === "NetworkPolicy");
    const deny = policies.find(
      (p) =>
        Object.keys(p.spec.podSelector ?? {}).length === 0 &&
        ["Ingress", "Egress"].every((t) => p.spec.policyTypes?.includes(t)) &&
        !p.spec.ingress &&
        !p.spec.egress,
    );
    expect(deny, "a default-deny policy").toBeDefined();

    const pod = (name: string): Peer => {
      const w = workloads(objs).find((o) => o.metadata.name === name);
      return { labels: w ? w.spec.template.metadata.labels : podLabelsOfInfra(name), inNamespace: true };
    };
    // The dev components' pod labels: the same policies also cover in-cluster data stores.
    const podLabelsOfInfra = (name: string) => {
      const dir = join(K8S, "components", name);
      const s = loadObjects(join(dir, "statefulset.yaml")).find((o) => o.kind === "StatefulSet")!;
      return s.spec.template.metadata.labels as Record<string, string>;
    };
    const outside: Peer = { labels: {}, inNamespace: false, ip: "198.51.100.7" };
    const outsideV6: Peer = { labels: {}, inNamespace: false, ip: "2001:db8::7" };
    const metadata: Peer = { labels: {}, inNamespace: false, ip: "169.254.169.254" };
    const metadataV6: Peer = { labels: {}, inNamespace: false, ip: "fd00:ec2::254" };
    const privateAddress: Peer = { labels: {}, inNamespace: false, ip: "10.96.0.10" };
    const ingressController: Peer = { labels: { "app.kubernetes.io/name": "ingress-nginx" }, inNamespace: false, namespace: "ingress-nginx" };
    const otherNamespace: Peer = { labels: { "app.kubernetes.io/name": "ingress-nginx" }, inNamespace: false, namespace: "team-b" };
    const stranger: Peer = { labels: { app: "something-else" }, inNamespace: true };
    const gateway = pod("gateway");
    const collector = pod("otel-collector");
    // In-cluster PostgreSQL/NATS bring their own policies (components/postgres, components/nats):
    // evaluated as an overlay with those components and this one renders them.
    const storePolicies = ["postgres", "nats"].flatMap((c) => loadObjects(join(K8S, "components", c, "network-policy.yaml")));
    expect(policies.filter((p) => storePolicies.some((s) => s.metadata.name === p.metadata.name))).toEqual([]);
    policies.push(...storePolicies);

    const must: [string, Peer, Peer, number][] = [["ingress controller -> gateway", ingressController, gateway, HTTP_PORT]];
    const mustNot: [string, Peer, Peer, number][] = [
      ["outside -> gateway", outside, gateway, HTTP_PORT],
      ["another namespace -> gateway", otherNamespace, gateway, HTTP_PORT],
      ["stranger -> gateway", stranger, gateway, HTTP_PORT],
      ["media -> cloud metadata", pod("media"), metadata, 443],
      ["media -> cloud metadata (IPv6)", pod("media"), metadataV6, 443],
      ["integration -> cloud metadata", pod("integration"), metadata, 80],
      ["integration -> private address", pod("integration"), privateAddress, 443],
      ["media -> private address", pod("media"), privateAddress, 443],
      ["stranger -> core", stranger, pod("core"), GRPC_PORT],
      ["gateway -> postgres", gateway, pod("postgres"), 5432],
      ["gateway -> outside postgres", gateway, outside, 5432],
      ["stranger -> postgres", stranger, pod("postgres"), 5432],
      ["outside -> core", outside, pod("core"), GRPC_PORT],
      ["core -> outside https", pod("core"), outside, 443],
    ];
    for (const svc of GRPC_SERVICES) {
      const s = pod(svc);
      must.push([`gateway -> ${svc}`, gateway, s, GRPC_PORT]);
      must.push([`core -> ${svc}`, pod("core"), s, GRPC_PORT]);
      must.push([`${svc} -> postgres`, s, pod("postgres"), 5432]);
      must.push([`${svc} -> nats`, s, pod("nats"), 4222]);
      must.push([`${svc} -> external postgres`, s, outside, 5432]);
      must.push([`${svc} -> external nats`, s, outside, 4222]);
      must.push([`${svc} -> otel-collector`, s, collector, 4318]);
      mustNot.push([`${svc} -> gateway`, s, gateway, 9999]);
    }
    must.push(["gateway -> otel-collector", gateway, collector, 4318]);
    must.push(["media -> object storage", pod("media"), outside, 443]);
    must.push(["integration -> webhooks", pod("integration"), outside, 443]);
    must.push(["integration -> webhooks (IPv6)", pod("integration"), outsideV6, 443]);
    must.push(["integration -> webhooks over http", pod("integration"), outside, 80]);
    must.push(["media -> object storage (IPv6)", pod("media"), outsideV6, 443]);
    for (const [what, from, to, port] of must) expect(allowed(policies, from, to, port), what).toBe(true);
    for (const [what, from, to, port] of mustNot) expect(allowed(policies, from, to, port), what).toBe(false);
    // DNS from every pod.
    const dns = policies.some(
      (p) =>
        Object.keys(p.spec.podSelector ?? {}).length === 0 &&
        (p.spec.egress ?? []).some((r: Obj) => portAllowed(r.ports, 53) && (r.ports ?? []).some((x: Obj) => x.protocol === "UDP")),
    );
    expect(dns, "DNS egress for all pods").toBe(true);
  });
});

describe("k8s: otel component", () => {
  it("targets exactly the six signage Deployments", () => {
    const k = readKustomization(join(K8S, "components/otel"));
    const selector = k.patches?.[0]?.target?.labelSelector ?? "";
    const base = build(join(K8S, "base"));
    const collector = loadObjects(join(K8S, "components/otel/collector.yaml")).find((o) => o.kind === "Deployment")!;
    const hit = [...base, collector]
      .filter((o) => o.kind === "Deployment" && matchesSelectorString(o.metadata.labels ?? {}, selector))
      .map((o) => o.metadata.name)
      .sort();
    expect(hit).toEqual([...SERVICES].sort());
  });
});

describe("k8s: Dockerfile", () => {
  const text = readFileSync(join(K8S, "Dockerfile"), "utf8");
  const lines = text.split("\n").filter((l) => !l.trimStart().startsWith("#"));
  const from = lines.filter((l) => /^FROM\s/i.test(l));

  it("is multi-stage, installs production dependencies only, runs the service's bundle as 10001", () => {
    expect(from.length).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/npm ci --omit=dev/);
    expect(text).toMatch(/NODE_ENV=production/);
    const final = lines.slice(lines.lastIndexOf(from[from.length - 1]));
    const users = final.filter((l) => /^USER\s/.test(l));
    expect(users.at(-1)).toMatch(/^USER\s+10001(:10001)?\s*$/);
    // The OTel loader hook is registered before the app (tools/build/bundle-service.mjs).
    expect(final.join("\n")).toMatch(/node --import \\"\.\/apps\/\$\{SERVICE\}\/dist\/register\.js\\" \\"apps\/\$\{SERVICE\}\/dist\/main\.js\\"/);
    expect(text).toMatch(/bundle-service\.mjs/);
  });

  it("has a build-context ignore file that keeps node_modules, .git and secrets out", () => {
    const ignore = readFileSync(join(K8S, "Dockerfile.dockerignore"), "utf8").split("\n");
    for (const want of ["**/node_modules", ".git", "**/secrets.env"]) expect(ignore).toContain(want);
  });
});

// A real kustomize, if installed, must render every overlay and the result must
// pass the same checks (and agree with render.ts on what objects exist).
const real = findRealKustomize();
describe.skipIf(!real)(`k8s: real kustomize render (${real?.label ?? "not installed: skipped"})`, () => {
  const strip = (o: Obj) => {
    const name: string = o.metadata.name;
    const generated = ["ConfigMap", "Secret"].includes(o.kind) && /-[a-z0-9]{10}$/.test(name);
    return `${o.kind}/${o.metadata.namespace ?? ""}/${generated ? name.slice(0, -11) : name}`;
  };

  it.each([
    ["base", { otel: false, ns: undefined }],
    ["overlays/dev", { otel: true, ns: "signage-dev" }],
    ["overlays/prod", { otel: true, ns: "signage" }],
  ] as const)("%s", (dir, opts) => {
    const objs = real!.build(join(K8S, dir));
    const ours = build(join(K8S, dir));
    expect(objs.map(strip).sort()).toEqual(ours.map(strip).sort());
    expect(workloadProblems(objs)).toEqual([]);
    expect(signageProblems(objs, { otel: opts.otel })).toEqual([]);
    if (opts.ns) expect(namespaceProblems(objs, opts.ns)).toEqual([]);
    // Same Deployments, field for field, once generated names are normalised.
    const norm = (o: Obj) => JSON.parse(JSON.stringify(o).replace(/"((?:signage-config|signage-peers|signage-secrets|nats-config|otel-collector-config))-[a-z0-9]{10}"/g, '"$1"'));
    for (const d of objs.filter((o) => o.kind === "Deployment" || o.kind === "StatefulSet")) {
      const mine = ours.find((o) => o.kind === d.kind && o.metadata.name === d.metadata.name);
      expect(norm(d), `${d.kind}/${d.metadata.name}`).toEqual(norm(mine!));
    }
    expect(isObject(objs[0])).toBe(true);
  });
});
