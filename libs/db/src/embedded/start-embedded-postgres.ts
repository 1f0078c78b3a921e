import { access, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { silentLogger, type DbLogger } from "../logger.js";
import { ensureDatabase } from "./ensure-database.js";
import { guardProcessExit } from "./exit-guard.js";
import { loadEmbeddedPostgres } from "./load-embedded-postgres.js";
import { findFreePort, isPortFree } from "./ports.js";
import { assertNotRunning } from "./postmaster-pid.js";
import { generatePassword, readState, writeState } from "./state.js";

export interface StartEmbeddedPostgresOptions {
  /** Root data directory (DATA_DIR); the cluster lives in `<dataDir>/pg`. */
  dataDir: string;
  /** Preferred port (default: the port persisted by a previous run, else 5433). Busy -> a free port is used. */
  port?: number;
  /** Database created if missing; default "signage". */
  database?: string;
  logger?: DbLogger;
}

export interface EmbeddedPostgresHandle {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  /** Idempotent; fast shutdown (SIGINT). */
  stop(): Promise<void>;
}

const DEFAULT_PORT = 5433;
const USER = "postgres";
const HOST = "127.0.0.1";

/**
 * Single-process composition database. Initialises the cluster only once
 * (PG_VERSION present = initialised), so restarts keep the data.
 */
export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const logger = opts.logger ?? silentLogger;
  const dataDir = path.resolve(opts.dataDir);
  const pgDir = path.join(dataDir, "pg");
  const database = opts.database ?? "signage";
  await mkdir(dataDir, { recursive: true });

  const isRoot = process.getuid?.() === 0;
  if (isRoot) await warnIfNotTraversable(dataDir, logger);
  await assertNotRunning(pgDir);

  const initialised = await exists(path.join(pgDir, "PG_VERSION"));
  const state = await readState(dataDir);
  if (initialised && !state.password) {
    throw new Error(`${pgDir} is initialised but ${dataDir}/embedded-postgres.json (password) is missing; restore it or delete the data dir`);
  }
  const password = state.password ?? generatePassword();
  // The password is fixed at initdb time: persist it before initdb can succeed.
  if (!state.password) await writeState(dataDir, { password });
  const port = await choosePort(opts.port ?? state.port ?? DEFAULT_PORT, logger);

  const recentLog: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres(logger);
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    // Postgres refuses to run as root; embedded-postgres then runs it as the
    // `postgres` OS user (creating it if needed). Must be false otherwise:
    // as non-root it would try `groupadd` and fail.
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // TCP on loopback only; no unix socket, so nothing lands in /tmp or /var/run/postgresql.
    postgresFlags: ["-c", `listen_addresses=${HOST}`, "-c", "unix_socket_directories="],
    onLog: (m: string) => {
      recentLog.push(m.trimEnd());
      if (recentLog.length > 30) recentLog.shift();
      logger.debug?.(`embedded-postgres: ${m.trimEnd()}`);
    },
    onError: (e: unknown) => logger.error(`embedded-postgres: ${e instanceof Error ? e.message : String(e)}`),
  });

  // start() rejects with `undefined` when postgres exits early; surface its own log instead.
  const fail = (step: string, err: unknown): Error => {
    const reason = err instanceof Error ? err.message : "postgres exited";
    const log = recentLog.join("\n");
    const hint = isRoot && /permission denied/i.test(reason + log)
      ? ` (as root, postgres runs as OS user "postgres": every parent of ${dataDir} must be searchable by it)`
      : "";
    return new Error(`embedded-postgres ${step} failed: ${reason}${hint}${log ? `\npostgres output:\n${log}` : ""}`, err ? { cause: err } : undefined);
  };

  if (!initialised) {
    logger.info(`embedded-postgres: initialising cluster in ${pgDir}`);
    await server.initialise().catch((err: unknown) => {
      throw fail("initdb", err);
    });
  }
  await server.start().catch((err: unknown) => {
    throw fail("start", err);
  });

  const unguard = await guardProcessExit(pgDir).catch((err: Error) => {
    logger.warn(`embedded-postgres: no exit safety net (${err.message})`);
    return () => {};
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= server.stop().finally(() => {
      unguard();
      logger.info("embedded-postgres: stopped");
    }));
  try {
    await writeState(dataDir, { port, password });
    await ensureDatabase(buildUrl(password, port, "postgres"), database);
  } catch (err) {
    await stop();
    throw err;
  }

  logger.info(`embedded-postgres: ready on ${HOST}:${port}, database ${database}`);
  return { url: buildUrl(password, port, database), port, stop };
}

function buildUrl(password: string, port: number, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${encodeURIComponent(database)}`;
}

async function choosePort(preferred: number, logger: DbLogger): Promise<number> {
  if (await isPortFree(preferred)) return preferred;
  const port = await findFreePort();
  logger.warn(`embedded-postgres: port ${preferred} is busy, using ${port} (persisted for later restarts)`);
  return port;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** The postgres OS user must traverse every parent of the data dir (e.g. /root, mkdtemp dirs are 0700). */
async function warnIfNotTraversable(dir: string, logger: DbLogger): Promise<void> {
  for (let d = dir; ; d = path.dirname(d)) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) {
      logger.warn(`embedded-postgres: ${d} is not searchable by other users; postgres (OS user "postgres") may fail to reach ${dir}`);
      return;
    }
    if (path.dirname(d) === d) return;
  }
}
