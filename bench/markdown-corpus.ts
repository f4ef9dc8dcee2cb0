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
import { renderDocument } from '../src/site/render-document.ts';
import { canonical, missingWords, RAW_MARKUP, roundTrip, visibleText } from './corpus-measure.ts';

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
  const html = renderDocument(first.document).html;
  const text = visibleText(html);
  const missing = missingWords(source, html);
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
