import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuilt } from '../scripts/build.mjs';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { freePort } from '../test/process.ts';
import { median, ROOT, startNodeFlags, tempDir } from './harness.ts';

/*
 * Start time and idle memory of the built server. `npm run bench -- --only startup` runs
 * `measureStartup` (`npm start`'s command on this tree). Run directly, it compares ways of
 * starting and other built trees, alternating them run by run so the machine's load hits
 * each alike:
 *
 *   node --import tsx bench/startup.ts [--runs 7] [--idle-ms 1000]
 *     [--how npm,launcher,server] [--tree <other checkout, built>]...
 *
 * `npm` is `npm start` itself (npm's own start included), `launcher` its command without npm
 * (`node <flags> scripts/start.mjs`), `server` `node <flags> dist/server.js`. A `--tree` is
 * another checkout with its own dist/ (e.g. `git archive <commit> | tar -x -C <dir>`, a
 * node_modules link and `npm run build` there): the "before" of a change.
 */

export interface Startup {
  runs: number;
  /** Each run: ms from spawning the command to the first 200 of GET /healthz. */
  firstAnswerMs: number[];
  /**
   * Each run: CPU time (user + system) the server process used up to its first answer, in
   * ms. Unlike the wall time it hardly depends on what else the machine runs.
   */
  firstAnswerCpuMs: number[];
  /** Each run: resident set size of the server after idleMs without requests, in MB. */
  idleRssMb: number[];
  medianFirstAnswerMs: number;
  medianIdleRssMb: number;
  medianFirstAnswerCpuMs: number;
}

/** How long the server idles after its first answer before its RSS is read (bench run). */
const IDLE_MS = 5_000;
export const STARTUP = {
  name: 'startup',
  title: '`npm start` on a built tree and a migrated database: first answer (ms), idle RSS (MB)',
  targetMs: 1_500,
  targetRssMb: 150,
};

/** Ways of starting the built server, each a command run in the tree's root. */
export const HOW = {
  npm: () => ({ command: 'npm', args: ['start'] }),
  launcher: () => ({ command: process.execPath, args: [...startNodeFlags(), path.join('scripts', 'start.mjs')] }),
  server: () => ({ command: process.execPath, args: [...startNodeFlags(), path.join('dist', 'server.js')] }),
} as const;
export type How = keyof typeof HOW;

/** utime + stime of a process, in ms (/proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

/** The server's process: `pid` itself, or under npm the last node process it started. */
function serverPid(pid: number): number {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.length === 0 ? pid : serverPid(children.at(-1)!);
}

/** A migrated, bootstrapped SQLite folder: the state of every start but the first. */
async function preparedDataDir(): Promise<string> {
  const dir = tempDir('startup');
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const handle = openDatabase({ dataDir: dir });
  try {
    await migrateToLatest(handle.db);
    await bootstrap(handle.db, systemClock, config, { info() {}, warn() {} } as never);
  } finally {
    await handle.close();
  }
  return dir;
}

interface Run {
  firstAnswerMs: number;
  firstAnswerCpuMs: number;
  idleRssMb: number;
}

/** One start of the built server in `tree`, the way `how` says, on the folder `dataDir`. */
async function startOnce(tree: string, how: How, dataDir: string, idleMs: number): Promise<Run> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const { command, args } = HOW[how]();
  const started = performance.now();
  const child = spawn(command, args, { cwd: tree, env, stdio: 'ignore' });
  let server: number | undefined;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before answering`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (performance.now() - started > 60_000) throw new Error('the server did not answer within 60 s');
      await sleep(10);
    }
    const firstAnswerMs = performance.now() - started;
    server = serverPid(child.pid!);
    const firstAnswerCpuMs = cpuMs(server);
    await sleep(idleMs);
    return { firstAnswerMs, firstAnswerCpuMs, idleRssMb: rssMb(server) };
  } finally {
    // npm does not pass SIGTERM on to the server (it would outlive npm): the server is
    // stopped itself, and npm ends with it.
    const stopped = new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    try {
      process.kill(server ?? serverPid(child.pid!), 'SIGTERM');
    } catch {
      // already gone
    }
    if (server !== undefined && server !== child.pid) child.kill('SIGTERM');
    await stopped;
  }
}

function summary(runs: Run[]): Startup {
  const firstAnswerMs = runs.map((r) => r.firstAnswerMs);
  const firstAnswerCpuMs = runs.map((r) => r.firstAnswerCpuMs);
  const idleRssMb = runs.map((r) => r.idleRssMb);
  return {
    runs: runs.length,
    firstAnswerMs,
    firstAnswerCpuMs,
    idleRssMb,
    medianFirstAnswerMs: median(firstAnswerMs),
    medianFirstAnswerCpuMs: median(firstAnswerCpuMs),
    medianIdleRssMb: median(idleRssMb),
  };
}

/**
 * Starts the built server `runs` times with `npm start`'s command on one migrated,
 * bootstrapped SQLite database and measures the time to its first answer and its memory
 * once idle. dist/ is built before, outside the measurement, as `npm start` would.
 */
export async function measureStartup(runs = 5, progress: (line: string) => void = () => {}): Promise<Startup> {
  await ensureBuilt('server', (_level: number, msg: string) => progress(`startup: ${msg}`));
  const dir = await preparedDataDir();
  try {
    const results: Run[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await startOnce(ROOT, 'launcher', dir, IDLE_MS);
      results.push(result);
      progress(`startup run ${run + 1}: first answer ${result.firstAnswerMs.toFixed(0)} ms (${result.firstAnswerCpuMs} ms CPU), idle RSS ${result.idleRssMb.toFixed(0)} MB`);
    }
    return summary(results);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every (tree, how) pair `runs` times, alternating: run 1 of each pair, then run 2 of each
 * pair in the reverse order, and so on. One database folder per tree (each tree's
 * migrations), prepared once.
 */
export async function compareStartups(options: { trees: string[]; hows: How[]; runs: number; idleMs: number; progress: (line: string) => void }) {
  const pairs = options.trees.flatMap((tree) => options.hows.map((how) => ({ tree, how, label: `${path.basename(tree)} ${how}`, runs: [] as Run[] })));
  for (const tree of options.trees) {
    if (!fs.existsSync(path.join(tree, 'dist', 'server.js'))) throw new Error(`${tree} has no dist/server.js: run npm run build there first`);
  }
  const dirs = new Map<string, string>();
  try {
    // The schema is this tree's; an older tree's server finds every migration it knows applied.
    const dir = await preparedDataDir();
    for (const tree of options.trees) dirs.set(tree, dir);
    const loads: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      const order = run % 2 === 0 ? pairs : [...pairs].reverse();
      for (const pair of order) {
        loads.push(os.loadavg()[0]);
        const result = await startOnce(pair.tree, pair.how, dirs.get(pair.tree)!, options.idleMs);
        pair.runs.push(result);
        options.progress(`${pair.label} run ${run + 1}: ${result.firstAnswerMs.toFixed(0)} ms (${result.firstAnswerCpuMs} ms CPU), RSS ${result.idleRssMb.toFixed(0)} MB, load ${loads.at(-1)!.toFixed(2)}`);
      }
    }
    return { pairs: pairs.map((pair) => ({ tree: pair.tree, how: pair.how, label: pair.label, ...summary(pair.runs) })), loadavg: { min: Math.min(...loads), max: Math.max(...loads), median: median(loads) } };
  } finally {
    for (const dir of new Set(dirs.values())) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const range = (values: number[], digits = 0) => `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '7' },
      'idle-ms': { type: 'string', default: '1000' },
      how: { type: 'string', default: 'npm,launcher,server' },
      tree: { type: 'string', multiple: true, default: [] },
    },
  });
  const hows = values.how.split(',') as How[];
  for (const how of hows) if (!(how in HOW)) throw new Error(`--how: unknown "${how}" (${Object.keys(HOW).join(', ')})`);
  const runs = Number(values.runs);
  const idleMs = Number(values['idle-ms']);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isFinite(idleMs) || idleMs < 0) throw new Error('--runs must be a positive integer and --idle-ms a non-negative number');
  await ensureBuilt('server', (_level: number, msg: string) => process.stderr.write(`${msg}\n`));
  const trees = [ROOT, ...values.tree.map((tree) => path.resolve(tree))];
  const result = await compareStartups({ trees, hows, runs, idleMs, progress: (line) => process.stderr.write(`${line}\n`) });
  console.log(`load average (1 min) during the runs: median ${result.loadavg.median.toFixed(2)}, ${result.loadavg.min.toFixed(2)}–${result.loadavg.max.toFixed(2)}, ${os.cpus().length} cores\n`);
  console.log(`| tree, how | first answer, median (min–max), ms | CPU to first answer, ms | RSS ${idleMs} ms later, MB |`);
  console.log('|---|---|---|---|');
  for (const pair of result.pairs) {
    console.log(`| ${pair.label} | ${range(pair.firstAnswerMs)} | ${range(pair.firstAnswerCpuMs)} | ${range(pair.idleRssMb)} |`);
  }
}
