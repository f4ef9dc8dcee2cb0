import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db, DialectName } from '../db/database.ts';
import { serverSecret } from '../db/secrets.ts';
import { createDatabaseBackend } from './database-store.ts';
import { createFsBackend } from './fs-store.ts';
import { servedContentType } from './serving.ts';
import { FILE_AREAS, HASH_PATTERN, type DownloadTarget, type FileArea, type FileBackend, type FileStore, type FileStoreKind } from './types.ts';

export * from './types.ts';

/** Which backend a configuration means: FILE_STORE, else the folder on SQLite and the database on PostgreSQL. */
export function fileStoreKind(config: Pick<Config, 'fileStore'>, dialect: DialectName): FileStoreKind {
  return config.fileStore ?? (dialect === 'postgres' ? 'database' : 'fs');
}

export function createFileStore(options: { config: Config; db: Db; dialect: DialectName }): FileStore {
  const { config, db, dialect } = options;
  const kind = fileStoreKind(config, dialect);
  let backend: FileBackend;
  if (kind === 's3') {
    if (!config.s3) throw new Error('FILE_STORE=s3 needs S3_BUCKET');
    backend = lazyS3Backend(config.s3);
  } else if (kind === 'database') {
    if (dialect !== 'postgres') throw new Error('FILE_STORE=database needs PostgreSQL');
    backend = createDatabaseBackend(db);
  } else {
    backend = createFsBackend(config.dataDir);
  }
  return withSignedUrls(backend, db, config.downloadUrl);
}

/** The AWS SDK is large (seconds to load on a busy machine): loaded only when FILE_STORE=s3, on first use. */
function lazyS3Backend(s3: NonNullable<Config['s3']>): FileBackend {
  let loaded: Promise<FileBackend> | undefined;
  const backend = () => (loaded ??= import('./s3-store.ts').then((m) => m.createS3Backend(s3)));
  return {
    kind: 's3',
    put: async (area, source) => (await backend()).put(area, source),
    get: async (area, hash) => (await backend()).get(area, hash),
    stat: async (area, hash) => (await backend()).stat(area, hash),
    delete: async (area, hashes) => (await backend()).delete(area, hashes),
    close: async () => {
      if (loaded) await (await loaded).close();
    },
  };
}

/**
 * Adds what every backend shares: existence, small reads, and download URLs signed with
 * a server secret kept in the database (so any process verifies what another signed).
 * The signature covers every part of the URL: area, owner, hash, file name, type and
 * expiry; a URL with anything else in its query is refused.
 */
export function withSignedUrls(backend: FileBackend, db: Db, downloadUrl: string): FileStore {
  const signature = (secret: Buffer, t: DownloadTarget) => {
    const canonical = ['download-v1', t.area, t.scope, t.hash, t.name, t.contentType, t.expiresAt === undefined ? '' : String(t.expiresAt)].join('\n');
    return createHmac('sha256', secret).update(canonical).digest('base64url');
  };
  const urlOf = (secret: Buffer, given: DownloadTarget) => {
    // The URL carries the type it will be served with (src/files/serving.ts), never the
    // uploader's raw string: an odd one (a NUL, a list, parameters) would otherwise put
    // characters in the query that input sanitation refuses, and serves the same anyway.
    const target = { ...given, contentType: servedContentType(given.contentType) };
    const query = new URLSearchParams({ type: target.contentType });
    if (target.expiresAt !== undefined) query.set('exp', String(target.expiresAt));
    query.set('sig', signature(secret, target));
    const path = [target.area, target.scope, target.hash, target.name].map(encodeURIComponent).join('/');
    return `${downloadUrl}/downloads/${path}?${query}`;
  };

  return {
    kind: backend.kind,
    put: (area, source) => backend.put(area, source),
    get: (area, hash) => backend.get(area, hash),
    stat: (area, hash) => backend.stat(area, hash),
    delete: (area, hashes) => backend.delete(area, hashes),
    close: () => backend.close(),

    async exists(area, hash) {
      return (await backend.stat(area, hash)) !== undefined;
    },

    async read(area, hash, maxBytes) {
      const file = await backend.get(area, hash);
      if (!file) return undefined;
      if (file.size > maxBytes) {
        file.stream.destroy();
        return undefined;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of file.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    async signedUrl(target) {
      return urlOf(await serverSecret(db, 'file-urls'), target);
    },

    async urlSigner(via = db) {
      const secret = await serverSecret(via, 'file-urls');
      return (target) => urlOf(secret, target);
    },

    async verifyDownload(params, query) {
      const { area, scope, hash, name } = params;
      if (!FILE_AREAS.includes(area as FileArea) || !HASH_PATTERN.test(hash)) return undefined;
      for (const key of Object.keys(query)) if (key !== 'type' && key !== 'exp' && key !== 'sig') return undefined;
      const { type, exp, sig } = query;
      if (typeof type !== 'string' || typeof sig !== 'string') return undefined;
      if (exp !== undefined && (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp))) return undefined;
      const target: DownloadTarget = { area: area as FileArea, scope, hash, name, contentType: type, ...(exp !== undefined ? { expiresAt: Number(exp) } : {}) };
      const expected = Buffer.from(signature(await serverSecret(db, 'file-urls'), target));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
      if (target.expiresAt !== undefined && target.expiresAt * 1000 <= Date.now()) return undefined;
      return target;
    },
  };
}
