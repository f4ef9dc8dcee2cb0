import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';

const root = import.meta.dirname;
const dist = path.join(root, 'dist');
const src = path.join(root, 'src');

/**
 * QUIRE_TEST_TARGET=dist runs the suite against the built server (`npm run build` first):
 * every import of a server source file (src/**.ts, tests aside) is answered with its
 * compiled twin in dist/, and bare imports of pre-bundled packages with dist/vendor/, so
 * tests and the server share one copy of each module. dist/ is not transformed by vitest:
 * Node loads it, and its dependencies, exactly as `npm start` does (docs/decisions/build.md).
 */
function againstBuild(): Plugin {
  const manifestFile = path.join(dist, 'vendor', 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error('QUIRE_TEST_TARGET=dist: dist/ is not built (npm run build)');
  const vendored: Record<string, string> = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  return {
    name: 'quire-against-build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer.startsWith(dist)) return null;
      if (vendored[source]) return path.join(dist, 'vendor', vendored[source]);
      if (!source.startsWith('.') && !source.startsWith('/')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      const file = resolved?.id.split('?')[0];
      if (!file || !file.startsWith(src + path.sep) || !file.endsWith('.ts') || file.endsWith('.test.ts')) return resolved;
      const twin = path.join(dist, path.relative(src, file)).replace(/\.ts$/, '.js');
      if (!fs.existsSync(twin)) throw new Error(`${twin} is missing: dist/ is older than src/ (npm run build)`);
      return { id: twin, external: true };
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
