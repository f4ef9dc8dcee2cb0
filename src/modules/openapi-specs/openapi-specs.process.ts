import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { atPointer, bundle, contentHash, countNodes, externalRefs, filenameOf, formatOf, levelsAboveEntry, locate, parseSpecText, pointerOf, pointerPerLine, refTarget, SpecParseError, type Filesystem } from '../../content/openapi/filesystem.ts';
import { OutboundError, redactUrl, type OutboundClient } from '../../lib/outbound/index.ts';

/*
 * Loading one version of a spec: fetch the entrypoint through the guarded outbound client
 * (or take the uploaded text), fetch every file its `$ref`s name (relative to the file
 * that names them, through the same client, bounded in count and size), parse each, and
 * validate the whole with @readme/openapi-parser (docs/decisions/openapi-specs.md).
 */

export const MAX_FILES = 50;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 20 * 1024 * 1024;
/** lastProcessedErrors keeps this many; lastProcessedErrorCount says how many there were. */
export const MAX_REPORTED_ERRORS = 20;
/** Values (objects, arrays, scalars) the bundled document may hold: what validation and rendering walk. */
export const MAX_SPEC_NODES = 2_000_000;
/** Validation runs in a worker thread, never on the event loop, within these bounds. */
export const VALIDATION_TIMEOUT_MS = 30_000;
export const VALIDATION_MEMORY_MB = 512;

export type ProcessingErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

export interface LoadedSpec {
  ok: true;
  entry: string;
  raw: string;
  format: 'json' | 'yaml';
  filesystem: Filesystem;
  hash: string;
}

export interface FailedSpec {
  ok: false;
  code: ProcessingErrorCode;
  errors: { message: string; code?: string }[];
  errorCount: number;
}

class LoadFailure extends Error {
  constructor(
    readonly code: ProcessingErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type SpecSource = { url: string } | { text: string };

export async function loadSpec(outbound: OutboundClient, source: SpecSource, options: { timeoutMs: number }): Promise<LoadedSpec | FailedSpec> {
  try {
    return await load(outbound, source, options);
  } catch (error) {
    if (error instanceof LoadFailure) return { ok: false, code: error.code, errors: [{ message: error.message, code: error.code }], errorCount: 1 };
    if (error instanceof SpecParseError) return { ok: false, code: 'PARSE_ERROR', errors: [{ message: error.message, code: 'PARSE_ERROR' }], errorCount: 1 };
    throw error;
  }
}

async function load(outbound: OutboundClient, source: SpecSource, options: { timeoutMs: number }): Promise<LoadedSpec | FailedSpec> {
  let totalBytes = 0;
  const fetchText = async (url: string, name: string): Promise<string> => {
    let response;
    try {
      response = await outbound.fetchBytes(url, {
        maxBytes: Math.min(MAX_FILE_BYTES, MAX_TOTAL_BYTES - totalBytes),
        totalTimeoutMs: options.timeoutMs,
        headers: { accept: 'application/json, application/yaml, text/yaml, */*' },
      });
    } catch (error) {
      if (error instanceof OutboundError) {
        if (error.kind === 'timeout') throw new LoadFailure('FETCH_TIMEOUT', `${name}: the source did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
        throw new LoadFailure('FETCH_ERROR', `${name}: ${error.message}`);
      }
      throw error;
    }
    if (response.status < 200 || response.status >= 300) {
      throw new LoadFailure('FETCH_ERROR', `${name}: the source answered HTTP ${response.status}; check that the URL is right and publicly reachable`);
    }
    totalBytes += response.bytes.length;
    return response.bytes.toString('utf8').replace(/^\uFEFF/, '');
  };

  const entryUrl = 'url' in source ? source.url : undefined;
  const entryText = 'text' in source ? source.text : await fetchText(source.url, 'the source URL');
  const format = formatOf(entryText);
  const entry = entryUrl ? filenameOf(entryUrl, entryUrl) : `openapi.${format}`;
  const filesystem: Filesystem = { [entry]: parseSpecText(entryText, entry) };
  const texts = [{ name: entry, text: entryText }];

  // Breadth-first over the files the `$ref`s name, each resolved against the file naming it.
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const ref of externalRefs(filesystem[file])) {
      const name = refTarget(file, ref);
      if (name in filesystem) continue;
      if (!entryUrl) throw new SpecParseError(file, `the reference "${ref}" names another file, which an uploaded spec cannot reach; upload one self-contained document or give a source URL`);
      if (texts.length >= MAX_FILES) throw new SpecParseError(file, `the spec references more than ${MAX_FILES} files`);
      // "../" may climb within the source's host, never above its root (the URL parser
      // would silently stop there and fetch another file than the one named).
      const folder = new URL('.', entryUrl);
      if (levelsAboveEntry(name) > folder.pathname.split('/').filter(Boolean).length) {
        throw new SpecParseError(file, `the reference "${ref}" climbs above the root of ${folder.origin}; a reference may only name files of the spec's own host`);
      }
      const url = new URL(name, folder).href;
      // A reference carrying a secret would put it in file names and error messages, which are stored.
      if (redactUrl(url) !== url) throw new SpecParseError(file, `the reference to ${redactUrl(url)} carries credentials or a secret parameter; Quire stores file names and fetches them again, so serve the file without one`);
      const text = await fetchText(url, `${file} → "${ref}"`);
      filesystem[name] = parseSpecText(text, name);
      texts.push({ name, text });
      queue.push(name);
    }
  }

  const bundled = bundle(filesystem, entry);
  if (countNodes(bundled, MAX_SPEC_NODES) > MAX_SPEC_NODES) {
    throw new SpecParseError(entry, `the spec holds more than ${MAX_SPEC_NODES.toLocaleString('en')} values once its files are bundled, more than Quire processes`);
  }
  const result = await validateInWorker(withoutNestedSchemaRefs(bundled, entry));
  if ('failed' in result) return { ok: false, code: 'PARSE_ERROR', errors: [{ message: `${entry}: ${result.failed}`, code: 'PARSE_ERROR' }], errorCount: 1 };
  if (!result.valid) {
    const lines = pointerPerLine(bundled);
    const errors = result.errors.map((e) => ({ message: readableError(e.message, lines, entry, entryText), code: 'PARSE_ERROR' }));
    return { ok: false, code: 'PARSE_ERROR', errors: errors.slice(0, MAX_REPORTED_ERRORS), errorCount: errors.length + result.additionalErrors };
  }
  return { ok: true, entry, raw: entryText, format, filesystem, hash: contentHash(texts) };
}

type ValidationResult = { valid: boolean; errors: { message: string }[]; additionalErrors: number } | { failed: string };

/*
 * @readme/openapi-parser dereferences the document before Ajv validates it, and expands
 * every `$ref` at every use: a schema referring twice to the next, 20 levels deep, is a
 * million copies (seconds of CPU, GBs of memory). Two bounds:
 * - The validator reads a copy whose `$ref`s nested inside schemas are left out (and
 *   checked here to point at something): each schema is validated once, where it is
 *   defined. References outside schemas (parameters, responses, bodies, path items) and
 *   a schema that is only a reference are still followed, which the validator's own
 *   rules (path parameters, operation ids) need; none of those nests without end.
 * - The parser runs in a worker thread with a time and heap limit, so whatever it does
 *   never holds the server's event loop. One worker is kept warm between specs.
 * The worker is plain JavaScript evaluated from this string, so it runs the same from
 * the sources (tests) and from the esbuild bundle; the parser is loaded in it only.
 */
const VALIDATION_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { validate } = require(workerData.parser);
parentPort.on('message', (document) => {
  validate(document, { resolve: { external: false }, validate: { errors: { colorize: false } } }).then(
    (r) => parentPort.postMessage({ valid: r.valid, errors: r.valid ? [] : r.errors.map((e) => ({ message: String(e.message) })), additionalErrors: r.additionalErrors || 0 }),
    (e) => parentPort.postMessage({ failed: 'the validator could not read the document: ' + String((e && e.message) || e) }),
  );
});
`;

type SchemaPlace = 'outside' | 'root' | 'inside';

/** A copy of the document for the validator: `$ref`s nested inside a schema left out (above). */
function withoutNestedSchemaRefs(document: unknown, entry: string): unknown {
  const copy = (node: unknown, key: string, place: SchemaPlace): unknown => {
    if (Array.isArray(node)) return node.map((item) => copy(item, key, place === 'outside' ? 'outside' : 'inside'));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(node)) {
      if (k === '$ref' && typeof value === 'string') {
        if (value.startsWith('#') && atPointer(document, value.slice(1)) === undefined) throw new SpecParseError(entry, `the reference "${value}" points at nothing`);
        if (place === 'inside') continue;
      }
      const childPlace: SchemaPlace = place !== 'outside' ? 'inside' : k === 'schema' || key === 'schemas' || key === 'definitions' ? 'root' : 'outside';
      out[k] = copy(value, k, childPlace);
    }
    return out;
  };
  return copy(document, '', 'outside');
}

/** A worker that answered is kept this long for the next spec: loading the parser and compiling its schemas takes a second or more. */
const WORKER_IDLE_MS = 60_000;
let parserPath: string | undefined;
let idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;

function takeWorker(): Worker {
  if (idle) {
    const { worker, timer } = idle;
    idle = undefined;
    clearTimeout(timer);
    return worker;
  }
  parserPath ??= createRequire(import.meta.url).resolve('@readme/openapi-parser');
  const worker = new Worker(VALIDATION_WORKER, { eval: true, workerData: { parser: parserPath }, resourceLimits: { maxOldGenerationSizeMb: VALIDATION_MEMORY_MB } });
  // Never what keeps a process from exiting.
  worker.unref();
  return worker;
}

/** Keeps one answering worker for the next validation; others (two jobs at once) stop. */
function releaseWorker(worker: Worker): void {
  if (idle) return void worker.terminate();
  const timer = setTimeout(() => {
    if (idle?.worker === worker) idle = undefined;
    void worker.terminate();
  }, WORKER_IDLE_MS);
  timer.unref();
  idle = { worker, timer };
}

function validateInWorker(document: unknown): Promise<ValidationResult> {
  const worker = takeWorker();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: ValidationResult, reusable: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (reusable) releaseWorker(worker);
      else void worker.terminate();
      resolve(result);
    };
    const onMessage = (message: ValidationResult) => settle(message, true);
    const onError = (error: NodeJS.ErrnoException) =>
      settle({ failed: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `validating the spec needs more than ${VALIDATION_MEMORY_MB} MB of memory` : `the validator failed: ${error.message}` }, false);
    const onExit = () => settle({ failed: 'the validator stopped before it answered' }, false);
    const timer = setTimeout(() => settle({ failed: `validating the spec took more than ${VALIDATION_TIMEOUT_MS / 1000} s` }, false), VALIDATION_TIMEOUT_MS);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    worker.postMessage(document);
  });
}

/**
 * The validator's message made readable: its first line and hint ("version is missing
 * here!"), placed by JSON pointer and, when the place is in the entrypoint, by line and
 * column of the user's own file (the validator's code frame shows a JSON rendering).
 */
function readableError(message: string, lines: string[][], entry: string, entryText: string): string {
  const [first = '', ...rest] = message.trim().split('\n');
  const what = first.replace(/^[A-Z_]+ /, '');
  const hint = rest.map((l) => /\^\s*(.+)$/.exec(l)?.[1]?.trim()).find(Boolean);
  const lineNumber = rest.map((l) => /^>\s*(\d+)\s*\|/.exec(l.trim())?.[1]).find(Boolean);
  const path = lineNumber ? lines[Number(lineNumber) - 1] : undefined;
  if (!path) return `${entry}: ${what}${hint ? ` (${hint})` : ''}`;
  const at = locate(entryText, path);
  return `${entry}${at ? ` (line ${at.line}, column ${at.column})` : ''} at ${pointerOf(path)}: ${what}${hint ? ` (${hint})` : ''}`;
}
