import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database.ts';
import { openWithServerKey, sealWithServerKey, serverSecret } from '../../db/secrets.ts';
import { ensureBareRepository, prepareRemote, runGit, type GitRemote } from '../../lib/git/git.ts';
import { urlWithoutSecrets } from '../../lib/outbound/redact.ts';
import type { Config } from '../../config.ts';

/*
 * The remote side of a sync run: credentials kept out of the database in clear, the local
 * cache of fetched repositories, fetching a branch into it.
 */

/** The server secret git sync seals credentials under (job payloads). */
const CREDENTIALS_KEY = 'git-sync-credentials';

/**
 * A git URL (remote, browse URL, commit URL prefix) as it is stored anywhere (job
 * payload, revision `git.url`, sync state, the space's gitSync, logs) and served: without
 * credentials and token parameters. The one rule for every stored git URL.
 */
export function storedUrl(url: string): string {
  return urlWithoutSecrets(url) ?? '';
}

/**
 * The URL as the job payload stores it (urlWithoutSecrets: no credentials, no token
 * parameters) and, when the URL carried any, the whole URL sealed (AES-256-GCM, server
 * key) so the job can give it back to git.
 */
export async function sealRemote(db: Db, url: string): Promise<{ remote: string; sealed?: string }> {
  const remote = urlWithoutSecrets(url);
  if (remote === undefined) throw new Error('the repository URL is not a URL');
  if (remote === url) return { remote };
  return { remote, sealed: await sealWithServerKey(db, CREDENTIALS_KEY, JSON.stringify({ url })) };
}

/** The URL to give git (credentials and parameters back in), from the job payload. */
export async function unsealRemote(db: Db, remote: string, sealed: string | undefined): Promise<string> {
  if (!sealed) return remote;
  const opened = JSON.parse(await openWithServerKey(db, CREDENTIALS_KEY, sealed)) as { url: string } | { u: string; p: string };
  if ('url' in opened) return opened.url;
  // Payloads sealed before whole URLs were: the credentials only.
  const url = new URL(remote);
  url.username = opened.u;
  url.password = opened.p;
  return url.toString();
}

/**
 * The cache folder of one space's fetches from one remote with one credential:
 * `DATA_DIR/git-cache/<space>/<key>`, the key an HMAC (server key) of the whole URL git
 * is given (credentials and parameters included) and repoCacheID. A fetch finds only
 * objects this space fetched from this remote with this credential before: objects
 * fetched for another space (another organization's private repository), or with another
 * credential, are never in the folder to answer it. The request's text names nothing on
 * disk (repoCacheID only varies the key), and the credential cannot be guessed back
 * from the folder name.
 */
export async function cacheDirectory(
  config: Pick<Config, 'dataDir'>,
  db: Db,
  input: { spaceId: string; url: string; repoCacheID?: string },
): Promise<string> {
  const key = createHmac('sha256', await serverSecret(db, 'git-sync-cache'))
    .update(JSON.stringify([input.url, input.repoCacheID ?? null]))
    .digest('hex')
    .slice(0, 40);
  return path.join(spaceCacheRoot(config, input.spaceId), key);
}

/** Removes every cache folder of a space (a purged space's fetched objects are not kept). */
export async function removeSpaceCache(config: Pick<Config, 'dataDir'>, spaceId: string): Promise<void> {
  await fs.rm(spaceCacheRoot(config, spaceId), { recursive: true, force: true });
}

/** Every cache folder of a space. */
export function spaceCacheRoot(config: Pick<Config, 'dataDir'>, spaceId: string): string {
  // Space ids are the app's own (base62); anything else must never become a path.
  if (!/^[A-Za-z0-9]{1,64}$/.test(spaceId)) throw new Error('not a space id');
  return path.join(config.dataDir, 'git-cache', spaceId);
}

export interface Fetched {
  remote: GitRemote;
  dir: string;
  /** The commit of the branch, or undefined when the branch does not exist. */
  commit?: string;
}

const busy = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier work on the same cache folder in this process. */
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
  db: Db,
  input: { spaceId: string; url: string; ref: string; repoCacheID?: string; localRef: string; signal?: AbortSignal },
): Promise<Fetched> {
  const remote = await prepareRemote(input.url, { allowPrivate: config.outboundAllowPrivate });
  const dir = await cacheDirectory(config, db, input);
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
