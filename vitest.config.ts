import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const root = import.meta.dirname;
const dist = path.join(root, 'dist');
const src = path.join(root, 'src');

/**
 * The names a CommonJS file of dist/ exports: esbuild ends each one with
 * `0 && (module.exports = { a, b, ...require("./c.js") })` for Node's cjs-module-lexer.
 */
function exportNames(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const annotation = /0 && \(module\.exports = \{([^}]*)\}\);/.exec(fs.readFileSync(file, 'utf8'));
  if (!annotation) return [];
  return annotation[1].split(',').flatMap((part) => {
    const name = part.trim();
    const reexport = /^\.\.\.require\("(.+)"\)$/.exec(name);
    if (reexport) return exportNames(path.resolve(path.dirname(file), reexport[1]), seen);
    return /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default' ? [name] : [];
  });
}

const TWIN = '\0quire-dist:';
const browserCode = path.join(root, 'src', 'editor', 'client') + path.sep;

/**
 * QUIRE_TEST_TARGET=dist runs the suite against the built server (`npm run build` first):
 * every import of a server source file (src/**.ts, tests aside) is answered with its
 * compiled twin in dist/, and bare imports of pre-bundled packages with dist/vendor/, so
 * tests and the server share one copy of each module. dist/ is CommonJS, loaded by Node's
 * own require exactly as `npm start` does (docs/decisions/build.md): a test's import of a
 * twin is a small module that requires it, so the test gets the instance the server's
 * other files get (vitest importing the file itself made a second instance).
 */
function againstBuild(): Plugin {
  const manifestFile = path.join(dist, 'vendor', 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error('QUIRE_TEST_TARGET=dist: dist/ is not built (npm run build)');
  const vendored: Record<string, string> = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return {
    name: 'quire-against-build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(dist) || importer.startsWith(TWIN)) return null;
      if (vendored[source]) return `${TWIN}${path.join(dist, 'vendor', vendored[source])}`;
      if (!source.startsWith('.') && !source.startsWith('/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved?.id.split('?')[0];
      if (!file || !file.startsWith(src + path.sep) || !file.endsWith('.ts') || file.endsWith('.test.ts')) return resolved;
      // The browser's code (src/editor/client/) has no twin: the build bundles it for the browser, not into dist/.
      if (file.startsWith(browserCode)) return resolved;
      const twin = path.join(dist, path.relative(src, file)).replace(/\.ts$/, '.js');
      if (!fs.existsSync(twin)) throw new Error(`${twin} is missing: dist/ is older than src/ (npm run build)`);
      return `${TWIN}${twin}`;
    },
    load(id) {
      if (!id.startsWith(TWIN)) return null;
      const file = id.slice(TWIN.length);
      const names = [...new Set(exportNames(file))];
      return [
        `import { createRequire } from 'node:module';`,
        `const loaded = createRequire(${JSON.stringify(file)})(${JSON.stringify(file)});`,
        `export default loaded;`,
        names.length ? `export const { ${names.join(', ')} } = loaded;` : '',
      ].join('\n');
    },
  };
}

const targetBuild = process.env.QUIRE_TEST_TARGET === 'dist';

export default defineConfig({
  plugins: targetBuild ? [againstBuild()] : [],
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Every suite gets its own database (SQLite file or PostgreSQL schema), so files run in parallel.
    fileParallelism: true,
  },
});
