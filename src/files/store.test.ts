import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { startS3, type TestS3 } from '../../test/s3.ts';
import { loadConfig } from '../config.ts';
import { CHUNK_BYTES, createDatabaseBackend } from './database-store.ts';
import { createFsBackend } from './fs-store.ts';
import { sha256 } from './hashing.ts';
import { withSignedUrls } from './index.ts';
import { createS3Backend } from './s3-store.ts';
import type { FileBackend, FileStore } from './types.ts';

/*
 * The same contract for every backend: the folder (always), the database (on a
 * PostgreSQL run) and S3 (against s3rver on 127.0.0.1).
 */

let t: TestApp;
let s3: TestS3;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  s3 = await startS3();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-files-'));
}, 180_000);

afterAll(async () => {
  await t.close();
  await s3.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `size` bytes, not all alike, handed out in `piece`-sized chunks as a stream. */
function bytesOf(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + seed) & 0xff;
  return out;
}
function streamOf(bytes: Buffer, piece: number): Readable {
  return Readable.from((function* () {
    for (let i = 0; i < bytes.length; i += piece) yield bytes.subarray(i, i + piece);
  })());
}
async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const backends: Array<[string, () => FileBackend]> = [
  ['fs', () => createFsBackend(dir)],
  ['s3', () => createS3Backend(loadConfig(s3.env).s3!)],
];
if (process.env.DATABASE_URL) backends.push(['database', () => createDatabaseBackend(t.db)]);

describe.each(backends)('file store: %s', (kind, make) => {
  let store: FileStore;
  beforeAll(() => {
    store = withSignedUrls(make(), t.db, 'http://files.test');
  });
  afterAll(() => store.close());

  it('puts by content hash (a Buffer, or a stream of any chunking), gets a stream, stats, deletes', async () => {
    expect(store.kind).toBe(kind);
    const small = Buffer.from(`small ${kind}`);
    const put = await store.put('blobs', small);
    expect(put).toEqual({ hash: sha256(small), size: small.length });
    expect(await store.exists('blobs', put.hash)).toBe(true);
    // Areas are apart: the same hash is not in `exports`.
    expect(await store.exists('exports', put.hash)).toBe(false);
    // Stored again: harmless, same address.
    expect(await store.put('blobs', streamOf(small, 3))).toEqual(put);

    const large = bytesOf(CHUNK_BYTES * 2 + 12_345, kind.length);
    const stored = await store.put('exports', streamOf(large, 64 * 1024 + 7));
    expect(stored).toEqual({ hash: sha256(large), size: large.length });
    expect(await store.stat('exports', stored.hash)).toEqual({ size: large.length });
    const got = await store.get('exports', stored.hash);
    expect(got!.size).toBe(large.length);
    expect((await collect(got!.stream)).equals(large)).toBe(true);
    expect(await store.read('exports', stored.hash, 10)).toBeUndefined();
    expect((await store.read('blobs', put.hash, 1024))!.equals(small)).toBe(true);

    const empty = await store.put('blobs', Buffer.alloc(0));
    expect(empty.size).toBe(0);
    expect((await collect((await store.get('blobs', empty.hash))!.stream)).length).toBe(0);

    await store.delete('exports', [stored.hash]);
    await store.delete('exports', [stored.hash]);
    expect(await store.get('exports', stored.hash)).toBeUndefined();
    expect(await store.stat('exports', stored.hash)).toBeUndefined();
    await expect(store.get('blobs', '../../etc/passwd')).rejects.toThrow();
  });

  it('signs download URLs whole: area, owner, hash, name, type and expiry', async () => {
    const target = { area: 'blobs' as const, scope: 'space1', hash: sha256(Buffer.from('x')), name: 'a b.png', contentType: 'image/png' };
    const url = new URL(await store.signedUrl(target));
    expect(url.origin + url.pathname).toBe(`http://files.test/downloads/blobs/space1/${target.hash}/a%20b.png`);
    const params = (u: URL) => {
      const [, , area, scope, hash, name] = u.pathname.split('/').map(decodeURIComponent);
      return { area, scope, hash, name };
    };
    const query = (u: URL) => Object.fromEntries(u.searchParams);
    expect(await store.verifyDownload(params(url), query(url))).toEqual(target);
    for (const [part, value] of [['scope', 'space2'], ['name', 'a b.html'], ['area', 'exports']] as const) {
      expect(await store.verifyDownload({ ...params(url), [part]: value }, query(url)), part).toBeUndefined();
    }
    expect(await store.verifyDownload(params(url), { ...query(url), type: 'text/html' })).toBeUndefined();
    expect(await store.verifyDownload(params(url), { ...query(url), extra: '1' })).toBeUndefined();
    const expiring = new URL(await store.signedUrl({ ...target, expiresAt: Math.floor(Date.now() / 1000) + 60 }));
    expect(await store.verifyDownload(params(expiring), query(expiring))).toMatchObject({ expiresAt: expect.any(Number) });
    expect(await store.verifyDownload(params(expiring), { ...query(expiring), exp: String(Math.floor(Date.now() / 1000) + 3600) })).toBeUndefined();
    const expired = new URL(await store.signedUrl({ ...target, expiresAt: Math.floor(Date.now() / 1000) - 1 }));
    expect(await store.verifyDownload(params(expired), query(expired))).toBeUndefined();
  });
});

describe.runIf(process.env.DATABASE_URL)('file store: database chunks', () => {
  it('keeps a large file in chunks of at most 1 MB, under its hash only once complete', async () => {
    const store = createDatabaseBackend(t.db);
    const bytes = bytesOf(CHUNK_BYTES * 3 + 1, 7);
    const { hash } = await store.put('blobs', streamOf(bytes, 300_000));
    const chunks = await t.db.selectFrom('file_chunks').select(['seq', 'data']).where('key', '=', `blobs/${hash}`).orderBy('seq').execute();
    expect(chunks.map((c) => c.seq)).toEqual([0, 1, 2, 3]);
    expect(chunks.map((c) => c.data.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 1]);
    expect(await t.db.selectFrom('file_chunks').select('key').where('key', 'like', 'tmp/%').execute()).toEqual([]);
    // A source that fails mid-way leaves nothing behind.
    const failing = Readable.from((async function* () {
      yield bytes.subarray(0, CHUNK_BYTES + 10);
      throw new Error('source broke');
    })());
    await expect(store.put('blobs', failing)).rejects.toThrow('source broke');
    expect(await t.db.selectFrom('file_chunks').select('key').where('key', 'like', 'tmp/%').execute()).toEqual([]);
  });

  it('removes chunks a crashed write left, a day later, beside a later write', async () => {
    const abandoned = `tmp/2000-01-01T00:00:00.000Z/dead`;
    const recent = `tmp/${new Date().toISOString()}/writing`;
    await t.db.insertInto('file_chunks').values([{ key: abandoned, seq: 0, data: Buffer.from('x') }, { key: recent, seq: 0, data: Buffer.from('y') }]).execute();
    await createDatabaseBackend(t.db).put('blobs', Buffer.from('another write'));
    const keys = async () => (await t.db.selectFrom('file_chunks').select('key').where('key', 'like', 'tmp/%').execute()).map((r) => r.key);
    for (let i = 0; i < 50 && (await keys()).includes(abandoned); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await keys()).toEqual([recent]);
    await t.db.deleteFrom('file_chunks').where('key', '=', recent).execute();
  });
});

describe('file store: folder leftovers', () => {
  it('removes temporary files a crashed write left, a day later, on the next write', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-files-left-'));
    fs.mkdirSync(path.join(folder, 'blobs'));
    const old = path.join(folder, 'blobs', '.tmp-dead');
    const fresh = path.join(folder, 'blobs', '.tmp-writing');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(fresh, 'y');
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    fs.utimesSync(old, dayAgo, dayAgo);
    const { hash } = await createFsBackend(folder).put('blobs', Buffer.from('z'));
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.statSync(path.join(folder, 'blobs', hash.slice(0, 2), hash)).mode & 0o777).toBe(0o600);
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
