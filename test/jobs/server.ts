/*
 * A real Quire server process (src/serve.ts, as src/server.ts runs it) that also works the
 * test job kinds of ./fixture.ts, so multi-process tests can enqueue them and count their effects.
 */
import { appJobs } from '../../src/composition.ts';
import { serve } from '../../src/serve.ts';
import { testJobs } from './fixture.ts';

await serve({ jobs: [...appJobs, ...testJobs] });
