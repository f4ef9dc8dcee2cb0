import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/*
 * A git server for tests: smart HTTP by `git http-backend` (CGI) behind a small Node
 * server on 127.0.0.1, push enabled, optional basic auth checked here. Repositories are
 * bare folders under a temporary root.
 */
export interface GitServer {
  root: string;
  /** `http://127.0.0.1:port/<name>.git`, with credentials when given. */
  url(name: string, credentials?: { user: string; password: string }): string;
  /** Authorization headers seen (to prove credentials were sent). */
  authorizations: string[];
  /** Work trees made by createRepository, removed on close. */
  workTrees: string[];
  close(): Promise<void>;
}

export async function startGitServer(auth?: { user: string; password: string }): Promise<GitServer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-git-'));
  const authorizations: string[] = [];
  const workTrees: string[] = [];
  const server = http.createServer((req, res) => {
    const header = req.headers.authorization;
    if (header) authorizations.push(header);
    if (auth) {
      const expected = 'Basic ' + Buffer.from(`${auth.user}:${auth.password}`).toString('base64');
      if (header !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
        res.end('unauthorized');
        return;
      }
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      },
    });
    req.pipe(child.stdin);
    const chunks: Buffer[] = [];
    let headersDone = false;
    let pending = Buffer.alloc(0);
    child.stdout.on('data', (data: Buffer) => {
      if (headersDone) {
        res.write(data);
        return;
      }
      pending = Buffer.concat([pending, data]);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of pending.subarray(0, end).toString('utf8').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(pending.subarray(end + 4));
    });
    child.stderr.on('data', (d: Buffer) => chunks.push(d));
    child.on('close', () => {
      if (!headersDone) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    root,
    authorizations,
    workTrees,
    url: (name, credentials) => `http://${credentials ? `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@` : ''}127.0.0.1:${port}/${name}.git`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
      for (const dir of workTrees) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

export function gitBytes(cwd: string, ...args: string[]): Buffer {
  return execFileSync('git', args, { cwd, env: GIT_ENV });
}

/** Makes a bare repository `name` under the server root with these files on `main`; returns a work tree to change it. */
export function createRepository(server: GitServer, name: string, files: Record<string, string | Buffer>): { work: string; bare: string; commit(files: Record<string, string | Buffer | null>, message?: string): string } {
  const bare = path.join(server.root, `${name}.git`);
  fs.mkdirSync(bare, { recursive: true });
  git(bare, 'init', '--bare', '--quiet', '-b', 'main');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-work-'));
  server.workTrees.push(work);
  git(work, 'init', '--quiet', '-b', 'main');
  git(work, 'remote', 'add', 'origin', bare);
  const commit = (changes: Record<string, string | Buffer | null>, message = 'Change') => {
    for (const [p, content] of Object.entries(changes)) {
      const full = path.join(work, p);
      if (content === null) {
        fs.rmSync(full, { force: true });
        continue;
      }
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', message);
    git(work, 'push', '--quiet', '--force', 'origin', 'HEAD:refs/heads/main');
    return git(work, 'rev-parse', 'HEAD').trim();
  };
  commit(files, 'Initial');
  return { work, bare, commit };
}
