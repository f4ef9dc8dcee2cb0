/*
 * Where a page file's front matter is: the one rule for git sync's page files and the API's
 * page markdown. Front matter belongs to a page file only: the engine reads no front matter
 * (a comment, a description or a pasted text opening with `---` opens with a divider).
 */
import { loadOnUse } from '../../lib/load-on-use.ts';

/** YAML is parsed only by some requests: loaded on first use (lib/load-on-use.ts). */
const yaml = loadOnUse<typeof import('yaml')>('yaml');

/** `---` on the first line, then YAML lines (maybe none), then a `---` line. */
const FRONT = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

export interface FrontMatterSplit {
  /** The front matter's keys ({} without front matter). */
  data: Record<string, unknown>;
  /** The text after the front matter's closing line (the whole text without front matter). */
  body: string;
  /** The YAML's syntax error, when the text opens with `---` lines holding text YAML does not parse; the text is then all body. */
  invalid?: string;
}

/**
 * Splits the front matter off a page file. It is front matter only when its YAML is a
 * mapping (or empty): a page opening with a divider, a sentence and another divider is
 * content, and nothing of it is dropped.
 */
export function splitFrontMatter(text: string): FrontMatterSplit {
  const match = FRONT.exec(text);
  if (!match) return { data: {}, body: text };
  let data: unknown;
  try {
    data = match[1] === undefined ? null : yaml().parse(match[1]);
  } catch (error) {
    return { data: {}, body: text, invalid: (error as Error).message.split('\n')[0] };
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) return { data: {}, body: text };
  return { data: (data ?? {}) as Record<string, unknown>, body: text.slice(match[0].length) };
}
