import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Db } from '../../db/database.ts';
import { serverSecret } from '../../db/secrets.ts';
import { ensureBareRepository, prepareRemote, runGit, type GitRemote } from '../../lib/git/git.ts';
import { redactUrl } from '../../lib/outbound/redact.ts';
import type { Config } from '../../config.ts';

/*
 * The remote side of a sync run: credentials kept out of the database in clear, the local
 * cache of fetched repositories, fetching a branch into it.
 */

/** The URL without credentials, and the credentials sealed (AES-256-GCM, server key) for the job payload. */
export async function sealRemote(db: Db, url: string): Promise<{ remote: string; sealed?: string }> {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { remote: parsed.toString() };
  const credentials = JSON.stringify({ u: parsed.username, p: parsed.password });
  parsed.username = '';
  parsed.password = '';
  const key = await serverSecret(db, 'git-sync-credentials');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(credentials, 'utf8'), cipher.final()]);
  return { remote: parsed.toString(), sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url') };
}

/** The URL to give git (credentials back in), from the job payload. */
export async function unsealRemote(db: Db, remote: string, sealed: string | undefined): Promise<string> {
  if (!sealed) return remote;
  const key = await serverSecret(db, 'git-sync-credentials');
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const { u, p } = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as { u: string; p: string };
  const url = new URL(remote);
  url.username = u;
  url.password = p;
  return url.toString();
}

/** The cache folder of a repository: by repoCacheID when given, else by the remote URL. */
export function cacheDirectory(config: Pick<Config, 'dataDir'>, repoCacheID: string | undefined, remote: string): string {
  const key = createHash('sha256').update(repoCacheID ? `id:${repoCacheID}` : `url:${redactUrl(remote)}`).digest('hex').slice(0, 32);
  return path.join(config.dataDir, 'git-cache', key);
}

export interface Fetched {
  remote: GitRemote;
  dir: string;
  /** The commit of the branch, or undefined when the branch does not exist. */
  commit?: string;
}

const busy = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier work on the same cache folder in this process (spaces sharing a repoCacheID). */
export function withCache<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = busy.get(dir) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  busy.set(dir, settled);
  void settled.then(() => {
    if (busy.get(dir) === settled) busy.delete(dir);
  });
  return run;
}

/** Fetches `ref` of the remote into the cache (only what is missing), under a ref of the space's own. */
export async function fetchBranch(
  config: Pick<Config, 'dataDir' | 'outboundAllowPrivate'>,
  input: { url: string; ref: string; repoCacheID?: string; localRef: string; signal?: AbortSignal },
): Promise<Fetched> {
  const remote = await prepareRemote(input.url, { allowPrivate: config.outboundAllowPrivate });
  const dir = cacheDirectory(config, input.repoCacheID, remote.url);
  return withCache(dir, () => fetchInto(dir, remote, input));
}

async function fetchInto(dir: string, remote: GitRemote, input: { ref: string; localRef: string; signal?: AbortSignal }): Promise<Fetched> {
  await ensureBareRepository(dir);
  const listed = (await runGit(['ls-remote', '--', remote.url, input.ref], { cwd: dir, remote, timeoutMs: 120_000, signal: input.signal })).toString('utf8');
  const line = listed.split('\n').find((l) => l.endsWith(`\t${input.ref}`));
  if (!line) return { remote, dir };
  await runGit(['fetch', '--no-tags', '--quiet', '--', remote.url, `+${input.ref}:${input.localRef}`], { cwd: dir, remote, timeoutMs: 600_000, signal: input.signal });
  const commit = (await runGit(['rev-parse', '--verify', `${input.localRef}^{commit}`], { cwd: dir })).toString('utf8').trim();
  return { remote, dir, commit };
}
