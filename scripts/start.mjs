#!/usr/bin/env node
/*
 * `npm start`: runs the built server (dist/server.js), building it first when dist/ is
 * missing or older than the sources, so `npm ci && npm start` stays one command. The
 * server runs in this very process (no child: signals reach it directly). What this
 * launcher prints is JSON lines on standard output, like the server's log.
 */
import { createRequire } from 'node:module';
import { ensureBuilt, ROOT } from './build.mjs';

const log = (level, msg, extra = {}) =>
  process.stdout.write(`${JSON.stringify({ level, time: Date.now(), pid: process.pid, msg, ...extra })}\n`);

try {
  const entry = await ensureBuilt('server', log);
  // The build's V8 code cache (dist/code-cache.bin, scripts/code-cache.cjs): the server's
  // files and packages start from compiled code instead of compiling on every start.
  createRequire(import.meta.url)('./code-cache.cjs').install(ROOT);
  await import(entry);
} catch (error) {
  log(60, 'failed to start', { err: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
}
