import { appJobs } from './composition.ts';
import { runWorkerProcess } from './worker.ts';

/** Entry point of `npm run worker`: a worker of the app's job kinds. */
runWorkerProcess(appJobs).catch((error: unknown) => {
  console.error(JSON.stringify({ level: 'fatal', msg: 'worker failed to start', err: String((error as Error)?.stack ?? error) }));
  process.exit(1);
});
