import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
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

const SEALED = 'sealed:';

/**
 * AES-256-GCM under the server secret named `purpose`, so a copy of one table opens
 * nothing: base64url of iv | tag | body. The one cipher for every secret Quire must read
 * back (sealSecret's stored values, git sync's job payloads).
 */
export async function sealWithServerKey(db: Db, purpose: string, plaintext: string): Promise<string> {
  const key = await serverSecret(db, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext of what sealWithServerKey made under the same purpose. */
export async function openWithServerKey(db: Db, purpose: string, sealed: string): Promise<string> {
  const key = await serverSecret(db, purpose);
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** A secret sealed for a column: text form `sealed:<sealWithServerKey>`. */
export async function sealSecret(db: Db, purpose: string, plaintext: string): Promise<string> {
  return SEALED + (await sealWithServerKey(db, purpose, plaintext));
}

/** The plaintext of a value sealSecret made; a value stored before sealing (no prefix) is returned as it is. */
export async function openSecret(db: Db, purpose: string, stored: string): Promise<string> {
  if (!stored.startsWith(SEALED)) return stored;
  return openWithServerKey(db, purpose, stored.slice(SEALED.length));
}
