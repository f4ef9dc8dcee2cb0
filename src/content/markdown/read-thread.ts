/*
 * The entry point of a markdown reading thread (page-reader.ts runs it in a piscina pool).
 * It says when it starts, so that the reader's time budget counts work, not the wait for a thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { readPageMarkdown, type PageMarkdown } from './page.ts';
import { markdownToDocument } from './parse.ts';
import type { Document } from './types.ts';

export interface ReadTask {
  /** A page (its `# Title`, written forms kept: page.ts) or other markdown, read in canonical form (parse.ts). */
  kind: 'page' | 'document';
  markdown: string;
  /** Told once, as the thread starts on this task. */
  started: MessagePort;
}

export function read(task: ReadTask): PageMarkdown | Document {
  task.started.postMessage('started');
  task.started.close();
  return readOfKind(task.kind, task.markdown);
}

/** Reads markdown as its kind says; on a pool thread (above) or where the reader reads inline. */
export function readOfKind(kind: ReadTask['kind'], markdown: string): PageMarkdown | Document {
  return kind === 'page' ? readPageMarkdown(markdown) : markdownToDocument(markdown);
}
