import { readFileSync } from 'node:fs';
import type { Db } from '../../db/database.ts';
import { sql } from 'kysely';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The release, read once from package.json. */
export const release = {
  version: pkg.version,
  // The build date is the process start: Quire runs from source, with no separate build step.
  build: new Date().toISOString(),
};

/** GET /v1/: answers only when the database answers, so it can serve as readiness probe. */
export async function apiInformation(db: Db) {
  await sql`select 1`.execute(db);
  return release;
}
