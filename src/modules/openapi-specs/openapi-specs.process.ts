import { bundle, contentHash, externalRefs, filenameOf, formatOf, locate, parseSpecText, pointerOf, pointerPerLine, refTarget, SpecParseError, type Filesystem } from '../../content/openapi/filesystem.ts';
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
      const url = new URL(name, new URL('.', entryUrl)).href;
      // A reference carrying a secret would put it in file names and error messages, which are stored.
      if (redactUrl(url) !== url) throw new SpecParseError(file, `the reference to ${redactUrl(url)} carries credentials or a secret parameter; Quire stores file names and fetches them again, so serve the file without one`);
      const text = await fetchText(url, `${file} → "${ref}"`);
      filesystem[name] = parseSpecText(text, name);
      texts.push({ name, text });
      queue.push(name);
    }
  }

  const bundled = bundle(filesystem, entry);
  // Loaded on first use: the parser and its schema validator are a few MB a web process
  // that never processes a spec need not hold (idle RSS, bench startup).
  const { validate } = await import('@readme/openapi-parser');
  const result = await validate(structuredClone(bundled) as any, { resolve: { external: false }, validate: { errors: { colorize: false } } });
  if (!result.valid) {
    const lines = pointerPerLine(bundled);
    const errors = result.errors.map((e) => ({ message: readableError(e.message, lines, entry, entryText), code: 'PARSE_ERROR' }));
    return { ok: false, code: 'PARSE_ERROR', errors: errors.slice(0, MAX_REPORTED_ERRORS), errorCount: errors.length + (result.additionalErrors ?? 0) };
  }
  return { ok: true, entry, raw: entryText, format, filesystem, hash: contentHash(texts) };
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
