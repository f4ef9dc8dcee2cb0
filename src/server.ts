import { appJobs } from './composition.ts';
import { serve } from './serve.ts';

/** Entry point of `npm start`: the server of the app's routes and job kinds (src/serve.ts). */
serve({ jobs: appJobs }).catch((error: unknown) => {
  // Startup failures (bad config, unreachable database) end the process with a clear line.
  console.error(JSON.stringify({ level: 'fatal', msg: 'failed to start', err: String((error as Error)?.stack ?? error) }));
  process.exit(1);
});
