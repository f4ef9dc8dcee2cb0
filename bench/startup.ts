import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBuilt } from '../scripts/build.mjs';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { freePort } from '../test/process.ts';
import { median, ROOT, startNodeFlags, tempDir } from './harness.ts';

export interface Startup {
  runs: number;
  /** Each run: ms from spawning `node scripts/start.mjs` to the first 200 of GET /v1/. */
  firstAnswerMs: number[];
  /**
   * Each run: CPU time (user + system) the process used up to its first answer, in ms.
   * Unlike the wall time it hardly depends on what else the machine runs.
   */
  firstAnswerCpuMs: number[];
  /** Each run: resident set size after IDLE_MS without requests, in MB. */
  idleRssMb: number[];
  medianFirstAnswerMs: number;
  medianIdleRssMb: number;
  medianFirstAnswerCpuMs: number;
}

/** How long the server idles after its first answer before its RSS is read. */
const IDLE_MS = 5_000;
export const STARTUP = {
  name: 'startup',
  title: '`npm start` on a built tree and a migrated database: first answer (ms), idle RSS (MB)',
  targetMs: 3_000,
  targetRssMb: 150,
};

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

/**
 * Starts the built server `runs` times on one migrated, bootstrapped SQLite database (the
 * state of every start but the first) and measures the time to its first answer and its
 * memory once idle. dist/ is built before, outside the measurement, as `npm start` would.
 */
export async function measureStartup(runs = 5, progress: (line: string) => void = () => {}): Promise<Startup> {
  await ensureBuilt('server', (_level: number, msg: string) => progress(`startup: ${msg}`));
  const dir = tempDir('startup');
  try {
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'warn' });
    const handle = openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(handle.db);
      await bootstrap(handle.db, systemClock, config, { info() {}, warn() {} } as never);
    } finally {
      await handle.close();
    }
    const firstAnswerMs: number[] = [];
    const idleRssMb: number[] = [];
    const firstAnswerCpuMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const port = await freePort();
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' };
      delete env.DATABASE_URL;
      const started = performance.now();
      const child = spawn(process.execPath, [...startNodeFlags(), path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: 'ignore' });
      try {
        for (;;) {
          if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode} before answering`);
          const ok = await fetch(`http://127.0.0.1:${port}/v1/`).then((r) => r.ok, () => false);
          if (ok) break;
          if (performance.now() - started > 60_000) throw new Error('the server did not answer within 60 s');
          await sleep(10);
        }
        firstAnswerMs.push(performance.now() - started);
        firstAnswerCpuMs.push(cpuMs(child.pid!));
        await sleep(IDLE_MS);
        idleRssMb.push(rssMb(child.pid!));
        progress(`startup run ${run + 1}: first answer ${firstAnswerMs.at(-1)!.toFixed(0)} ms (${firstAnswerCpuMs.at(-1)} ms CPU), idle RSS ${idleRssMb.at(-1)!.toFixed(0)} MB`);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      }
    }
    return {
      runs,
      firstAnswerMs,
      idleRssMb,
      firstAnswerCpuMs,
      medianFirstAnswerCpuMs: median(firstAnswerCpuMs),
      medianFirstAnswerMs: median(firstAnswerMs),
      medianIdleRssMb: median(idleRssMb),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
