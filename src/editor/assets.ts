/*
 * The editor's browser bundle (src/editor/client/main.ts and its CSS), as hashed static files
 * served at PUBLIC_URL/app/assets/<name>-<hash>.<ext>. `npm run build` writes them to
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

export interface EditorAssets {
  /** Hashed file names of the entry's script and style sheet. */
  script: string;
  style: string;
  files: Map<string, Asset>;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/public when running the build (this file is dist/editor/assets.js). */
const BUILT = path.join(here, '..', 'public');
const MANIFEST = 'editor-manifest.json';

/** esbuild's options for the browser bundle: one place for the build script and dev. */
export function editorBuildOptions(root: string) {
  return {
    absWorkingDir: root,
    entryPoints: { editor: path.join(root, 'src/editor/client/main.ts') },
    bundle: true,
    format: 'esm' as const,
    platform: 'browser' as const,
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none' as const,
    entryNames: '[name]-[hash]',
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
  const result = await build({ ...editorBuildOptions(root), outdir: outdir ?? path.join(root, '.editor-bundle'), write: false, metafile: true });
  const files = new Map<string, Asset>();
  let script = '';
  let style = '';
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    files.set(name, asset(name, Buffer.from(file.contents)));
    if (name.endsWith('.js')) script = name;
    if (name.endsWith('.css')) style = name;
  }
  if (!script || !style) throw new Error('the editor bundle has no script or no style sheet');
  if (outdir) {
    fs.mkdirSync(outdir, { recursive: true });
    for (const file of files.values()) fs.writeFileSync(path.join(outdir, file.name), file.body);
    fs.writeFileSync(path.join(outdir, MANIFEST), `${JSON.stringify({ script, style }, null, 2)}\n`);
  }
  return { script, style, files };
}

function readBuilt(): EditorAssets | null {
  const manifestFile = path.join(BUILT, MANIFEST);
  if (!fs.existsSync(manifestFile)) return null;
  const { script, style } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { script: string; style: string };
  const files = new Map<string, Asset>();
  for (const name of [script, style]) files.set(name, asset(name, fs.readFileSync(path.join(BUILT, name))));
  return { script, style, files };
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
