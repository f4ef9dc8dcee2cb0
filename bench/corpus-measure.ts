/*
 * What the corpus benches measure on one page, in one place (bench/markdown-corpus.ts,
 * bench/corpus.ts): the engine's round trip as the change-request batch reads a page,
 * the comparison that counts as byte-identical, the visible text of rendered HTML, raw
 * markup in it, and the source words a reader should see.
 */
import sanitizeHtml from 'sanitize-html';
import { decodeHTML } from 'entities';
import { pageBody, readPageMarkdown, writePageMarkdown } from '../src/content/markdown/index.ts';

export const FRONT_MATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** Front matter and the leading `# Title` are split off as the batch does; the body is read and written back. */
export function roundTrip(markdown: string) {
  const front = FRONT_MATTER.exec(markdown)?.[0] ?? '';
  const rest = markdown.slice(front.length);
  const lead = /^\s*/.exec(rest)![0];
  const { title, document } = readPageMarkdown(rest);
  return { markdown: front + lead + writePageMarkdown(document, title), document };
}

/**
 * What the engine owns of a page file: the body after front matter (page metadata, git
 * sync's) and the `# Title` line (the page title). The API's `format=markdown` returns this.
 */
export const engineOwned = (markdown: string) => pageBody(markdown.replace(FRONT_MATTER, ''));

/** Trailing whitespace of lines (GitBook's `&#x20;` is an encoded trailing space) and of the file does not count. */
export const canonical = (text: string) => text.replace(/(?:[ \t]|&#x20;)+$/gm, '').replace(/\s+$/, '');

/** Text a reader sees in rendered HTML, code left out (markup is content there); block ends separate words. */
export function visibleText(html: string): string {
  const withoutCode = html.replace(/<pre[\s\S]*?<\/pre>/g, ' ').replace(/<code[\s\S]*?<\/code>/g, ' ').replace(/<\/(?:p|li|td|th|summary|div|h\d)>/g, ' $&');
  return decodeHTML(sanitizeHtml(withoutCode, { allowedTags: [], allowedAttributes: {} }).replace(/&lt;/g, '&amp;lt;'));
}

export const RAW_MARKUP = /<[a-z/][^>]*>|\{%|\\[\\`*_{}[\]()#+\-.!<>]/i;
export const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

/** Words of the source a reader should see: markup, URLs, code and the title line aside. */
export function sourceWords(source: string): Set<string> {
  const text = source
    .replace(FRONT_MATTER, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\{%[\s\S]*?%\}/g, ' ')
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/^#\s.*$/m, ' ');
  return words(decodeHTML(text));
}

/** Source words missing from the visible text. */
export function missingWords(source: string, visible: string): string[] {
  const shown = words(visible);
  return [...sourceWords(source)].filter((w) => !shown.has(w));
}
