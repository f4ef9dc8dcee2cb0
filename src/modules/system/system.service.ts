import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../db/database.ts';
import { sql } from 'kysely';

/** Set by scripts/build.mjs in the built server (dist/); absent when running from source. */
declare const QUIRE_BUILD_TIME: string | undefined;

/**
 * Quire's package.json: the nearest one above this module that names a version, from src/
 * and from dist/ alike (dist/ has its own, which only says its files are CommonJS).
 */
function readPackageJson(): { version: string } {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    const manifest = existsSync(candidate) ? (JSON.parse(readFileSync(candidate, 'utf8')) as { version?: string }) : {};
    if (typeof manifest.version === 'string') return { version: manifest.version };
    if (path.dirname(dir) === dir) throw new Error('package.json not found above the server');
  }
}

/** The release, read once from package.json. */
export const release = {
  version: readPackageJson().version,
  // The build time of dist/; from source (tsx) there is no build, so the process start.
  build: typeof QUIRE_BUILD_TIME === 'string' ? QUIRE_BUILD_TIME : new Date().toISOString(),
};

/** GET /v1/: answers only when the database answers, so it can serve as readiness probe. */
export async function apiInformation(db: Db) {
  await sql`select 1`.execute(db);
  return release;
}

/** GET /healthz: the same answer always; reaching the handler is the proof of life. */
export const liveness = { status: 'ok' as const };
