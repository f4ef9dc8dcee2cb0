import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * scripts/code-cache.cjs, the V8 code cache of `npm start` (docs/decisions/build.md): a
 * project of a few CommonJS files in a temporary folder, run once recording and then
 * reading the cache, in child processes as `npm start` runs. What a module sees must be
 * what Node's own loader gives it, cache or not.
 */
const HOOK = path.resolve(import.meta.dirname, '..', 'scripts', 'code-cache.cjs');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-code-cache-'));
const dist = path.join(root, 'dist');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function write(file: string, content: string) {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

write('node_modules/dep/package.json', '{ "name": "dep", "main": "index.js" }');
write('node_modules/dep/index.js', 'module.exports = { answer: () => 42 };');
write('node_modules/esm-dep/package.json', '{ "name": "esm-dep", "type": "module", "exports": "./index.js" }');
write('node_modules/esm-dep/index.js', 'export const kind = "esm";');
write('dist/lazy.js', 'exports.loaded = true;');
// A hashbang is valid only at a script's very start: this file is left to Node.
write('dist/hashbang.js', '#!/usr/bin/env node\nexports.ok = true;');
write('dist/fails.js', "exports.stackLine = function where() { return new Error('boom').stack.split('\\n')[1].trim(); };");
write(
  'dist/main.js',
  `const dep = require('dep');
module.exports = async function report() {
  return {
    answer: dep.answer(),
    filename: __filename,
    dirname: __dirname,
    resolved: require.resolve('dep'),
    paths: require.resolve.paths('dep')[0],
    cacheIsNodes: require.cache === require('node:module')._cache,
    sameExports: require('./lazy.js') === require(require.resolve('./lazy.js')),
    moduleFilename: module.filename,
    relativeImport: (await import('./lazy.js')).default.loaded,
    bareImport: (await import('esm-dep')).kind,
    stack: require('./fails.js').stackLine(),
    hashbang: require('./hashbang.js').ok,
  };
};`,
);
// The entry: installs the hook as scripts/start.mjs does, then loads dist/main.js.
write(
  'start.cjs',
  `const mode = process.argv[2];
const stats = mode === 'plain' ? null : require(${JSON.stringify(HOOK)}).install(${JSON.stringify(root)}, { record: mode === 'record' });
require('./dist/main.js')().then((report) => process.stdout.write(JSON.stringify({ report, stats })));`,
);

function run(mode: 'plain' | 'record' | 'read', flags: string[] = []) {
  const out = execFileSync(process.execPath, [...flags, path.join(root, 'start.cjs'), mode], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out) as { report: Record<string, unknown>; stats: { hits: number; misses: number; rejected: number } | null };
}

describe('code cache of the built server (scripts/code-cache.cjs)', () => {
  it('records, then starts from the cache, and modules see what Node gives them without it', () => {
    const plain = run('plain');
    const recorded = run('record');
    expect(fs.existsSync(path.join(dist, 'code-cache.bin'))).toBe(true);
    const cached = run('read');
    expect(plain.report.answer).toBe(42);
    expect(plain.report.relativeImport).toBe(true);
    expect(plain.report.bareImport).toBe('esm');
    expect(plain.report.hashbang).toBe(true);
    expect(recorded.report).toEqual(plain.report);
    expect(cached.report).toEqual(plain.report);
    // lazy.js, fails.js and dep/index.js come from the cache; main.js calls import(),
    // hashbang.js starts with one and esm-dep is an ES module: those are compiled by Node.
    expect(cached.stats).toEqual({ hits: 3, misses: 0, rejected: 0 });
    // The stack names the file where it is, from the cache as without it.
    expect(cached.report.stack).toBe(`at Object.where [as stackLine] (${path.join(dist, 'fails.js')}:1:47)`);
  });

  it('compiles a file whose content changed as usual, and the others still from the cache', () => {
    run('record');
    write('dist/lazy.js', 'exports.loaded = true; // changed');
    const cached = run('read');
    expect(cached.report.relativeImport).toBe(true);
    expect(cached.stats).toEqual({ hits: 2, misses: 1, rejected: 0 });
  });

  it('falls back to compiling when V8 refuses the cache (other V8 flags)', () => {
    run('record');
    const cached = run('read', ['--max-semi-space-size=32']);
    expect(cached.report.answer).toBe(42);
    expect(cached.stats).toEqual({ hits: 0, misses: 0, rejected: 3 });
  });

  it('ignores a cache recorded for another folder, and an unreadable one', () => {
    run('record');
    const moved = `${root}-moved`;
    fs.cpSync(root, moved, { recursive: true });
    try {
      const out = execFileSync(process.execPath, ['-e', `const s = require(${JSON.stringify(HOOK)}).install(${JSON.stringify(moved)}); require(${JSON.stringify(path.join(moved, 'dist', 'main.js'))}); console.log(JSON.stringify(s))`], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual({ hits: 0, misses: 0, rejected: 0 });
    } finally {
      fs.rmSync(moved, { recursive: true, force: true });
    }
    fs.writeFileSync(path.join(dist, 'code-cache.bin'), 'not a cache');
    expect(run('read').stats).toEqual({ hits: 0, misses: 0, rejected: 0 });
  });
});
