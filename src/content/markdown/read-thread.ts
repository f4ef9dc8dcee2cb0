/*
 * The entry point of a markdown reading thread (page-reader.ts runs it in a piscina pool).
 * It says when it starts, so that the reader's time budget counts work, not the wait for a thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { readPageMarkdown, type PageMarkdown } from './page.ts';

export interface ReadTask {
  markdown: string;
  /** Told once, as the thread starts on this task. */
  started: MessagePort;
}

export function readPage(task: ReadTask): PageMarkdown {
  task.started.postMessage('started');
  task.started.close();
  return readPageMarkdown(task.markdown);
}
