#!/usr/bin/env node
/*
 * `npm run worker`: the built job worker (dist/worker-main.js), built first when missing
 * or stale, like `npm start`. A process that only works jobs: no HTTP.
 */
import { ensureBuilt } from './build.mjs';

const log = (level, msg, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...extra })}\n`);

try {
  await import(await ensureBuilt('worker-main', log));
} catch (error) {
  log(60, 'failed to start', { err: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}
