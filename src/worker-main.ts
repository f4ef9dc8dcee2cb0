import { runWorkerProcess } from './worker.ts';

/** Entry point of `npm run worker`. */
runWorkerProcess().catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'fatal', msg: 'worker failed to start', err: String((error as Error)?.stack ?? error) }));
  process.exit(1);
});
