/*
 * Round-trip figures of the markdown engine on a folder of GitBook-written pages (Git Sync
 * output). Usage: npx tsx bench/markdown-corpus.ts <folder>   (SUMMARY.md is skipped)
 *
 * For every page: front matter and the leading `# Title` are split off as the change-request
 * batch does, the body is read with GitBook's heading convention and written back.
 * Reports: pages byte-identical after one round trip (trailing whitespace aside), pages
 * stable on the second, words of the source missing from the rendered page, and pages whose
 * rendered visible text (code aside) shows raw markup (`<tag`, `{%`, backslash escapes).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import sanitizeHtml from 'sanitize-html';
import { decodeHTML } from 'entities';
import { readPageMarkdown, writePageMarkdown } from '../src/content/markdown/index.ts';
import { renderDocument } from '../src/site/render-document.ts';

const folder = process.argv[2];
if (!folder) {
  console.error('usage: npx tsx bench/markdown-corpus.ts <folder of GitBook markdown>');
  process.exit(2);
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return name.endsWith('.md') && name !== 'SUMMARY.md' ? [path] : [];
  });
}

const FRONT_MATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

function roundTrip(markdown: string) {
  const front = FRONT_MATTER.exec(markdown)?.[0] ?? '';
  const rest = markdown.slice(front.length);
  const lead = /^\s*/.exec(rest)![0];
  const { title, document } = readPageMarkdown(rest);
  return { markdown: front + lead + writePageMarkdown(document, title), document };
}

/** Trailing whitespace of lines (GitBook's `&#x20;` is an encoded trailing space) and of the file does not count. */
const canonical = (text: string) => text.replace(/(?:[ \t]|&#x20;)+$/gm, '').replace(/\s+$/, '');

function visibleText(html: string): string {
  const withoutCode = html.replace(/<pre[\s\S]*?<\/pre>/g, ' ').replace(/<code[\s\S]*?<\/code>/g, ' ');
  return decodeHTML(sanitizeHtml(withoutCode, { allowedTags: [], allowedAttributes: {} }).replace(/&lt;/g, '&amp;lt;'));
}

const RAW_MARKUP = /<[a-z/][^>]*>|\{%|\\[\\`*_{}[\]()#+\-.!<>]/i;
const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);

let identical = 0;
let stable = 0;
let lostWords = 0;
let rawPages = 0;
const different: string[] = [];
const all = files(folder);
for (const path of all) {
  const source = readFileSync(path, 'utf8');
  const first = roundTrip(source);
  const second = roundTrip(first.markdown);
  if (canonical(first.markdown) === canonical(source)) identical++;
  else different.push(relative(folder, path));
  if (second.markdown === first.markdown) stable++;
  else console.log(`UNSTABLE ${relative(folder, path)}`);
  const text = visibleText(renderDocument(first.document).html);
  // Source words: markup, URLs and code aside.
  const sourceText = source
    .replace(FRONT_MATTER, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/\{%[\s\S]*?%\}/g, ' ')
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/^#\s.*$/m, ' ');
  const rendered = words(text);
  const missing = [...words(decodeHTML(sourceText))].filter((w) => !rendered.has(w));
  if (missing.length > 0) console.log(`LOST ${relative(folder, path)}: ${missing.slice(0, 10).join(' ')}`);
  lostWords += missing.length;
  const raw = RAW_MARKUP.exec(text);
  if (raw) {
    rawPages++;
    console.log(`RAW ${relative(folder, path)}: ${JSON.stringify(text.slice(Math.max(0, raw.index - 30), raw.index + 30))}`);
  }
}
const pct = (n: number) => `${((100 * n) / Math.max(1, all.length)).toFixed(1)}%`;
for (const path of different) console.log(`DIFFERS ${path}`);
console.log(`pages: ${all.length}`);
console.log(`byte-identical after one round trip (trailing whitespace aside): ${identical} (${pct(identical)})`);
console.log(`stable on the second round trip: ${stable} (${pct(stable)})`);
console.log(`source words missing from the rendered page: ${lostWords}`);
console.log(`pages with raw markup in visible text: ${rawPages}`);
