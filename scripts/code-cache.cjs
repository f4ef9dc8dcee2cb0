'use strict';
/*
 * V8 code cache for the built server on Node 20, which has no module.enableCompileCache
 * (Node 22.1). Compiling our ~400 CommonJS files and the packages they require is about a
 * fifth of a start's CPU (docs/performance.md, "Start: V8 code cache"). `npm run build`
 * starts the built server once with this hook recording, answers one /healthz and writes
 * every compiled script's cache (bytecode of the functions that ran, not only the top
 * level) into dist/code-cache.bin; `npm start` (scripts/start.mjs) installs the hook
 * reading it.
 *
 * Where: beside the code it caches, in dist/, written by whoever builds dist/. Not in a
 * shared temporary folder: code cache is code, and a file another local user could write
 * would be code run as the server.
 *
 * Why by hand rather than the v8-compile-cache package: it compiles every file with
 * vm.Script and no importModuleDynamically, so every `import()` in a cached file (our
 * lazily loaded S3 store, shiki's languages, SAML) throws; it caches only the top-level
 * code (produceCachedData at compile time); and it keeps its cache in the shared
 * temporary folder.
 *
 * Same behaviour as Node's loader: the module wrapper and the require function
 * (lib/internal/modules/helpers.js makeRequireFunction). Left to Node's own compilation:
 * files that may call import() (DYNAMIC_IMPORT below), a file whose content differs from
 * the one cached (sha1), and every file when V8 refuses the cache (another V8 version or
 * other V8 flags: V8 checks).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const FILE = 'code-cache.bin';
/** Bump when the file's layout changes. */
const LAYOUT = 1;
/**
 * A file that may call import() is left to Node. On Node 20 a script compiled from a code
 * cache loses the host-defined options that route its import() to Node's loader, and
 * import() throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. A match in a comment or string
 * only costs that file its cache.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/;
const WRAPPER_OPENING = Module.wrap('\0').indexOf('\0');

/**
 * What a cache is valid for beyond its files' content. V8 also checks its own version and
 * flags. The folder is part of it because Node 20's V8 keeps the file name a script was
 * recorded under (stack traces would name the old place if dist/ moved).
 */
function runtime(cacheDir) {
  return { layout: LAYOUT, node: process.version, v8: process.versions.v8, arch: process.arch, dir: cacheDir };
}

const sha1 = (content) => crypto.createHash('sha1').update(content).digest('base64');

/**
 * Reads a cache file: [4 bytes: length of the JSON index][index][cached data...]. The
 * index is { runtime, entries: { key: [sha1, offset, length] } }. Undefined when missing,
 * unreadable or made by another runtime.
 */
function readCache(cacheDir, file) {
  let buffer;
  try {
    buffer = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  try {
    const indexLength = buffer.readUInt32LE(0);
    const index = JSON.parse(buffer.toString('utf8', 4, 4 + indexLength));
    if (JSON.stringify(index.runtime) !== JSON.stringify(runtime(cacheDir))) return undefined;
    const data = buffer.subarray(4 + indexLength);
    return { entries: new Map(Object.entries(index.entries)), data };
  } catch {
    return undefined;
  }
}

/** Writes a cache file from [key, sha1, Buffer] entries, in one rename. */
function writeCache(cacheDir, file, entries) {
  const index = { runtime: runtime(cacheDir), entries: {} };
  let offset = 0;
  for (const [key, hash, data] of entries) {
    index.entries[key] = [hash, offset, data.length];
    offset += data.length;
  }
  const json = Buffer.from(JSON.stringify(index));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(json.length, 0);
  const temporary = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temporary, Buffer.concat([head, json, ...entries.map((entry) => entry[2])]));
  fs.renameSync(temporary, file);
}

/** Node's require function for a module (lib/internal/modules/helpers.js, makeRequireFunction). */
function makeRequireFunction(mod) {
  const require = function require(id) {
    return mod.require(id);
  };
  function resolve(request, options) {
    if (typeof request !== 'string') throw new TypeError(`The "request" argument must be of type string. Received ${typeof request}`);
    return Module._resolveFilename(request, mod, false, options);
  }
  require.resolve = resolve;
  resolve.paths = function paths(request) {
    if (typeof request !== 'string') throw new TypeError(`The "request" argument must be of type string. Received ${typeof request}`);
    return Module._resolveLookupPaths(request, mod);
  };
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/**
 * Installs the hook for CommonJS files under `root` (the project: dist/ and
 * node_modules/). `cacheDir` holds code-cache.bin. With `record`, every script compiled
 * is kept and the cache is written when the process exits (the build's warm-up run).
 * Returns counters for tests and measurements.
 */
function install(root, { cacheDir = path.join(root, 'dist'), record = false } = {}) {
  const file = path.join(cacheDir, FILE);
  let cache = record ? undefined : readCache(cacheDir, file);
  const stats = { hits: 0, misses: 0, rejected: 0 };
  if (!cache && !record) return stats;
  const recorded = [];
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  const originalCompile = Module.prototype._compile;

  Module.prototype._compile = function compileWithCodeCache(content, filename, format) {
    // Files left to Node: ES modules, files outside the project, files that may call
    // import() (above), and a hashbang line, which is valid only at a script's very start.
    if (format === 'module' || !filename.startsWith(prefix) || filename.endsWith('.mjs') || content.startsWith('#!') || DYNAMIC_IMPORT.test(content)) {
      return originalCompile.call(this, content, filename, format);
    }
    const key = path.relative(cacheDir, filename);
    const hash = sha1(content);
    const entry = cache?.entries.get(key);
    const cachedData = entry && entry[0] === hash ? cache.data.subarray(entry[1], entry[1] + entry[2]) : undefined;
    // Each entry serves once (Node compiles a file once); when all have, the file's bytes
    // (about 5 MB) are let go rather than kept for the life of the server.
    if (entry) {
      cache.entries.delete(key);
      if (cache.entries.size === 0) cache = undefined;
    }
    if (!cachedData) stats.misses++;
    // Nothing cached for this file (or it changed): Node compiles it, unless recording.
    if (!cachedData && !record) return originalCompile.call(this, content, filename, format);
    // The column offset takes the wrapper's opening off the first line's columns, so stack
    // traces point where Node's own compilation would.
    const script = new vm.Script(Module.wrap(content), { filename, cachedData, columnOffset: -WRAPPER_OPENING });
    if (cachedData) {
      if (script.cachedDataRejected) stats.rejected++;
      else stats.hits++;
    }
    if (record) recorded.push([key, hash, script]);
    const compiledWrapper = script.runInThisContext({ displayErrors: true });
    const dirname = path.dirname(filename);
    return Reflect.apply(compiledWrapper, this.exports, [this.exports, makeRequireFunction(this), this, filename, dirname]);
  };

  if (record) {
    process.on('exit', () => {
      writeCache(
        cacheDir,
        file,
        recorded.map(([key, hash, script]) => [key, hash, script.createCachedData()]),
      );
    });
  }
  return stats;
}

module.exports = { install, FILE };

// `node --require scripts/code-cache.cjs dist/server.js` with QUIRE_CODE_CACHE_RECORD set
// to the built folder: the build's warm-up run (scripts/build.mjs).
if (require.main !== module && process.env.QUIRE_CODE_CACHE_RECORD) {
  const cacheDir = path.resolve(process.env.QUIRE_CODE_CACHE_RECORD);
  delete process.env.QUIRE_CODE_CACHE_RECORD; // not for the processes the server starts
  install(path.resolve(__dirname, '..'), { cacheDir, record: true });
}
