import { createHash } from 'node:crypto';
import { LineCounter, parseDocument as parseYamlDocument } from 'yaml';

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

/** Parses a file's text; YAML is a superset of JSON, so one parser reads both. */
export function parseSpecText(text: string, filename: string): unknown {
  const doc = parseYamlDocument(text, { uniqueKeys: false, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw new SpecParseError(filename, error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), at?.line, at?.col);
  }
  const value = doc.toJS({ maxAliasCount: 1000 });
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

/** The virtual folder filenames are relative to; absolute URLs stay themselves. */
const ROOT = 'https://spec.quire.invalid/root/';

/** The filename a `$ref`'s file part names, seen from `fromFile`. */
export function refTarget(fromFile: string, refFile: string): string {
  const absolute = new URL(refFile, new URL(fromFile, ROOT)).href;
  return absolute.startsWith(ROOT) ? decodeURI(absolute.slice(ROOT.length)) : absolute;
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

/**
 * One document with every reference to another file inlined (references inside the
 * entrypoint stay `#/...`), which is what the validator and the renderer read. A cycle
 * through files is cut with an empty schema describing it.
 */
export function bundle(filesystem: Filesystem, entry: string): unknown {
  const inline = (node: unknown, file: string, stack: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, file, stack));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string') {
      const [refFile = '', pointer = ''] = ref.split('#');
      if (file === entry && refFile === '') return node;
      const target = refFile ? refTarget(file, refFile) : file;
      if (target === entry) return { ...(node as object), $ref: `#${pointer}` };
      const key = `${target}#${pointer}`;
      if (stack.includes(key)) return { description: `(circular reference to ${key})` };
      const value = atPointer(filesystem[target], pointer);
      if (value === undefined) throw new SpecParseError(file, `the reference "${ref}" points at nothing (${key})`);
      return inline(value, target, [...stack, key]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v, file, stack)]));
  };
  return inline(filesystem[entry], entry, []);
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
  const lineCounter = new LineCounter();
  const doc = parseYamlDocument(text, { lineCounter, uniqueKeys: false });
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
