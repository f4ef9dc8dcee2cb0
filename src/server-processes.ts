import cluster, { type Worker } from 'node:cluster';
import { pino } from 'pino';

/*
 * `npm start` with QUIRE_PROCESSES=N (PostgreSQL): this process forks N server processes
 * sharing its port (node:cluster hands them the connections) and only watches them. One
 * Node process runs its JavaScript on one core; several use the machine's others. They
 * share nothing but the database, as processes behind a load balancer do
 * (docs/operations.md, "Scaling out"): migrations, bootstrap, jobs and caches already work
 * that way.
 */

/** The launcher's exit code when a server process could not start or did not stop cleanly. */
const FAILED = 1;

export function runServerProcesses(count: number, logLevel: string): void {
  const log = pino({ level: logLevel });
  const listening = new WeakSet<Worker>();
  let stopping = false;
  let exitCode = 0;

  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(exitCode);
    // Each finishes its in-flight requests and jobs, as a single server does on SIGTERM.
    for (const worker of workers) worker?.process.kill(signal);
  };

  cluster.on('listening', (worker) => listening.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    const left = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (code !== 0 && code !== null) exitCode = FAILED;
      if (left === 0) {
        log.info({ exitCode }, 'closed: every server process has exited');
        process.exit(exitCode);
      }
      return;
    }
    if (!listening.has(worker)) {
      // It failed before serving (configuration, database): another would fail the same way.
      log.fatal({ worker: worker.process.pid, code, signal }, 'a server process failed to start: stopping the others');
      exitCode = FAILED;
      stopAll('SIGTERM');
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a server process exited: starting another');
    cluster.fork();
  });
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));

  log.info({ processes: count }, 'starting server processes');
  for (let i = 0; i < count; i++) cluster.fork();
}
