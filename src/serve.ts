import cluster from 'node:cluster';
import { buildApp, loggerOptions } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { JobHandler } from './jobs/queue.ts';
import { systemClock } from './lib/clock.ts';
import { runServerProcesses } from './server-processes.ts';

/** How long open connections may keep a graceful shutdown waiting before they are cut. */
const SHUTDOWN_CONNECTIONS_GRACE_MS = 10_000;

export interface ServeOptions {
  /** The job kinds the server's worker works (src/server.ts gives the app's, src/composition.ts). */
  jobs: readonly JobHandler[];
}

/**
 * Runs a server: config -> database -> migrations -> app -> bootstrap -> listen; graceful
 * close on SIGTERM. Or, for QUIRE_PROCESSES above 1, the processes that do (each runs the
 * entry point that called this again).
 */
export async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig();
  // QUIRE_PROCESSES above 1: this process starts the servers (each runs this file again) and watches them.
  if (config.processes > 1 && cluster.isPrimary) return runServerProcesses(config.processes, config.logLevel);
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(handle.db);
  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect, logger: loggerOptions(config.logLevel), jobs: options.jobs });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  await bootstrap(handle.db, systemClock, config, app.log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Stops accepting connections and waits for in-flight requests; then the database.
    // A keep-alive connection busy when the close began is idle only after its answer, and
    // would then hold the close for the whole keep-alive timeout (72 s): idle ones are
    // closed as they appear, and whatever is left is cut after the grace time.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
    const cutAll = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_CONNECTIONS_GRACE_MS);
    try {
      await app.close();
    } finally {
      clearInterval(closeIdle);
      clearTimeout(cutAll);
    }
    await handle.close();
    app.log.info('closed');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}
