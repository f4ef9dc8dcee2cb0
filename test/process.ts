import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newId } from '../src/lib/ids.ts';

/*
 * Runs Quire in child processes, on a fresh SQLite folder or a fresh PostgreSQL schema:
 * from source through tsx (`npm run dev`, the default: tests see the code as it is, with
 * no build step per run), or as users do with `npm start` (`{ built: true }`, and every
 * start when the suite runs against the build, QUIRE_TEST_TARGET=dist: the launcher
 * builds dist/ when stale and runs it).
 */

/** True when the suite runs against the built server (vitest.config.ts). */
export const againstBuild = process.env.QUIRE_TEST_TARGET === 'dist';

const root = path.resolve(import.meta.dirname, '..');

export interface Environment {
  env: Record<string, string>;
  dataDir: string;
  cleanup(): Promise<void>;
}

/** A fresh data folder, and a fresh PostgreSQL schema when DATABASE_URL is set. */
export async function freshEnvironment(): Promise<Environment> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-proc-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
  const base = process.env.DATABASE_URL;
  let schema: string | undefined;
  if (base) {
    schema = `proc_${newId(12).toLowerCase()}`;
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
  }
  return {
    env,
    dataDir,
    async cleanup() {
      if (base && schema) {
        const client = new pg.Client({ connectionString: base });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Every line the server printed so far (standard output and error). */
  lines: string[];
  /** What was printed on standard output alone, so far. */
  stdout(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the server (built: `npm start`'s launcher; else tsx on `entry`, default
 * src/server.ts, or another entry point that starts it) and resolves once it listens.
 */
export function startServer(
  env: Record<string, string>,
  options: { built?: boolean; entry?: string; startTimeoutMs?: number; /** Run `npm start` itself: the child is npm. */ throughNpm?: boolean } = {},
): Promise<RunningServer> {
  const { DATABASE_URL: _inherited, ...parentEnv } = process.env;
  const built = options.built ?? (againstBuild && options.entry === undefined);
  const args = built ? startCommand() : ['--import', 'tsx', options.entry ?? 'src/server.ts'];
  const [command, commandArgs] = options.throughNpm ? ['npm', ['start']] : [process.execPath, args];
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: { ...parentEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) {
          resolve({
            url: match[1],
            child,
            lines,
            stdout: () => stdout,
            exited,
            async stop(signal = 'SIGTERM') {
              if (child.exitCode === null) child.kill(signal);
              return exited;
            },
          });
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${lines.join('\n')}`)));
    // Generous: on CI's 2 cores the process starts while other test files run beside it
    // (transpiling the app with tsx under that load has taken over 90 s).
    setTimeout(() => reject(new Error(`server did not start:\n${lines.join('\n')}`)), options.startTimeoutMs ?? 180_000).unref();
  });
}

/** `npm start` as package.json says it (node's flags and the launcher), run as node directly. */
function startCommand(): string[] {
  const script: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  // `exec`: npm's shell gives way to node, so a SIGTERM sent to npm start reaches the server.
  const words = script.split(/\s+/).filter((word, i) => !(i === 0 && word === 'exec'));
  if (words[0] !== 'node') throw new Error(`unexpected start script: ${script}`);
  return words.slice(1);
}

/** Runs `npm run --silent cli -- ...args` (as node, same thing) and returns its output. */
export function runCli(env: Record<string, string>, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _inherited, ...parentEnv } = process.env;
  const entry = againstBuild ? ['scripts/cli.mjs'] : ['--import', 'tsx', 'src/cli.ts'];
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: { ...parentEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for whoever listens next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
