/*
 * The browser bundle (src/editor/client/main.ts, the block editor, and change-request.ts, the
 * change request page's script; each with its CSS), as hashed static files
 * served at PUBLIC_URL/app/assets/<name>-<hash>.<ext>. Code both entry points use (ProseMirror,
 * the schema and the converter) is split into shared chunks (`chunk-<hash>.js`, esbuild's
 * splitting), so a browser that opened one page has most of the other's script cached; each
 * page preloads its chunks (`modulepreload`), so they load alongside its script. `npm run build` writes them to
 * dist/public/ with a manifest (scripts/build.mjs calls `bundleEditorClient`); under tsx (dev,
 * tests on sources) the first request builds them in memory with esbuild, so both modes serve
 * the same bundle. Each file is kept with its gzip and brotli forms, compressed once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export interface Asset {
  name: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/** Hashed file names of one entry point's script and style sheet. */
export interface EntryAssets {
  script: string;
  style: string;
  /** The shared chunks the script imports, directly or not (each page preloads them). */
  chunks: string[];
}

export interface EditorAssets extends EntryAssets {
  /**
   * Every entry point's files: `editor` (the block editor, also `script`/`style` above) and
   * `change-request` (the change request page's tree dragging and description editor).
   */
  entries: Record<BundleEntry, EntryAssets>;
  files: Map<string, Asset>;
}

/** The browser entry points, each a page's script (with its style sheet). */
const ENTRY_POINTS = { editor: 'src/editor/client/main.ts', 'change-request': 'src/editor/client/change-request.ts' } as const;
export type BundleEntry = keyof typeof ENTRY_POINTS;

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/public when running the build (this file is dist/editor/assets.js). */
const BUILT = path.join(here, '..', 'public');
const MANIFEST = 'editor-manifest.json';

/** esbuild's options for the browser bundle: one place for the build script and dev. */
export function editorBuildOptions(root: string) {
  return {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, file]) => [name, path.join(root, file)])),
    bundle: true,
    format: 'esm' as const,
    platform: 'browser' as const,
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none' as const,
    splitting: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    logLevel: 'silent' as const,
  };
}

function asset(name: string, body: Buffer): Asset {
  return {
    name,
    type: TYPES[path.extname(name)] ?? 'application/octet-stream',
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

/** Builds the bundle; writes it to `outdir` with a manifest when given, and returns it. */
export async function bundleEditorClient(root: string, outdir?: string): Promise<EditorAssets> {
  const { build } = await import('esbuild');
  const out = outdir ?? path.join(root, '.editor-bundle');
  const result = await build({ ...editorBuildOptions(root), outdir: out, write: false, metafile: true });
  const files = new Map<string, Asset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    files.set(name, asset(name, Buffer.from(file.contents)));
  }
  // Which output is whose: the metafile names each script's entry point, its CSS bundle and
  // the chunks it imports (statically: what it needs before it runs).
  const outputs = result.metafile.outputs;
  const chunksOf = (output: string, seen = new Set<string>()): Set<string> => {
    for (const imported of outputs[output]?.imports ?? []) {
      if (imported.kind !== 'import-statement' || imported.external || seen.has(imported.path)) continue;
      seen.add(imported.path);
      chunksOf(imported.path, seen);
    }
    return seen;
  };
  const entries: Partial<Record<BundleEntry, EntryAssets>> = {};
  for (const [output, meta] of Object.entries(outputs)) {
    const entry = (Object.keys(ENTRY_POINTS) as BundleEntry[]).find((name) => meta.entryPoint && path.resolve(root, meta.entryPoint) === path.join(root, ENTRY_POINTS[name]));
    if (!entry || !output.endsWith('.js')) continue;
    if (!meta.cssBundle) throw new Error(`the ${entry} bundle has no style sheet`);
    entries[entry] = { script: path.basename(output), style: path.basename(meta.cssBundle), chunks: [...chunksOf(output)].map((chunk) => path.basename(chunk)).sort() };
  }
  for (const name of Object.keys(ENTRY_POINTS) as BundleEntry[]) if (!entries[name]) throw new Error(`the browser bundle has no ${name} script`);
  const complete = entries as Record<BundleEntry, EntryAssets>;
  if (outdir) {
    fs.mkdirSync(outdir, { recursive: true });
    for (const file of files.values()) fs.writeFileSync(path.join(outdir, file.name), file.body);
    fs.writeFileSync(path.join(outdir, MANIFEST), `${JSON.stringify({ entries: complete }, null, 2)}\n`);
  }
  return { ...complete.editor, entries: complete, files };
}

function readBuilt(): EditorAssets | null {
  const manifestFile = path.join(BUILT, MANIFEST);
  if (!fs.existsSync(manifestFile)) return null;
  const { entries } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { entries: Record<BundleEntry, EntryAssets> };
  const files = new Map<string, Asset>();
  for (const { script, style, chunks } of Object.values(entries)) {
    for (const name of [script, style, ...chunks]) if (!files.has(name)) files.set(name, asset(name, fs.readFileSync(path.join(BUILT, name))));
  }
  return { ...entries.editor, entries, files };
}

let loading: Promise<EditorAssets> | null = null;

/** The bundle: the build's files, or (under tsx) built in memory on first use. */
export function editorAssets(): Promise<EditorAssets> {
  loading ??= Promise.resolve()
    .then(() => readBuilt() ?? bundleEditorClient(path.join(here, '..', '..')))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}
