import { randomBytes } from 'node:crypto';
import type { Db } from './database.ts';

// Per database handle: tests open many databases in one process.
const cache = new WeakMap<Db, Map<string, Buffer>>();

/**
 * A named 256-bit secret, made on first use and stored in the database, so every server
 * process sharing the database signs and verifies with the same key.
 */
export async function serverSecret(db: Db, name: string): Promise<Buffer> {
  let secrets = cache.get(db);
  if (!secrets) cache.set(db, (secrets = new Map()));
  const cached = secrets.get(name);
  if (cached) return cached;
  // Insert-if-absent, then read: concurrent first uses agree on one winner.
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('base64url'), created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  const secret = Buffer.from(row.value, 'base64url');
  secrets.set(name, secret);
  return secret;
}
