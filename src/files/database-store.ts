import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';
import { hashed, newDigest } from './hashing.ts';
import { checkAddress, type FileBackend, type FileStream, type StoredFile } from './types.ts';

/*
 * Files in the PostgreSQL database itself (migration 0012): one file_objects row per file
 * and its bytes in file_chunks of CHUNK_BYTES, so every server process on the database
 * serves every file, with no shared disk, and nothing holds a whole large file in memory.
 * A file is written under a temporary key, chunk by chunk (each statement on its own, not
 * inside any caller's transaction), then made visible in one short transaction: its row
 * inserted (or found, when the same bytes were stored before) and its chunks renamed.
 */

export const CHUNK_BYTES = 1024 * 1024;

const finalKey = (area: string, hash: string) => `${area}/${hash}`;

/** Temporary chunks older than this were left by a process that died mid-write. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

export function createDatabaseBackend(db: Db): FileBackend {
  let lastSweep = 0;
  /** At most hourly, beside a write: removes what writes cut short by a crash left (keys sort by start time). */
  function sweepAbandoned(): void {
    const now = Date.now();
    if (now - lastSweep < 60 * 60 * 1000) return;
    lastSweep = now;
    const cutoff = `tmp/${new Date(now - ABANDONED_AFTER_MS).toISOString()}`;
    void db.deleteFrom('file_chunks').where('key', '>=', 'tmp/').where('key', '<', cutoff).execute().catch(() => undefined);
  }

  async function writeChunk(key: string, seq: number, data: Buffer): Promise<void> {
    await db.insertInto('file_chunks').values({ key, seq, data }).execute();
  }

  async function stat(area: string, hash: string): Promise<{ size: number } | undefined> {
    checkAddress(area, hash);
    const row = await db.selectFrom('file_objects').select('size').where('area', '=', area).where('hash', '=', hash).executeTakeFirst();
    return row ? { size: Number(row.size) } : undefined;
  }

  return {
    kind: 'database',
    stat,

    async put(area, source): Promise<StoredFile> {
      checkAddress(area, '0'.repeat(64));
      sweepAbandoned();
      const temporary = `tmp/${new Date().toISOString()}/${randomBytes(8).toString('hex')}`;
      const digest = newDigest();
      let seq = 0;
      try {
        let pending: Buffer[] = [];
        let pendingBytes = 0;
        for await (const chunk of hashed(source, digest)) {
          let rest = chunk;
          while (pendingBytes + rest.length >= CHUNK_BYTES) {
            const take = CHUNK_BYTES - pendingBytes;
            pending.push(rest.subarray(0, take));
            rest = rest.subarray(take);
            await writeChunk(temporary, seq++, Buffer.concat(pending));
            pending = [];
            pendingBytes = 0;
          }
          if (rest.length > 0) {
            pending.push(rest);
            pendingBytes += rest.length;
          }
        }
        if (pendingBytes > 0 || seq === 0) await writeChunk(temporary, seq++, Buffer.concat(pending));
        const hash = digest.hash.digest('hex');
        await db.transaction().execute(async (trx) => {
          // The first writer of these bytes keeps its chunks; a later one drops its copy.
          const inserted = await trx
            .insertInto('file_objects')
            .values({ area, hash, size: digest.size, created_at: new Date().toISOString() })
            .onConflict((oc) => oc.columns(['area', 'hash']).doNothing())
            .returning('hash')
            .executeTakeFirst();
          if (inserted) await trx.updateTable('file_chunks').set({ key: finalKey(area, hash) }).where('key', '=', temporary).execute();
          else await trx.deleteFrom('file_chunks').where('key', '=', temporary).execute();
        });
        return { hash, size: digest.size };
      } catch (error) {
        await db.deleteFrom('file_chunks').where('key', '=', temporary).execute().catch(() => undefined);
        throw error;
      }
    },

    async get(area, hash): Promise<FileStream | undefined> {
      const found = await stat(area, hash);
      if (!found) return undefined;
      const key = finalKey(area, hash);
      const chunks = async function* () {
        let read = 0;
        // One chunk per query: at most one chunk of the file is in memory at a time.
        for (let seq = 0; read < found.size || seq === 0; seq++) {
          const row = await db.selectFrom('file_chunks').select('data').where('key', '=', key).where('seq', '=', seq).executeTakeFirst();
          if (!row) throw new Error(`file ${area}/${hash} lost its chunk ${seq} while being read`);
          read += row.data.length;
          yield row.data;
        }
      };
      return { size: found.size, stream: Readable.from(chunks()) };
    },

    async delete(area, hashes) {
      for (const hash of hashes) {
        checkAddress(area, hash);
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('file_objects').where('area', '=', area).where('hash', '=', hash).execute();
          await trx.deleteFrom('file_chunks').where('key', '=', finalKey(area, hash)).execute();
        });
      }
    },

    async close() {},
  };
}
