import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS dependency loaded the first time it is used, not when the server starts.
 * For packages a request may never need (pg on SQLite, YAML, sanitize-html, prom-client,
 * xmldom): each one loaded at start is paid by every `npm start` before its first answer
 * (docs/performance.md, "Start"). Only for CommonJS packages, which Node loads the same
 * way under tsx, vitest and the build (docs/decisions/build.md).
 */
export function loadOnUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
