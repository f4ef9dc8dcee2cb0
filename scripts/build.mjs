#!/usr/bin/env node
/*
 * `npm run build`: bundles the server and the CLI into dist/ with esbuild (see
 * docs/decisions/build.md). Quire's TypeScript and its pure-JavaScript dependencies become
 * a few files, so a start neither transpiles nor resolves hundreds of modules; packages
 * that load files beside themselves (native addons, PDFKit's fonts) stay in node_modules.
 * Plain JavaScript so it runs without tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENTRIES = ['src/server.ts', 'src/cli.ts', 'src/worker-main.ts'];
/** Loaded from node_modules at run time: native code, files read beside the module, optional peers. */
const EXTERNAL = ['better-sqlite3', 'pdfkit', 'fontkit', 'pg-native', '@fastify/swagger-ui', '@fastify/static'];

/**
 * Builds into `outdir` (dist/ by default) and returns the files written. The build goes to
 * a temporary folder first and replaces `outdir` in one rename, so a process starting
 * meanwhile never loads half a build.
 */
export async function buildServer({ outdir = path.join(ROOT, 'dist') } = {}) {
  const temporary = `${outdir}.tmp-${process.pid}`;
  fs.rmSync(temporary, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: temporary,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS dependencies call require(): give the ESM bundle one.
    banner: { js: "import { createRequire as __quireCreateRequire } from 'node:module'; const require = __quireCreateRequire(import.meta.url);" },
    sourcemap: true,
    // No keepNames: it wraps every function and class expression in a __name() call that
    // defines a property each time a closure is made, which made the built server a third
    // slower than the sources under tsx (docs/decisions/build.md). esbuild keeps names as
    // written except where two would collide in the bundle (then `name2`).
    logLevel: 'silent',
    metafile: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { QUIRE_BUILD_TIME: JSON.stringify(new Date().toISOString()) },
  });
  if (result.warnings.length > 0) {
    for (const w of result.warnings) process.stderr.write(`${JSON.stringify({ level: 'warn', msg: 'build warning', text: w.text })}\n`);
  }
  // Renames only, so two processes building at once (two `npm start` on a stale tree) never
  // delete files the other just put in place: the old build is moved aside, then removed.
  const previous = `${outdir}.old-${process.pid}`;
  try {
    fs.renameSync(outdir, previous);
  } catch (error) {
    if (error?.code !== 'ENOENT') throw error;
  }
  try {
    fs.renameSync(temporary, outdir);
  } catch (error) {
    // Another process building at the same moment renamed its build first: use that one.
    if (error?.code !== 'ENOTEMPTY' && error?.code !== 'EEXIST') throw error;
    fs.rmSync(temporary, { recursive: true, force: true });
  }
  fs.rmSync(previous, { recursive: true, force: true });
  return Object.keys(result.metafile.outputs);
}

/** Newest modification time under the given paths (files or folders), in ms. */
function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(p);
  return newest;
}

/** Why dist/ must be built again, or undefined when it is up to date. */
export function staleReason(root = ROOT) {
  const built = path.join(root, 'dist', 'server.js');
  if (!fs.existsSync(built)) return 'dist/ is missing';
  const builtAt = fs.statSync(built).mtimeMs;
  const inputs = ['src', 'package.json', 'package-lock.json', 'scripts/build.mjs'].map((p) => path.join(root, p));
  return newestMtime(inputs) > builtAt ? 'sources changed since the last build' : undefined;
}

/**
 * Builds dist/ when it is missing or stale, reporting as JSON lines through `log` (the
 * server's log format), and returns the URL of the built entry point `name` (server, cli).
 */
export async function ensureBuilt(name, log) {
  const reason = staleReason();
  if (reason) {
    const started = Date.now();
    log(30, `building the server: ${reason}`);
    await buildServer();
    log(30, 'built dist/', { ms: Date.now() - started });
  }
  return pathToFileURL(path.join(ROOT, 'dist', `${name}.js`)).href;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const started = Date.now();
  buildServer().then(
    (files) => console.log(`built ${files.filter((f) => f.endsWith('.js')).length} files into dist/ in ${Date.now() - started} ms`),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
