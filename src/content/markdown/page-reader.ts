/*
 * Reading a page's markdown costs CPU in proportion to its size and, on hostile input, to
 * its shape (remark, then aligning the page with its canonical writing: up to ~40 µs a
 * byte), and a change request may carry 1 MB of markdown a page, 10 MB a request. Read on
 * the thread that answers requests, one tenant's page would hold every other tenant's
 * requests for minutes. So a reading (one request's pages, one imported page):
 * - reads up to `inlineBytes` of markdown where it is (a page edit: milliseconds; a thread
 *   hop would cost more), and no more;
 * - reads the rest in a pool of worker threads (piscina), off the event loop;
 * - has a time budget, counted while a thread works on it (not while it waits for one):
 *   past it the thread is stopped and the reading fails with MarkdownTooCostly (413);
 * - finds the pool's queue full: ReaderBusy (503), rather than a queue without bound.
 */
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import { DomainError } from '../../lib/domain-errors.ts';
import { loadOnUse } from '../../lib/load-on-use.ts';
import type { PageMarkdown } from './page.ts';
import { readOfKind, type ReadTask } from './read-thread.ts';
import type { Document } from './types.ts';

/** Markdown that costs more to read than the reading's budget allows (a 413). */
export class MarkdownTooCostly extends DomainError {
  readonly kind = 'too-large';
}

/** Every reading thread is busy and the queue is full (a 503): try again. */
export class ReaderBusy extends DomainError {
  readonly kind = 'unavailable';
}

export interface MarkdownReaderOptions {
  /** Threads; they start with the first reading that needs one, and stay. */
  threads: number;
  /** Thread time one reading may use, in ms. */
  budgetMs: number;
  /** Bytes of markdown one reading may read on the calling thread. */
  inlineBytes: number;
  /** Readings that may wait for a thread, at most (default 32 a thread). */
  queue?: number;
}

/** One reading's pages, under one budget: a request's batch, or one page of an import. */
export interface MarkdownReading {
  /** A page's markdown (page.ts); `where` names the input in errors (`body/changes/0/document/markdown`). */
  page(markdown: string, where: string): Promise<PageMarkdown>;
  /** Other markdown (a description, a paste), read in canonical form (parse.ts markdownToDocument). */
  document(markdown: string, where: string): Promise<Document>;
}

export interface MarkdownReader {
  /**
   * A new reading; `inline: false` (jobs) never reads on the calling thread. `tenant` (the
   * organization whose content it is) may have at most one reading a thread on or waiting for
   * the threads: one tenant's costly pages never fill the queue others wait in.
   */
  begin(options?: { inline?: boolean; tenant?: string }): MarkdownReading;
  close(): Promise<void>;
}

/** The pool is loaded with the first page too big to read inline (lib/load-on-use.ts). */
const piscina = loadOnUse<typeof import('piscina')>('piscina');

const THREAD_MEMORY_MB = 512;
/** Readings waiting for a thread, at most, per thread. */
const QUEUE_PER_THREAD = 32;

export function createMarkdownReader(options: MarkdownReaderOptions): MarkdownReader {
  let pool: Piscina | undefined;
  const poolOf = () => (pool ??= startPool(options.threads));
  // Readings on or waiting for a thread. Counted here: piscina's maxQueue does not count tasks
  // given an abort signal, as every reading is.
  let onThreads = 0;
  const mostOnThreads = options.threads + (options.queue ?? options.threads * QUEUE_PER_THREAD);
  const tenantOnThreads = new Map<string, number>();
  // A job's reading (inline: false) waits for room instead of being refused: it has no client to retry it.
  let released: { promise: Promise<void>; resolve: () => void } | undefined;
  const nextRelease = () => {
    if (!released) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      released = { promise, resolve };
    }
    return released.promise;
  };
  /** Why a reading may not go to the threads now, if it may not. */
  const noRoom = (tenant: string | undefined): ReaderBusy | undefined => {
    if (onThreads >= mostOnThreads) return new ReaderBusy('Every markdown reading thread is busy; try again shortly');
    if (tenant !== undefined && (tenantOnThreads.get(tenant) ?? 0) >= options.threads) return new ReaderBusy('This organization\'s markdown is being read on every reading thread; try again shortly');
    return undefined;
  };
  return {
    begin: ({ inline = true, tenant } = {}) => {
      let inlineLeft = inline ? options.inlineBytes : 0;
      let spentMs = 0;
      const read = async (kind: ReadTask['kind'], markdown: string, where: string) => {
        const bytes = Buffer.byteLength(markdown);
        if (bytes <= inlineLeft) {
          inlineLeft -= bytes;
          return readOfKind(kind, markdown);
        }
        inlineLeft = 0;
        const left = options.budgetMs - spentMs;
        const refused = () => new MarkdownTooCostly(`${where}: reading this markdown takes more than the ${options.budgetMs / 1000} s one request may use; split it into smaller pages`);
        if (left <= 0) throw refused();
        for (let busy = noRoom(tenant); busy; busy = noRoom(tenant)) {
          if (inline) throw busy;
          await nextRelease();
        }
        onThreads++;
        if (tenant !== undefined) tenantOnThreads.set(tenant, (tenantOnThreads.get(tenant) ?? 0) + 1);
        const run = await readOnThread(poolOf(), kind, markdown, left).finally(() => {
          onThreads--;
          if (tenant !== undefined) {
            const still = (tenantOnThreads.get(tenant) ?? 1) - 1;
            if (still > 0) tenantOnThreads.set(tenant, still);
            else tenantOnThreads.delete(tenant);
          }
          released?.resolve();
          released = undefined;
        });
        spentMs += run.ms;
        if (run.outcome === 'read') return run.read;
        if (run.outcome === 'out-of-memory') throw new MarkdownTooCostly(`${where}: reading this markdown needs more than ${THREAD_MEMORY_MB} MB of memory; split it into smaller pages`);
        throw refused();
      };
      return {
        page: async (markdown, where) => (await read('page', markdown, where)) as PageMarkdown,
        document: async (markdown, where) => (await read('document', markdown, where)) as Document,
      };
    },
    close: async () => {
      const closing = pool;
      pool = undefined;
      await closing?.destroy();
    },
  };
}

function startPool(threads: number): Piscina {
  // From the sources (tests, `npm run dev`) the thread reads TypeScript through tsx, as
  // this thread does; from the build (`npm start`) it runs the compiled twin beside this file.
  // Otherwise the thread inherits this process's options: given explicitly, the V8 and
  // process-wide ones `npm start` passes (--max-semi-space-size) make every thread fail to start.
  const sources = import.meta.url.endsWith('.ts');
  const inheritsTsx = process.execArgv.some((arg) => arg === 'tsx' || arg.startsWith('tsx/'));
  const execArgv = sources && !inheritsTsx ? ['--import', 'tsx'] : undefined;
  return new (piscina().Piscina)({
    filename: new URL(sources ? './read-thread.ts' : './read-thread.js', import.meta.url).href,
    name: 'read',
    // Every thread is started with the pool (at the first page too big to read inline) and
    // kept: piscina replaces a thread stopped for its budget only up to minThreads, and with
    // fewer a reading queued behind the stopped one would wait for the next reading to come.
    minThreads: threads,
    maxThreads: threads,
    execArgv,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_MEMORY_MB },
  });
}

type ThreadRun = { outcome: 'read'; read: PageMarkdown | Document; ms: number } | { outcome: 'over-budget' | 'out-of-memory'; ms: number };

/** Reads on a pool thread; the budget's clock starts when the thread says it started. */
async function readOnThread(pool: Piscina, kind: ReadTask['kind'], markdown: string, budgetMs: number): Promise<ThreadRun> {
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let startedAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  port1.once('message', () => {
    startedAt = performance.now();
    timer = setTimeout(() => abort.abort(), budgetMs);
  });
  const task: ReadTask = { kind, markdown, started: port2 };
  const spent = () => (startedAt === undefined ? 0 : performance.now() - startedAt);
  try {
    const read = (await pool.run(task, { transferList: [port2], signal: abort.signal })) as PageMarkdown | Document;
    return { outcome: 'read', read, ms: spent() };
  } catch (error) {
    if (abort.signal.aborted) return { outcome: 'over-budget', ms: spent() };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') return { outcome: 'out-of-memory', ms: spent() };
    throw error;
  } finally {
    clearTimeout(timer);
    port1.close();
  }
}
