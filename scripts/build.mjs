#!/usr/bin/env node
/*
 * `npm run build`: compiles the server into dist/ (see docs/decisions/build.md).
 *
 * - Quire's own code is transpiled file for file to CommonJS: src/a/b.ts becomes
 *   dist/a/b.js with the same imports (`./x.ts` required as `./x.js`). Nothing of ours is
 *   merged, so the test suite can run against these very files (QUIRE_TEST_TARGET=dist).
 *   CommonJS rather than ESM because Node 20 loads a graph of 360 ES modules about 0.3 s
 *   slower (asynchronous resolution, and cjs-module-lexer over every CommonJS dependency
 *   an ES module imports); Node 22's compile cache would be the other way out.
 * - CommonJS dependencies are never bundled: they stay bare requires and Node loads them as
 *   it does under tsx and vitest. Re-packaging them (esbuild's CommonJS-to-ESM wrapping)
 *   is what broke SAML and every outbound fetch in the built server before.
 * - ESM-only dependencies are pre-bundled into dist/vendor/ (Node 20 cannot require ES
 *   modules), as Vite pre-bundles dependencies: one CommonJS bundle per family of packages
 *   (so a package's module state exists once) and, per specifier, a small file exporting
 *   its names. A package whose ESM entry wraps CommonJS files (pg, for example) is found
 *   from the build's metafile and left to Node.
 * - The editor's browser code (src/editor/client/) is bundled for the browser into
 *   dist/public/editor-<hash>.{js,css} with a manifest (src/editor/assets.ts,
 *   docs/decisions/editor.md).
 * - Last, the built server (in dist/) is started once to record V8's code cache of what a
 *   start compiles into dist/code-cache.bin (scripts/code-cache.cjs), which `npm start` reads.
 *
 * Plain JavaScript so it runs without tsx.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The entry points users run: `npm start`, `npm run cli`, `npm run worker`. */
export const ENTRIES = ['server', 'cli', 'worker-main'];
const VENDOR = 'vendor';
const BUILTINS = new Set(builtinModules);

/**
 * Every source file of the server (tests stay sources: they run against dist/, not in it).
 * The browser code (src/editor/client/) is not the server's: it is bundled for the browser
 * into dist/public/ (below).
 */
function sourceFiles(root) {
  return fs
    .readdirSync(path.join(root, 'src'), { recursive: true })
    .map((file) => String(file).split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !file.startsWith('editor/client/'))
    .sort()
    .map((file) => `src/${file}`);
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`). */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function isBuiltin(specifier) {
  return specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]);
}

const typeOfFolder = new Map();
/** How Node would load this file: 'esm' or 'cjs' (by extension, else the nearest package.json's type). */
function moduleFormat(file) {
  if (file.endsWith('.mjs')) return 'esm';
  if (file.endsWith('.cjs') || file.endsWith('.node') || file.endsWith('.json')) return 'cjs';
  const dir = path.dirname(file);
  let format = typeOfFolder.get(dir);
  if (format === undefined) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) format = JSON.parse(fs.readFileSync(manifest, 'utf8')).type === 'module' ? 'esm' : 'cjs';
    else format = path.dirname(dir) === dir ? 'cjs' : moduleFormat(dir);
    typeOfFolder.set(dir, format);
  }
  return format;
}

/** The file Node's ESM resolver picks for `specifier` imported from the project root. */
function resolveFromRoot(root, specifier) {
  const resolved = import.meta.resolve(specifier, pathToFileURL(path.join(root, 'package.json')).href);
  return resolved.startsWith('file:') ? fileURLToPath(resolved) : undefined;
}

/** The file name a pre-bundled specifier gets in dist/vendor/ (`@shikijs/langs/bash` -> `@shikijs+langs+bash`). */
export function vendorName(specifier) {
  return specifier.replace(/\//g, '+');
}

/**
 * Pass 1: Quire's files, one output per source. Relative imports are rewritten to `.js`;
 * bare imports are recorded and left to `rewriteBareImport` (vendor path, or bare).
 */
async function compileSources(root, outdir, rewriteBareImport) {
  const bare = new Set();
  const perFile = {
    name: 'quire-per-file',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (args.path.startsWith('.')) return { path: args.path.replace(/\.ts$/, '.js'), external: true };
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        bare.add(args.path);
        const importerOut = path.join(outdir, path.relative(path.join(root, 'src'), args.importer)).replace(/\.ts$/, '.js');
        return { path: rewriteBareImport(args.path, path.dirname(importerOut)), external: true };
      });
    },
  };
  await build({
    absWorkingDir: root,
    entryPoints: sourceFiles(root),
    outdir,
    outbase: 'src',
    bundle: true, // every import is external (plugin above): this only runs the plugin per import
    format: 'cjs',
    // The few files that find things beside themselves (createRequire, package.json) read
    // import.meta.url; in CommonJS it is made from __filename.
    banner: { js: 'var __import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // No keepNames: it wraps every function in a __name() call made each time a closure is
    // created, which made the server a third slower (docs/decisions/build.md).
    logLevel: 'silent',
    plugins: [perFile],
    define: { QUIRE_BUILD_TIME: JSON.stringify(new Date().toISOString()), 'import.meta.url': '__import_meta_url' },
  });
  return bare;
}

/**
 * Packages bundled together because they share code, by package name: shiki's parts, and
 * the editor's (ProseMirror, Yjs and its bindings, which must share one Yjs). A family is
 * loaded when one of its packages is first required: the editor's only at the first live
 * editing connection (src/modules/collab/collab.routes.ts), not at start.
 */
const FAMILIES = { shiki: /^(?:shiki|@shikijs\/)/, editor: /^(?:prosemirror-|yjs$|y-prosemirror|y-protocols|lib0)/ };
const familyOf = (specifier) => Object.keys(FAMILIES).find((family) => FAMILIES[family].test(specifier)) ?? 'common';

/** The source files a specifier's entry pulls in: its output's inputs and those of the chunks it imports statically. */
function inputsOf(metafile, output) {
  const inputs = new Set();
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const info = metafile.outputs[file];
    for (const input of Object.keys(info.inputs)) inputs.add(input);
    for (const imported of info.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(output);
  return inputs;
}

/**
 * Bundles of pre-bundled specifiers: the named FAMILIES, and the rest ("common") split into
 * groups that share no source file, so a package's module state still exists once while a
 * group nothing at start uses is not evaluated at start. Returns [bundle name, specifiers].
 */
function familiesOf(specifiers, inputsOfSpecifier) {
  const named = new Map();
  const rest = [];
  for (const specifier of specifiers) {
    const family = familyOf(specifier);
    if (family === 'common') rest.push(specifier);
    else named.set(family, [...(named.get(family) ?? []), specifier]);
  }
  // Union-find over shared input files.
  const parent = new Map(rest.map((s) => [s, s]));
  const find = (s) => (parent.get(s) === s ? s : find(parent.get(s)));
  const owner = new Map();
  for (const specifier of rest) {
    for (const input of inputsOfSpecifier(specifier)) {
      const other = owner.get(input);
      if (other === undefined) owner.set(input, specifier);
      else parent.set(find(specifier), find(other));
    }
  }
  const groups = new Map();
  for (const specifier of rest) groups.set(find(specifier), [...(groups.get(find(specifier)) ?? []), specifier]);
  return [...named, ...[...groups.values()].map((members) => [`common-${vendorName(members[0])}`, members])];
}

/**
 * Pass 2: the ESM-only dependencies, into dist/vendor/. First an ESM build (not written)
 * whose metafile says which packages hold CommonJS files or find files beside themselves
 * (those are answered, to be left to Node) and what each specifier exports; then one
 * CommonJS bundle per family and a file per specifier re-exporting its names. Bare
 * imports of CommonJS packages (and of packages in `native`) inside them stay external.
 */
async function prebundle(root, outdir, specifiers, native, lazyExports) {
  const keepNative = {
    name: 'quire-vendor-native',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.kind === 'entry-point' || args.pluginData?.probing) return undefined;
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        if (native.has(packageOf(args.path))) return { path: args.path, external: true };
        const probe = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: { probing: true } });
        if (probe.errors.length > 0 || moduleFormat(probe.path) === 'cjs') return { path: args.path, external: true };
        return undefined;
      });
    },
  };
  const entryPoints = Object.fromEntries([...specifiers].map((s) => [vendorName(s), s]));
  const shared = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    conditions: ['node', 'import'],
    sourcemap: false,
    logLevel: 'silent',
    plugins: [keepNative],
  };
  const result = await build({ ...shared, entryPoints, outdir: path.join(outdir, VENDOR), splitting: true, format: 'esm', metafile: true, write: false });
  // Left to Node: packages with CommonJS files inside, and packages that find files beside
  // themselves (`new URL('./data/x', import.meta.url)`, createRequire): bundled, those paths
  // would point into dist/vendor/.
  const leaveToNode = new Set();
  for (const [input, info] of Object.entries(result.metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'));
    if (!match) continue;
    if (info.format === 'cjs' || /\bimport\.meta\.(?:url|dirname|filename|resolve)\b|\b__dirname\b|\b__filename\b/.test(fs.readFileSync(path.join(root, input), 'utf8'))) {
      leaveToNode.add(match[1]);
    }
  }
  if (leaveToNode.size > 0) return leaveToNode;

  const exportsOf = new Map();
  const outputOf = new Map();
  for (const [file, info] of Object.entries(result.metafile.outputs)) {
    const entry = Object.entries(entryPoints).find(([name]) => file.endsWith(`${VENDOR}/${name}.js`));
    if (entry) {
      exportsOf.set(entry[1], info.exports);
      outputOf.set(entry[1], file);
    }
  }
  const families = new Map();
  for (const [family, members] of familiesOf([...specifiers].sort(), (specifier) => inputsOf(result.metafile, outputOf.get(specifier)))) {
    families.set(family, members);
  }
  for (const [family, members] of families) {
    await build({
      ...shared,
      stdin: { contents: members.map((s, i) => `export * as v${i} from ${JSON.stringify(s)};`).join('\n'), resolveDir: root, loader: 'js' },
      outfile: path.join(outdir, VENDOR, `${family}.bundle.js`),
      format: 'cjs',
    });
    members.forEach((specifier, i) => {
      const exported = exportsOf.get(specifier);
      // Our code is compiled as Node-mode ESM, so a default import of this file is its
      // module.exports: that is the package's default export when it has one, carrying
      // the named exports; the `0 && …` line lets cjs-module-lexer see the names (the
      // tests import this file from ESM).
      const names = exported.filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
      const bundle = `require('./${family}.bundle.js').v${i}`;
      // A package with only named exports is loaded at the first use of one of them (our
      // compiled code reads `import_x.name` where it uses it): packages a start does not
      // use (jose, diff, ml-hclust…) are not evaluated by it. One with a default export is
      // loaded here: module.exports must be that very object.
      const lines = exported.includes('default')
        ? [
            `const ns = ${bundle};`,
            `const out = 'default' in ns ? ns.default : {};`,
            `for (const name of Object.keys(ns)) if (name !== 'default' && !(name in out) && Object.isExtensible(out)) Object.defineProperty(out, name, { enumerable: true, get: () => ns[name] });`,
          ]
        : (lazyExports.set(`${vendorName(specifier)}.js`, { bundle: `${family}.bundle.js`, key: `v${i}`, names: exported }), [
            `let ns;`,
            `const out = {};`,
            `for (const name of ${JSON.stringify(exported)}) Object.defineProperty(out, name, { enumerable: true, get: () => (ns ??= ${bundle})[name] });`,
          ]);
      fs.writeFileSync(
        path.join(outdir, VENDOR, `${vendorName(specifier)}.js`),
        [...lines, `module.exports = out;`, `0 && (module.exports = { ${names.join(', ')} });`, ''].join('\n'),
      );
    });
  }
  return leaveToNode;
}

/**
 * The names a lazy wrapper exports come from esbuild's metafile, which cannot see names a
 * package re-exports from a CommonJS one (`export * from 'cjs'`). Evaluates every bundle
 * with such a wrapper, in a child process (not in this one, which may be `npm start`'s),
 * and fails the build when a name is missing: then the wrapper must load eagerly.
 */
function checkLazyExports(vendorDir, lazyExports) {
  const program = `
    const wrappers = ${JSON.stringify(Object.fromEntries(lazyExports))};
    const problems = [];
    for (const [file, { bundle, key, names }] of Object.entries(wrappers)) {
      const actual = Object.keys(require(${JSON.stringify(vendorDir)} + '/' + bundle)[key]).filter((name) => name !== 'default');
      const missing = actual.filter((name) => !names.includes(name));
      if (missing.length > 0) problems.push(file + ' lacks ' + missing.join(', '));
    }
    if (problems.length > 0) { console.error(problems.join('\\n')); process.exit(1); }`;
  const result = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`vendored packages export names their metafile does not list:\n${result.stderr}`);
}

/**
 * Builds into `outdir` (dist/ by default) and returns the files written. The build goes to a
 * temporary folder first and replaces `outdir` in one rename, so a process starting
 * meanwhile never loads half a build.
 */
export async function buildServer({ outdir = path.join(ROOT, 'dist'), root = ROOT } = {}) {
  const temporary = `${outdir}.tmp-${process.pid}`;
  // Packages Node loads itself: CommonJS ones, and ESM ones found to wrap CommonJS files.
  const native = new Set();
  const esm = new Map();
  const isVendored = (specifier) => {
    if (native.has(packageOf(specifier))) return false;
    if (!esm.has(specifier)) {
      const file = resolveFromRoot(root, specifier);
      esm.set(specifier, file !== undefined && file.includes(`${path.sep}node_modules${path.sep}`) && moduleFormat(file) === 'esm');
    }
    return esm.get(specifier);
  };
  for (let attempt = 0; ; attempt++) {
    fs.rmSync(temporary, { recursive: true, force: true });
    fs.mkdirSync(temporary, { recursive: true });
    // dist/ is CommonJS, whatever the project's package.json says.
    fs.writeFileSync(path.join(temporary, 'package.json'), '{ "type": "commonjs" }\n');
    const vendored = new Set();
    await compileSources(root, temporary, (specifier, importerDir) => {
      if (!isVendored(specifier)) return specifier;
      vendored.add(specifier);
      const target = path.relative(importerDir, path.join(temporary, VENDOR, `${vendorName(specifier)}.js`)).split(path.sep).join('/');
      return target.startsWith('.') ? target : `./${target}`;
    });
    // Wrappers that load their bundle on first use list the names they export (from the
    // metafile); checked against the evaluated bundles below.
    const lazyExports = new Map();
    const leaveToNode = await prebundle(root, temporary, vendored, native, lazyExports);
    if (leaveToNode.size === 0) {
      checkLazyExports(path.join(temporary, VENDOR), lazyExports);
      fs.writeFileSync(path.join(temporary, VENDOR, 'manifest.json'), `${JSON.stringify(Object.fromEntries([...vendored].sort().map((s) => [s, `${vendorName(s)}.js`])), null, 2)}\n`);
      break;
    }
    if (attempt >= 5) throw new Error(`pre-bundling keeps finding packages to leave to Node: ${[...leaveToNode].join(', ')}`);
    for (const name of leaveToNode) native.add(name);
  }
  // The editor's browser bundle, hashed, into dist/public/ (built by the compiled
  // src/editor/assets.ts, so the build and the dev server bundle it the same way).
  const { bundleEditorClient } = await import(pathToFileURL(path.join(temporary, 'editor', 'assets.js')).href);
  await bundleEditorClient(root, path.join(temporary, 'public'));
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
  // In place, not in the temporary folder: Node 20's V8 keeps the file names scripts were
  // recorded under. A process starting meanwhile finds no cache yet and compiles as usual.
  await recordCodeCache(root, outdir);
  return fs.readdirSync(outdir, { recursive: true }).map(String);
}

/** The Node flags of `npm start` (package.json's start script): V8 accepts a code cache only under the flags it was made with. */
export function startNodeFlags(root = ROOT) {
  const start = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Starts the server built in `builtDir` once, on a fresh SQLite folder of its own, with
 * scripts/code-cache.cjs recording; waits for the first 200 of /healthz and stops it, which
 * writes builtDir/code-cache.bin: the compiled code of every CommonJS file a start and a
 * first request ran (ours and the packages'). Fails the build when the server does not
 * start: a build whose server cannot answer is not one to ship.
 */
async function recordCodeCache(root, builtDir) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-build-warm-'));
  // Only what a start needs: the builder's DATABASE_URL, S3 or cluster settings are not
  // this run's (it must not touch a real database or bucket).
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', QUIRE_CODE_CACHE_RECORD: builtDir };
  const child = spawn(process.execPath, [...startNodeFlags(root), '--require', path.join(root, 'scripts', 'code-cache.cjs'), path.join(builtDir, 'server.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  // A build stopped meanwhile (npm start signalled while it builds) takes its warm-up server
  // with it instead of leaving it listening, orphaned.
  const killChild = () => child.kill('SIGKILL');
  const onSignal = (signal) => {
    killChild();
    process.off('SIGTERM', onSignal).off('SIGINT', onSignal);
    process.kill(process.pid, signal);
  };
  process.once('exit', killChild).once('SIGTERM', onSignal).once('SIGINT', onSignal);
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('did not listen within 60 s')), 60_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr.on('data', (chunk) => (output += chunk));
      exited.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`exited with code ${code} before listening`));
      });
    });
    const response = await fetch(`${url}/healthz`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
    child.kill('SIGTERM');
    const { code } = await exited;
    if (code !== 0) throw new Error(`exited with code ${code} when stopped`);
    if (!fs.existsSync(path.join(builtDir, 'code-cache.bin'))) throw new Error('wrote no code-cache.bin');
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`recording the code cache: the built server ${error instanceof Error ? error.message : String(error)}\n${output}`);
  } finally {
    process.off('exit', killChild).off('SIGTERM', onSignal).off('SIGINT', onSignal);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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
  const built = path.join(root, 'dist', VENDOR, 'manifest.json');
  if (!fs.existsSync(built)) return 'dist/ is missing';
  const builtAt = fs.statSync(built).mtimeMs;
  const inputs = ['src', 'package.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/code-cache.cjs'].map((p) => path.join(root, p));
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
