import { createHash } from 'node:crypto';
import { loadOnUse } from '../../lib/load-on-use.ts';

/** YAML is parsed only by some requests: loaded on first use (lib/load-on-use.ts). */
const yaml = loadOnUse<typeof import('yaml')>('yaml');

/*
 * An OpenAPI spec's files, free of HTTP: parsing one file's text (YAML or JSON), finding
 * the other files it references, resolving `$ref`s across files, and the content hash
 * that decides whether a fetch made a new version (docs/decisions/openapi-specs.md).
 *
 * A filesystem is `{ [filename]: parsed document }`; the entrypoint is named first. Names
 * are paths relative to the entrypoint's folder ("schemas/pet.yaml"), or absolute URLs
 * for files outside it.
 */

export type Filesystem = Record<string, unknown>;

/** A file that is neither JSON nor YAML, or not an object; `line`/`column` are 1-based. */
export class SpecParseError extends Error {
  constructor(
    readonly filename: string,
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${filename}${line ? ` (line ${line}${column ? `, column ${column}` : ''})` : ''}: ${message}`);
    this.name = 'SpecParseError';
  }
}

export function formatOf(text: string): 'json' | 'yaml' {
  return /^\s*[{[]/.test(text) ? 'json' : 'yaml';
}

/** How many alias expansions one YAML file may make (yaml's own count, which multiplies nested aliases). */
export const MAX_YAML_ALIASES = 1000;

/** Parses a file's text; YAML is a superset of JSON, so one parser reads both. */
export function parseSpecText(text: string, filename: string): unknown {
  const doc = yaml().parseDocument(text, { uniqueKeys: false, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw new SpecParseError(filename, error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), at?.line, at?.col);
  }
  let value: unknown;
  try {
    // Aliases are budgeted: a "billion laughs" document (aliases of aliases) is refused
    // with yaml's ReferenceError instead of growing without end; it is the spec's fault.
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ReferenceError) throw new SpecParseError(filename, `the document's YAML aliases expand too much (more than ${MAX_YAML_ALIASES} alias uses); write the values out or use $ref`);
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SpecParseError(filename, 'the document is not an object (an OpenAPI document starts with "openapi:" or "swagger:")');
  }
  return value;
}

/** Every distinct `$ref` of a document that points into another file (the part before `#`). */
export function externalRefs(document: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const file = value.split('#')[0]!;
        if (file) found.add(file);
      } else walk(value);
    }
  };
  walk(document);
  return [...found];
}

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The filename a `$ref`'s file part names, seen from `fromFile`. Relative names are joined
 * as paths: ".." segments that climb above the entrypoint's folder stay as leading "../"
 * (loadSpec resolves them against the real source URL, and refuses them above its root),
 * never against a made-up host. Absolute URLs stay URLs. A root-relative reference
 * ("/schemas/x.yaml") is refused: the filesystem a version stores names files relative
 * to the entrypoint, and the entrypoint's own place on its host is not part of it.
 */
export function refTarget(fromFile: string, refFile: string): string {
  if (ABSOLUTE_URL.test(refFile)) return new URL(refFile).href;
  if (ABSOLUTE_URL.test(fromFile)) {
    // The URL parser would stop silently at the host's root and name another file.
    if (!/^[/\\]/.test(refFile) && levelsAboveEntry(joinPath(new URL(fromFile).pathname.slice(1), refFile)) > 0) {
      throw new SpecParseError(fromFile, `the reference "${refFile}" climbs above the root of ${new URL(fromFile).origin}`);
    }
    return new URL(refFile, fromFile).href;
  }
  if (/^[/\\]/.test(refFile)) {
    throw new SpecParseError(fromFile, `the reference "${refFile}" starts at the root of a host; write it relative to the file that names it (for example "../${refFile.replace(/^[/\\]+/, '')}")`);
  }
  return joinPath(fromFile, refFile);
}

/** `refFile` seen from the folder of `fromFile`, as a normalized path; ".." above it stays leading. */
function joinPath(fromFile: string, refFile: string): string {
  const out: string[] = [];
  for (const segment of [...fromFile.split('/').slice(0, -1), ...safeDecodeURI(refFile).split(/[/\\]/)]) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  return out.join('/');
}

/** How many leading "../" a filename has: how far above the entrypoint's folder it is. */
export function levelsAboveEntry(filename: string): number {
  let levels = 0;
  while (filename.startsWith('../', levels * 3)) levels++;
  return levels;
}

function safeDecodeURI(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}

/** A fetched file's name, from its URL and the entrypoint's URL. */
export function filenameOf(url: string, entryUrl: string): string {
  const folder = new URL('.', entryUrl).href;
  return url.startsWith(folder) ? decodeURI(new URL(url).pathname.slice(new URL(folder).pathname.length)) || 'openapi' : url;
}

/** The value a JSON pointer (`/a/b~1c`) designates in a document, or undefined. */
export function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return document;
  let node: any = document;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** One key of a JSON pointer, escaped (RFC 6901, then percent-encoded as in a URI fragment). */
const pointerKey = (key: string) => encodeURIComponent(key.replace(/~/g, '~0').replace(/\//g, '~1'));

/**
 * One document with every reference to another file inlined (references inside the
 * entrypoint stay `#/...`), which is what the validator and the renderer read. Each
 * other-file target is inlined once, where it is first met; every later reference to it
 * (a cycle included) becomes a `#/...` reference to that place. Inlining at every use
 * would grow exponentially: a 2 KB spec whose files each refer twice to the next one
 * expands to millions of nodes.
 */
export function bundle(filesystem: Filesystem, entry: string): unknown {
  const placed = new Map<string, string>();
  const inline = (node: unknown, file: string, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => inline(item, file, `${at}/${i}`));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string') {
      const [refFile = '', pointer = ''] = ref.split('#');
      if (file === entry && refFile === '') return node;
      const target = refFile ? refTarget(file, refFile) : file;
      if (target === entry) return { ...(node as object), $ref: `#${pointer}` };
      const key = `${target}#${pointer}`;
      const first = placed.get(key);
      if (first !== undefined) return { $ref: `#${first}` };
      const value = atPointer(filesystem[target], pointer);
      if (value === undefined) throw new SpecParseError(file, `the reference "${ref}" points at nothing (${key})`);
      placed.set(key, at);
      return inline(value, target, at);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, file, `${at}/${pointerKey(k)}`)]));
  };
  return inline(filesystem[entry], entry, '');
}

/** How many values (objects, arrays, scalars) a document holds, counting up to `limit` + 1. */
export function countNodes(value: unknown, limit: number): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop();
    count++;
    if (node && typeof node === 'object') for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  return count;
}

/** sha256 over every file's name and text, in name order. */
export function contentHash(files: { name: string; text: string }[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    hash.update(file.name).update('\u0000').update(file.text).update('\u0000');
  }
  return hash.digest('hex');
}

/**
 * The JSON pointer of each line of `JSON.stringify(value, null, 2)` (index 0 = line 1):
 * the validator's messages point at lines of that text, readers want a place in their file.
 */
export function pointerPerLine(value: unknown): string[][] {
  const lines: string[][] = [];
  const walk = (node: unknown, path: string[]) => {
    if (node === null || typeof node !== 'object') return void lines.push(path);
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node).filter(([, v]) => v !== undefined && typeof v !== 'function');
    if (entries.length === 0) return void lines.push(path);
    lines.push(path);
    for (const [key, child] of entries) walk(child, [...path, key]);
    lines.push(path);
  };
  walk(value, []);
  return lines;
}

/** Where (1-based line and column) a path of keys is in a YAML or JSON text, if it is there. */
export function locate(text: string, path: string[]): { line: number; column: number } | undefined {
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { lineCounter, uniqueKeys: false });
  const keys = path.map((k) => (/^\d+$/.test(k) ? Number(k) : k));
  for (let n = keys.length; n >= 0; n--) {
    const node = doc.getIn(keys.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) {
      const pos = lineCounter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return undefined;
}

/** `/a/b~1c` from keys. */
export const pointerOf = (path: string[]) => (path.length === 0 ? '/' : `/${path.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`);
