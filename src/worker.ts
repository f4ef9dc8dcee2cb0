import pino from 'pino';
import { createDeps, createWorker } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { JobHandler } from './jobs/queue.ts';
import { JobRegistry } from './jobs/registry.ts';

/**
 * A process that only works jobs (`npm run worker`, `cli -- worker`): no HTTP. Runs
 * QUIRE_WORKERS jobs at once (at least one). SIGTERM or SIGINT: stops claiming, lets
 * running jobs finish within JOBS_SHUTDOWN_GRACE_MS, hands the rest back, exits 0.
 * Works the job kinds it is given (the entry points give the app's, src/composition.ts).
 */
export async function runWorkerProcess(jobs: readonly JobHandler[]): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(handle.db);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied migrations');
  const deps = createDeps({ config, db: handle.db, dialect: handle.dialect });
  const worker = createWorker(deps, new JobRegistry(jobs), log, Math.max(1, config.workers));
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing running jobs');
    await worker.stop();
    await deps.outbound.close();
    await deps.markdown.close();
    await deps.files.close();
    await handle.close();
    log.info('closed');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // The worker's timers do not hold the process open (they must not in the web server's
  // tests); this one does, until shutdown exits.
  setInterval(() => {}, 1 << 30);
  worker.start();
  log.info({ worker: worker.id }, 'worker started');
}
