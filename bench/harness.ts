import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PostgresAdapter } from 'kysely';
import type { Db, DialectName } from '../src/db/database.ts';
import { freePort } from '../test/process.ts';
import { ensureBuilt } from '../scripts/build.mjs';

/** The repository root: children run from here so `--import tsx` and `src/` resolve. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The Node flags `npm start` gives the server (package.json's start script, their one
 * place), so the bench measures the server as production runs it.
 */
export function startNodeFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/** One HTTP request a scenario measures. */
export interface ScenarioRequest {
  path: string;
  headers: Record<string, string>;
}

/** A scenario as the runner sees it before seeding. */
export interface ScenarioInfo {
  name: string;
  title: string;
  /** Lowest acceptable median ratio Quire / bare; absent for reference scenarios. */
  target?: number;
}

/** A scenario of a suite: how to build its request from what the suite seeded. */
export interface ScenarioSpec<S> extends ScenarioInfo {
  request(seed: S): ScenarioRequest;
}

/** Scenarios sharing one seeded database and one Quire server. */
export interface SuiteSpec<S> {
  name: string;
  description: string;
  /** Fills a freshly migrated database; runs before the server starts. */
  seed(db: Db): Promise<S>;
  scenarios: ScenarioSpec<S>[];
  /** Environment the suite's Quire server runs with, beside the bench's own (e.g. a cache off). */
  serverEnv?: Record<string, string>;
}

/** A suite with its seed type erased, so suites of different seeds fit in one list. */
export interface Suite {
  name: string;
  description: string;
  scenarios: ScenarioInfo[];
  serverEnv?: Record<string, string>;
  /** Seeds the database and answers each scenario's request, by scenario name. */
  prepare(db: Db): Promise<Map<string, ScenarioRequest>>;
}

/** Which database a handle talks to. */
export function dialectOf(db: Db): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Declares a suite of scenarios over one seed. */
export function defineSuite<S>(spec: SuiteSpec<S>): Suite {
  return {
    name: spec.name,
    description: spec.description,
    scenarios: spec.scenarios.map(({ name, title, target }) => ({ name, title, target })),
    serverEnv: spec.serverEnv,
    async prepare(db) {
      const seed = await spec.seed(db);
      return new Map(spec.scenarios.map((s) => [s.name, s.request(seed)]));
    },
  };
}

// Every child is killed if the runner dies, so no server outlives a failed run.
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
}

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stopChild(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

/** A server in a child process. */
export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** How the Quire server process is started. */
export interface ServerLaunch {
  /** Extra Node flags for the server process, e.g. `--cpu-prof`. */
  nodeFlags: string[];
  /**
   * false (the default): the built server, dist/server.js, built first when stale, as
   * `npm start` runs it in production; true: the TypeScript sources through tsx, as in
   * development (`--source`), to profile with source file names or to compare the two.
   */
  source: boolean;
}

export interface QuireOptions {
  dataDir: string;
  /** PostgreSQL instead of SQLite: the URL, its search_path set to the bench's schema. */
  databaseUrl?: string;
  launch?: ServerLaunch;
  /** Environment beside the bench's own (Suite.serverEnv). */
  env?: Record<string, string>;
}

/**
 * Starts Quire (built, or from source: ServerLaunch) on 127.0.0.1 over SQLite in `dataDir`
 * or the given PostgreSQL schema, without rate limiting and with warnings-only logs, and
 * waits until `GET /v1/` answers.
 */
export async function startQuire(options: QuireOptions): Promise<ServerProcess> {
  const launch = options.launch ?? { nodeFlags: [], source: false };
  const entry = launch.source
    ? ['--import', 'tsx', 'src/server.ts']
    : [fileURLToPath(await ensureBuilt('server', (_level: number, msg: string) => process.stderr.write(`${msg}\n`)))];
  const flags = [...startNodeFlags(), ...launch.nodeFlags];
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // The database is the one the runner seeded: a DATABASE_URL in the caller's shell must not leak in.
  delete env.DATABASE_URL;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const child = track(
    spawn(process.execPath, [...flags, ...entry], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(`[quire] ${chunk.toString()}`);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Quire exited with code ${child.exitCode} before listening:\n${output}`);
    try {
      const response = await fetch(`${url}/v1/`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`Quire did not answer GET /v1/ within 30 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid as number, stop: () => stopChild(child) };
}

/** A response exactly as Quire sent it. */
export interface CapturedResponse {
  status: number;
  /** Header name/value pairs as received, without the per-connection ones. */
  headers: [string, string][];
  body: Buffer;
}

// Written by Node's HTTP server for every response, so the bare server gets them too.
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Sends one request and returns the raw status, headers and body bytes. */
export function capture(baseUrl: string, request: ScenarioRequest): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${request.path}`, { headers: request.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i];
          if (!CONNECTION_HEADERS.has(name.toLowerCase())) headers.push([name, res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
  });
}

/** Captures a scenario's response and fails loudly unless it is a 200. */
export async function captureOk(baseUrl: string, name: string, request: ScenarioRequest): Promise<CapturedResponse> {
  const response = await capture(baseUrl, request);
  if (response.status !== 200) {
    const excerpt = response.body.toString('utf8').slice(0, 500);
    throw new Error(`scenario ${name}: GET ${request.path} answered ${response.status}, not 200: ${excerpt}`);
  }
  return response;
}

/**
 * Starts a bare `node:http` server in a child process that answers every request with
 * exactly `response` (status, headers, body bytes).
 */
export async function startBare(response: CapturedResponse, workDir: string): Promise<ServerProcess> {
  const file = path.join(workDir, `bare-${process.hrtime.bigint()}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ status: response.status, headers: response.headers, body: response.body.toString('base64') }),
  );
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'bare-server.ts'), file], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bare server exited with code ${code} before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number, stop: () => stopChild(child) };
}

/** Load settings shared by every scenario. */
export interface LoadOptions {
  /** Seconds of each measured run. */
  duration: number;
  /** Seconds of unrecorded load on each server before the first round. */
  warmup: number;
  rounds: number;
  connections: number;
}

/** One autocannon run against one server. */
export interface RunFigures {
  /** Mean of autocannon's per-second request counts. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /**
   * CPU time the server process spent per request in this run, in µs (user + system, read
   * from /proc/<pid>/stat around the run; undefined where there is no /proc). Unlike req/s it
   * hardly moves when other work shares the machine: the figure to compare two trees by.
   */
  cpuMicrosPerRequest?: number;
}

export interface Round {
  quire: RunFigures;
  bare: RunFigures;
  /** quire.rps / bare.rps of this round. */
  ratio: number;
}

export interface Summary {
  quireRps: number;
  bareRps: number;
  /** Median of the per-round ratios (not the ratio of the medians). */
  ratio: number;
  quireP99: number;
  bareP99: number;
  /** Medians over rounds of RunFigures.cpuMicrosPerRequest (absent without /proc). */
  quireCpuMicros?: number;
  bareCpuMicros?: number;
  /** Median over rounds of bare CPU per request ÷ Quire CPU per request: the ratio in CPU. */
  cpuRatio?: number;
}

/** User + system CPU time of a process so far, in µs, or undefined where /proc is missing. */
export function processCpuMicros(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime (14) + stime (15)
    return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat times: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Runs autocannon once; throws when any request failed or answered other than 2xx. */
export async function load(
  label: string,
  url: string,
  request: ScenarioRequest,
  seconds: number,
  connections: number,
  pid?: number,
): Promise<RunFigures> {
  const cpuBefore = pid === undefined ? undefined : processCpuMicros(pid);
  const result = await autocannon({
    url: `${url}${request.path}`,
    headers: request.headers,
    connections,
    duration: seconds,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${label}: ${result.errors} connection errors and ${result.non2xx} non-2xx responses out of ${result.requests.total}`,
    );
  }
  const cpuAfter = pid === undefined ? undefined : processCpuMicros(pid);
  const cpuMicrosPerRequest =
    cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0 ? (cpuAfter - cpuBefore) / result.requests.total : undefined;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, cpuMicrosPerRequest };
}

/** The median of a non-empty list. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Measures Quire against the bare server in alternation: a warm-up of each, then rounds
 * of one run each, the order flipping every round so drift (heat, other load) hits both.
 */
export async function compare(
  name: string,
  quireUrl: string,
  bareUrl: string,
  request: ScenarioRequest,
  options: LoadOptions,
  progress: (line: string) => void,
  pids: { quire?: number; bare?: number } = {},
): Promise<{ rounds: Round[]; summary: Summary }> {
  if (options.warmup > 0) {
    await load(`${name} warm-up (quire)`, quireUrl, request, options.warmup, options.connections);
    await load(`${name} warm-up (bare)`, bareUrl, request, options.warmup, options.connections);
  }
  const rounds: Round[] = [];
  for (let i = 0; i < options.rounds; i++) {
    const order: ('quire' | 'bare')[] = i % 2 === 0 ? ['quire', 'bare'] : ['bare', 'quire'];
    const figures: Partial<Record<'quire' | 'bare', RunFigures>> = {};
    for (const which of order) {
      const url = which === 'quire' ? quireUrl : bareUrl;
      figures[which] = await load(`${name} round ${i + 1} (${which})`, url, request, options.duration, options.connections, pids[which]);
    }
    const quire = figures.quire as RunFigures;
    const bare = figures.bare as RunFigures;
    const round = { quire, bare, ratio: quire.rps / bare.rps };
    rounds.push(round);
    progress(
      `${name} round ${i + 1}/${options.rounds}: quire ${quire.rps.toFixed(0)} req/s, bare ${bare.rps.toFixed(0)} req/s, ratio ${round.ratio.toFixed(3)}` +
        (quire.cpuMicrosPerRequest !== undefined && bare.cpuMicrosPerRequest !== undefined
          ? `; CPU per request quire ${quire.cpuMicrosPerRequest.toFixed(0)} µs, bare ${bare.cpuMicrosPerRequest.toFixed(0)} µs`
          : ''),
    );
  }
  const cpu = (which: 'quire' | 'bare') => {
    const values = rounds.map((r) => r[which].cpuMicrosPerRequest).filter((v): v is number => v !== undefined);
    return values.length === rounds.length && values.length > 0 ? values : undefined;
  };
  const quireCpu = cpu('quire');
  const bareCpu = cpu('bare');
  return {
    rounds,
    summary: {
      quireRps: median(rounds.map((r) => r.quire.rps)),
      bareRps: median(rounds.map((r) => r.bare.rps)),
      ratio: median(rounds.map((r) => r.ratio)),
      quireP99: median(rounds.map((r) => r.quire.p99)),
      bareP99: median(rounds.map((r) => r.bare.p99)),
      quireCpuMicros: quireCpu && median(quireCpu),
      bareCpuMicros: bareCpu && median(bareCpu),
      cpuRatio: quireCpu && bareCpu ? median(quireCpu.map((q, i) => (q > 0 ? bareCpu[i] / q : 0))) : undefined,
    },
  };
}

/** A fresh temporary folder for one suite's DATA_DIR and scratch files. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}
