import { buildApp, loggerOptions } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';

/** Entry point: config -> database -> migrations -> app -> bootstrap -> listen; graceful close on SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrateToLatest(handle.db);
  const app = await buildApp({ config, db: handle.db, dialect: handle.dialect, logger: loggerOptions(config.logLevel) });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  await bootstrap(handle.db, systemClock, config, app.log);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // Stops accepting connections and waits for in-flight requests; then the database.
    await app.close();
    await handle.close();
    app.log.info('closed');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  // Startup failures (bad config, unreachable database) end the process with a clear line.
  console.error(JSON.stringify({ level: 'fatal', msg: 'failed to start', err: String((error as Error)?.stack ?? error) }));
  process.exit(1);
});
