import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import fs from 'node:fs/promises';
import { isIP } from 'node:net';
import { refusalOf } from '../outbound/addresses.ts';
import { OutboundError } from '../outbound/client.ts';
import { urlWithoutSecrets } from '../outbound/redact.ts';

/*
 * The git command line, run for git sync (docs/decisions/git-sync.md). Git's own network
 * access follows the outbound client's policy:
 * - only http(s) remotes (GIT_ALLOW_PROTOCOL), no proxies from the environment, no redirects;
 * - the host is resolved and every address checked here, then git is pinned to the checked
 *   addresses with `http.curloptResolve`, so a second, different answer (DNS rebinding)
 *   is never asked for;
 * - credentials never reach git's command line, its config files or a log: they go to git
 *   as an `http.extraHeader` through GIT_CONFIG_* environment variables of that one process.
 */

export interface GitRemote {
  /** The URL without credentials, as git is given it. */
  url: string;
  /** The URL for logs and storage (credentials and capability parameters removed). */
  display: string;
  /** `Authorization: Basic ...` when the URL carried credentials. */
  authorization?: string;
  /** `host:port:address` pins for libcurl. */
  pins: string[];
}

export interface GitPolicy {
  allowPrivate: boolean | ((address: string, port: number) => boolean);
  resolve?: (hostname: string) => Promise<string[]>;
}

/** Checks a remote URL against the outbound policy and splits its credentials off. */
export async function prepareRemote(input: string, policy: GitPolicy): Promise<GitRemote> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundError('invalid-url', 'the repository URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('invalid-url', 'the repository URL must be http or https');
  let authorization: string | undefined;
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    authorization = `Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const resolve = policy.resolve ?? (async (h: string) => (await lookup(h, { all: true, verbatim: true })).map((a) => a.address));
  const addresses = isIP(host) ? [host] : await resolve(host).catch(() => [] as string[]);
  if (addresses.length === 0) throw new OutboundError('unresolvable', `the host "${host}" does not resolve`);
  const allowed = (address: string) => (typeof policy.allowPrivate === 'function' ? policy.allowPrivate(address, port) : policy.allowPrivate);
  for (const address of addresses) {
    const why = refusalOf(address);
    if (why && !allowed(address)) throw new OutboundError('refused-address', `the host "${host}" resolves to ${why}, which is not reachable from here`);
  }
  const pins = isIP(host) ? [] : [`${host}:${port}:${addresses.map((a) => (isIP(a) === 6 ? `[${a}]` : a)).join(',')}`];
  return { url: url.toString(), display: urlWithoutSecrets(url.toString()) ?? '', authorization, pins };
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'GitError';
  }
}

export interface RunOptions {
  cwd: string;
  remote?: GitRemote;
  input?: string | Buffer;
  env?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The environment of one git process: the outbound rules above, the remote's credentials and pins. */
function gitEnvironment(options: Pick<RunOptions, 'cwd' | 'remote' | 'env'>): Record<string, string> {
  const config: [string, string][] = [
    ['http.followRedirects', 'false'],
    ['credential.helper', ''],
    ['core.askPass', ''],
    ['protocol.allow', 'never'],
    ['protocol.http.allow', 'always'],
    ['protocol.https.allow', 'always'],
    ['gc.auto', '0'],
    ['user.name', 'Quire'],
    ['user.email', 'git-sync@quire.invalid'],
  ];
  if (options.remote?.authorization) config.push(['http.extraHeader', options.remote.authorization]);
  for (const pin of options.remote?.pins ?? []) config.push(['http.curloptResolve', pin]);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.cwd,
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ALLOW_PROTOCOL: 'http:https',
    GIT_CONFIG_COUNT: String(config.length),
    ...options.env,
  };
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

/** Runs git; resolves with stdout as a Buffer, rejects with a GitError whose message has no secret. */
export function runGit(args: string[], options: RunOptions): Promise<Buffer> {
  const env = gitEnvironment(options);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], signal: options.signal });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    if (options.timeoutMs) timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(new GitError(`git could not run: ${e.message}`, null));
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out));
      reject(new GitError(`git ${args[0]} failed: ${scrub(Buffer.concat(err).toString('utf8'), options.remote)}`, code));
    });
    child.stdin.on('error', () => undefined);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/**
 * The bytes of one blob as they come out of `git cat-file blob` (never collected whole);
 * throws a GitError at the end when git failed. Stopping early kills git.
 */
export async function* streamBlob(dir: string, oid: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  if (!/^[0-9a-f]{40,64}$/.test(oid)) throw new GitError(`not an object id: ${oid}`, null);
  const child = spawn('git', ['cat-file', 'blob', oid], { cwd: dir, env: gitEnvironment({ cwd: dir }), stdio: ['ignore', 'pipe', 'pipe'], signal });
  const err: Buffer[] = [];
  child.stderr.on('data', (d: Buffer) => err.push(d));
  const closed = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code));
  });
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
    const code = await closed;
    if (code !== 0) throw new GitError(`git cat-file failed: ${scrub(Buffer.concat(err).toString('utf8'), undefined)}`, code);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** Git's error text without anything secret and without the URL's credentials. */
function scrub(text: string, remote: GitRemote | undefined): string {
  let clean = text.replace(/https?:\/\/[^\s'"]+/g, (u) => urlWithoutSecrets(u) ?? '[URL]').replace(/Authorization:[^\n]*/gi, 'Authorization: [redacted]');
  if (remote?.authorization) clean = clean.split(remote.authorization).join('[redacted]');
  return clean.trim().split('\n').slice(-4).join(' ').slice(0, 500);
}

/** A bare repository at `dir` (created when missing): the local cache of one remote. */
export async function ensureBareRepository(dir: string): Promise<void> {
  try {
    await fs.access(`${dir}/HEAD`);
  } catch {
    await fs.mkdir(dir, { recursive: true });
    await runGit(['init', '--bare', '--quiet', '.'], { cwd: dir });
  }
}

/** One entry of a git tree listing. */
export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
  path: string;
}

/** Every blob of a commit's tree (recursively), by path. */
export async function listTree(dir: string, commit: string): Promise<TreeEntry[]> {
  const out = await runGit(['ls-tree', '-r', '-z', '--full-tree', commit], { cwd: dir });
  const entries: TreeEntry[] = [];
  for (const line of out.toString('utf8').split('\0')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    const [mode, type, oid] = line.slice(0, tab).split(' ');
    entries.push({ mode, type: type as TreeEntry['type'], oid, path: line.slice(tab + 1) });
  }
  return entries;
}

/** The size in bytes of each of these objects the repository has (absent: missing), by `git cat-file --batch-check`. */
export async function objectSizes(dir: string, oids: string[]): Promise<Map<string, number>> {
  const unique = [...new Set(oids)];
  const sizes = new Map<string, number>();
  if (unique.length === 0) return sizes;
  const out = (await runGit(['cat-file', '--batch-check'], { cwd: dir, input: unique.join('\n') + '\n' })).toString('utf8');
  for (const line of out.split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (type && type !== 'missing') sizes.set(oid, Number(size));
  }
  return sizes;
}

/** Reads many blobs in one `git cat-file --batch` process, whole: small ones only (check objectSizes first). */
export async function readBlobs(dir: string, oids: string[]): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>();
  const unique = [...new Set(oids)];
  if (unique.length === 0) return result;
  const out = await runGit(['cat-file', '--batch'], { cwd: dir, input: unique.join('\n') + '\n' });
  let at = 0;
  for (const oid of unique) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString('utf8').split(' ');
    if (header[1] === 'missing') throw new GitError(`object ${oid} is missing`, null);
    const size = Number(header[2]);
    result.set(oid, out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return result;
}

/** Renames between two commits (git's rename detection): old path -> new path. */
export async function detectRenames(dir: string, from: string, to: string): Promise<Map<string, string>> {
  const out = await runGit(['diff', '--name-status', '-z', '-M50%', from, to], { cwd: dir });
  const parts = out.toString('utf8').split('\0');
  const renames = new Map<string, string>();
  for (let i = 0; i < parts.length; ) {
    const status = parts[i];
    if (!status) break;
    if (status.startsWith('R') || status.startsWith('C')) {
      if (status.startsWith('R')) renames.set(parts[i + 1], parts[i + 2]);
      i += 3;
    } else i += 2;
  }
  return renames;
}

/** Writes blobs into the repository; returns their oids in order. */
export async function writeBlobs(dir: string, contents: Buffer[]): Promise<string[]> {
  const oids: string[] = [];
  // hash-object --stdin-paths needs files; one process per blob is fine for the few an export changes.
  for (const content of contents) {
    oids.push((await runGit(['hash-object', '-w', '--stdin'], { cwd: dir, input: content })).toString('utf8').trim());
  }
  return oids;
}
