#!/usr/bin/env node
/*
 * `npm run --silent cli -- ...`: the built CLI (dist/cli.js), built first when missing or
 * stale. Build notes go to standard error: standard output is the command's own (--json).
 */
import { ensureBuilt } from './build.mjs';

const log = (level, msg, extra = {}) => process.stderr.write(`${JSON.stringify({ level, time: Date.now(), msg, ...extra })}\n`);

await import(await ensureBuilt('cli', log));
