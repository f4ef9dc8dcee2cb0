/*
 * What the corpus benches measure on one page, in one place (bench/markdown-corpus.ts,
 * bench/corpus.ts): the engine's round trip as the change-request batch reads a page,
 * the comparison that counts as byte-identical, the visible text of rendered HTML, raw
 * markup in it, and the source words a reader should see.
 */
import { decodeHTML, decodeHTMLStrict } from 'entities';
import { htmlBlockNames } from 'micromark-util-html-tag-name';
import { pageBody, readPageMarkdown, splitFrontMatter, writePageMarkdown } from '../src/content/markdown/index.ts';
// CommonMark's columns (a tab to the next stop of four), not a reading of the engine's: the measure may share it.
import { columns } from '../src/content/markdown/prepare-lines.ts';

/** Front matter (by the importers' rule) and the leading `# Title` are split off as the batch does; the body is read and written back. */
export function roundTrip(markdown: string) {
  const rest = splitFrontMatter(markdown).body;
  const front = markdown.slice(0, markdown.length - rest.length);
  // Blank lines between front matter and the body: a body's first line may be indented (code).
  const lead = /^(?:[ \t]*\r?\n)*/.exec(rest)![0];
  const { title, document } = readPageMarkdown(rest);
  return { markdown: front + lead + writePageMarkdown(document, title), document };
}

/**
 * What the engine owns of a page file: the body after front matter (page metadata, git
 * sync's) and the `# Title` line (the page title). The API's `format=markdown` returns this.
 */
export const engineOwned = (markdown: string) => pageBody(splitFrontMatter(markdown).body);

/** Trailing whitespace of lines (GitBook's `&#x20;` is an encoded trailing space) and of the file does not count. */
export const canonical = (text: string) => text.replace(/(?:[ \t]|&#x20;)+$/gm, '').replace(/\s+$/, '');

/*
 * Pages losing words: what is compared.
 *
 * Both sides are reduced to the words a reader sees, in the same way, and compared as
 * multisets: a word the source shows n times is missing when the rendered page shows it
 * fewer than n times. A word is a run of letters and digits (any script), lower-cased;
 * every other character separates words, on both sides. URLs (`scheme:…`) are no words on
 * either side (a link's address is not its text; an embed shows its URL).
 *
 * - The rendered page (`renderedWords`): the text of the page's HTML, code, math and
 *   expressions included (they are shown), every tag a separator except the highlighter's
 *   `<span>`s inside `<pre>` (they split one code token, not words), entities decoded;
 *   attributes (`alt`, `href`, `data-*`) are not text.
 * - The source (`sourceWords`): the body the engine owns (front matter and the `# Title`
 *   line aside: page metadata and the page title), where
 *   - fenced code, inline code, `$$` math and `<pre>` are taken as written (their content
 *     is shown as is);
 *   - markdown syntax is what it means on the page: a link is its text, an image (markdown
 *     `![alt](src)` or `<img>`) shows no words, a list's numbers and task boxes are drawn,
 *     a reference definition and an HTML comment show nothing, escapes and entities are
 *     the characters they stand for (an entity ends with `;`, as CommonMark reads it), every HTML tag and `{% tag %}` is a separator;
 *   - a link labelled with its own address (a cards table's target cell, a content-ref's
 *     link, a mention as GitBook exports them) shows the target's title: left out;
 *   - the visible attributes of GitBook's tags are words: a tab's and a code block's
 *     `title`; an icon (`<i class="fa-x">:x:</i>`) is drawn, not text; an OpenAPI block's
 *     fallback link is not shown (GitBook shows the operation).
 * Nothing else is left out: a word of the source missing from the page counts, whatever
 * block it stood in.
 */

/** In raw HTML a backslash before a tag is text the browser shows, not a markdown escape hiding the tag: kept apart from it. */
const backslashesBeforeTagsAsText = (html: string) => html.replace(/\\(?=<\/?[a-zA-Z])/g, '\\ ');

/** A markdown link's or image's destination and title: `(<a b.png> "t")`, `(a(1).md)`. */
const DESTINATION = String.raw`\s*(?:<[^>\n]*>|(?:[^()\s]|\([^()]*\))*)(?:\s+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\([^)]*\)))?\s*`;

/** GitBook labels a card's target and a content-ref with the address (`<a href="a/">a</a>`). */
const ownAddress = (label: string, href: string) => {
  const address = href.replace(/\/$/, '');
  return label === href || label === address || address.endsWith(`/${label}`);
};

const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;

// A URL shown as text is not words (GitBook shows it as written or as the target's title); it may sit
// right after an emphasis underscore (`_https://x/_`), which `\b` would not see as a start.
const URL_TEXT = /(?<![\p{L}\p{N}])[a-z][a-z0-9+.-]*:\/\/\S*|(?<![\p{L}\p{N}])mailto:\S*/giu;

function wordCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.replace(URL_TEXT, ' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/**
 * The rendered page's text: `all` (code included) for words, `prose` (code and math left
 * out: markup is content there) for raw markup. Literal `<` stays `<` (decoded), so a `<p>`
 * a reader sees is found.
 */
export function renderedText(html: string): { all: string; prose: string } {
  let all = '';
  let prose = '';
  let pre = 0;
  let code = 0;
  for (const [, tag, text] of html.matchAll(/(<[^>]*>)|([^<]+)/g)) {
    if (text !== undefined) {
      const decoded = decodeHTML(text);
      all += decoded;
      if (pre === 0 && code === 0) prose += decoded;
      continue;
    }
    const [, close, name] = /^<(\/?)([a-zA-Z][\w-]*)/.exec(tag) ?? [];
    const lower = name?.toLowerCase();
    if (lower === 'pre') pre = Math.max(0, pre + (close ? -1 : 1));
    if (lower === 'code') code = Math.max(0, code + (close ? -1 : 1));
    if (lower === 'span' && pre > 0) continue;
    all += ' ';
    prose += ' ';
  }
  return { all, prose };
}

/** Text a reader sees in rendered HTML outside code (where markup is content): for raw markup. */
export const visibleText = (html: string) => renderedText(html).prose;

export const RAW_MARKUP = /<[a-z/][^>]*>|\{%|\\[\\`*_{}[\]()#+\-.!<>]/i;

const CLOSING_TAG_LINE = /^[ \t>]*\{%-?\s*end([\w-]+)\s*-?%\}\s*$/;
/** GitBook's tags that hold blocks (their closing tag is required). */
const BLOCK_TAGS = new Set(['hint', 'tabs', 'tab', 'code', 'stepper', 'step', 'updates', 'update', 'columns', 'column']);

/** The block tags open after `line` (outside code), given those open before it. */
function openTagsAfter(line: string, open: string[]): void {
  // A tag is one opening its line (a tag named in prose or in a code span is text).
  if (!/^[ \t>]*(?:(?:[*+-]|\d+[.)])[ \t]+)*\{%/.test(line)) return;
  for (const [, end, name] of line.replace(/`[^`]*`/g, ' ').matchAll(/\{%-?\s*(end)?([\w-]+)/g)) {
    if (!BLOCK_TAGS.has(name)) continue;
    if (!end) open.push(name);
    else if (open.lastIndexOf(name) >= 0) open.length = open.lastIndexOf(name);
  }
}

/** Whether no line after line `n` closes `fence` before a line opening a `{% tag %}`, or the text ends. */
function leftOpen(lines: string[], n: number, fence: string): boolean {
  for (const line of lines.slice(n + 1)) {
    const close = /^[ \t>]*(`{3,}|~{3,})[ \t]*$/.exec(line);
    if (close && close[1][0] === fence[0] && close[1].length >= fence.length) return false;
    // A fence with an info string opens a block: the one before was never closed.
    if (new RegExp(`^[ \\t>]*(?:(?:[*+-]|\\d+[.)])[ \\t]+)*[${fence[0]}]{3,}[ \\t]*[^\\s${fence[0]}]`).test(line)) return true;
    if (/^[ \t>]*(?:(?:[*+-]|\d+[.)])[ \t]+)*\{%-?\s*(?!end)[\w-]+/.test(line)) return true;
  }
  return true;
}

const HTML_BLOCK_NAMES = new Set(htmlBlockNames);

/** Whether a line opens an HTML block ending at a blank line (CommonMark's kinds 6 and 7). */
function opensHtmlBlock(bare: string, afterBlank: boolean): boolean {
  const name = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)/.exec(bare)?.[1].toLowerCase();
  // `<details>`, `<summary>` and `<figure>` lines are GitBook's expandable and image blocks, read as its tags are.
  if (name === 'details' || name === 'summary' || name === 'figure') return false;
  if (name && HTML_BLOCK_NAMES.has(name)) return true;
  return afterBlank && /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/.test(bare) && !/^<\/?(?:pre|script|style|textarea)\b/i.test(bare);
}

/**
 * Fenced code blocks taken as written (`take`), comment blocks dropped, the rest of the text kept. A fence closes at a
 * fence line of its character, at least as long, or, opened indented in a list item, where a
 * line less indented than its opening ends the item (a fence left open there ends with its
 * container, as CommonMark reads it): never at the next block's opening fence.
 */
function fencedCode(text: string, take: (body: string) => string): string {
  const out: string[] = [];
  let open: { fence: string; indent: number; quoted: boolean; body: string[] } | null = null;
  const indentOf = (line: string) => columns(/^[ \t>]*/.exec(line)![0]);
  // A comment opening a line runs to its `-->` (an HTML block), fences in it included: it shows nothing.
  let comment = false;
  // The block tags open outside code: only the innermost one's closing tag ends a fence left open in it.
  const tags: string[] = [];
  // The indentation of the HTML block open (GFM kinds 6 and 7), -1 when none.
  let htmlBlock = -1;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n];
    // A tag sharing its line (`{% code %}```js`, ```` ``` {% endcode %} ````) is read as on a line of
    // its own, as Quire's reader and HonKit-era pages take it: what follows it is a line of its own.
    const shared = /^([ \t>]*(?:(?:[*+-]|\d+[.)])[ \t]+)*)(\{%(?:[^%]|%(?!\}))*%\}|(?:`{3,}|~{3,})[ \t]+(?=\{%\s*end))[ \t]*(\S.*)$/.exec(line);
    if (!comment && shared && (shared[2].startsWith('{%') || open)) {
      line = shared[1] + shared[2].trimEnd();
      lines.splice(n + 1, 0, shared[1].replace(/[^ \t>]/g, ' ') + shared[3]);
    }
    if (comment) {
      comment = !line.includes('-->');
      out.push(' ');
      continue;
    }
    if (!open && /^[ \t>]*<!--/.test(line) && !/-->/.test(line.slice(line.indexOf('<!--') + 4))) {
      comment = true;
      out.push(' ');
      continue;
    }
    if (open) {
      // A line left of a list item's fence ends the item, and its fence with it (GFM): it is read anew below.
      // So does the closing tag of the block it is in when no closing fence comes before the next tag opens (GitBook, Quire): the fence was left open.
      // A quote's fence ends at a line with no `>`, a blank one included (GFM).
      const leaves =
        (open.indent > 0 && line.trim() !== '' && indentOf(line) < open.indent) ||
        (open.quoted && !/^[ \t]*>/.test(line)) ||
        (tags.length > 0 && CLOSING_TAG_LINE.exec(line)?.[1] === tags[tags.length - 1] && leftOpen(lines, n, open.fence));
      const close = /^[ \t>]*(`{3,}|~{3,})[ \t]*$/.exec(line);
      if (!leaves && close && close[1][0] === open.fence[0] && close[1].length >= open.fence.length) {
        out.push(take(open.body.join('\n')));
        open = null;
        continue;
      }
      if (!leaves) {
        open.body.push(line);
        continue;
      }
      out.push(take(open.body.join('\n')));
      open = null;
    }
    // An HTML block of a block-level tag (or a complete tag alone after a blank line) runs to a
    // blank line: a fence line in it is its text (GFM).
    // It ends with its container too: a line less indented, or opening a list item.
    const bare = line.replace(/^[ \t>]*/, '');
    if (bare.trim() === '' || indentOf(line) < htmlBlock || (htmlBlock >= 0 && /^(?:[*+-]|\d+[.)])[ \t]/.test(bare))) htmlBlock = -1;
    if (htmlBlock < 0 && opensHtmlBlock(bare, n === 0 || lines[n - 1].replace(/^[ \t>]*/, '').trim() === '')) htmlBlock = indentOf(line);
    if (htmlBlock >= 0) line = backslashesBeforeTagsAsText(line);
    // A fence may open a list item's content (`4.  ```sh`): its indentation is the item's.
    const opening = /^([ \t>]*(?:(?:[*+-]|\d+[.)])[ \t]+)*)(`{3,}|~{3,})/.exec(line);
    if (opening && htmlBlock < 0 && !(opening[2][0] === '`' && line.slice(opening[0].length).includes('`'))) open = { fence: opening[2], indent: columns(opening[1]), quoted: opening[1].includes('>'), body: [] };
    else {
      openTagsAfter(line, tags);
      out.push(line);
    }
  }
  if (open) out.push(take(open.body.join('\n')));
  return out.join('\n');
}

/** A pipe that ends a table cell (GFM): one not escaped by an odd run of backslashes (`\\|` ends a cell, `\|` does not). */
/** Any character, or a newline that is not before a blank line (a line of only spaces or `>`s). */
const WITHIN_PARAGRAPH = String.raw`(?:[^\n]|\n(?![ \t>]*\n))`;
/** A processing instruction, CDATA section or declaration (its `[…]` internal subset too), never past a blank line. */
const DIRECTIVE = new RegExp(
  String.raw`<(?:\?${WITHIN_PARAGRAPH}*?\?>|!\[CDATA\[${WITHIN_PARAGRAPH}*?\]\]>|![A-Za-z](?:(?![>[])${WITHIN_PARAGRAPH})*(?:\[${WITHIN_PARAGRAPH}*?\]\s*)?>)`,
  'g',
);

const CELL_PIPE = /(?<=(?:^|[^\\])(?:\\\\)*)\|/;

/**
 * A run of pipe-table lines with the cells GFM shows: a row's cells past the header's count are
 * dropped (GFM, GitHub and GitBook alike), so a `|` left bare in a code span of a row (the rest of
 * the row cut off) is not counted as words Quire lost.
 */
function shownCells(run: string): string {
  const cells = (line: string) => {
    const parts = line.replace(/^[ \t>]*/, '').split(CELL_PIPE);
    if (parts.length > 1 && parts[0].trim() === '') parts.shift();
    if (parts.length > 1 && parts[parts.length - 1].trim() === '') parts.pop();
    return parts;
  };
  const lines = run.split('\n');
  const count = cells(lines[0]).length;
  return lines
    .map((line) => {
      const shown = line.trim() === '' ? [] : cells(line);
      return shown.length <= count ? line : `| ${shown.slice(0, count).join('|')} |`;
    })
    .join('\n');
}

/** An HTML table without the cells of its hidden columns (`<th data-hidden>`), as GitBook shows it. */
function withoutHiddenColumns(table: string): string {
  const head = /<thead>([\s\S]*?)<\/thead>/i.exec(table)?.[1] ?? '';
  const hidden = new Set([...head.matchAll(/<th\b([^>]*)>/gi)].flatMap((th, i) => (/\bdata-hidden\b/i.test(th[1]) ? [i] : [])));
  if (hidden.size === 0) return table;
  return table.replace(/<tr>([\s\S]*?)<\/tr>/gi, (_row, cells: string) => {
    let i = 0;
    return `<tr>${cells.replace(/<(td|th)\b[^>]*>[\s\S]*?<\/\1>/gi, (cell) => (hidden.has(i++) ? ' ' : cell))}</tr>`;
  });
}

/**
 * The text a reader should see of a source page (see above): `prose` outside code, `all`
 * with code, math and visible tag attributes.
 */
export function sourceText(source: string): { all: string; prose: string } {
  const shown: string[] = [];
  const take = (text: string) => (shown.push(text), ' ');
  const text = engineOwned(source)
    .replace(/\r\n?/g, '\n')
    // Shown as written.
    .replace(/^[\s\S]*$/, (all: string) => fencedCode(all, take))
    .replace(/<pre(?:\s[^>]*)?>([\s\S]*?)<\/pre>/gi, (_, body: string) => take(decodeHTMLStrict(body.replace(/<[^>]*>/g, ''))))
    // A pipe-table row is cut into cells before its text is read (GFM): a code span there ends
    // in its cell, and a backtick left open is a literal one, never paired with the next row's.
    .replace(/(?:^[ \t>]*\|.*(?:\n|$))+/gm, shownCells)
    .replace(/^[ \t>]*\|.*$/gm, (row: string) => row.split(CELL_PIPE).map((cell) => cell.replace(/(?<![\\`])(`+)([^`]+?)\1(?!`)/g, (_, _t, body: string) => take(body)).replace(/`/g, ' ')).join('|'))
    // Nor does one cross an HTML table's cell: GitBook reads each cell on its own.
    .replace(/(?<![\\`])(`+)((?:(?!<\/?t[dhr][\s>])(?:[^`\n]|\n(?![ \t>]*\n)))+?)\1(?!`)/g, (_, _t, body: string) => take(body))
    // HTML code (a table cell's `<code>$$</code>`) is shown as written: no `$$` there opens math.
    .replace(/<code(?:\s[^>]*)?>([\s\S]*?)<\/code>/gi, (_, body: string) => take(decodeHTMLStrict(body.replace(/<[^>]*>/g, ''))))
    .replace(/\$\$([\s\S]*?)\$\$/g, (_, formula: string) => take(formula))
    // Shown as GitBook's tags say.
    .replace(/\{%\s*openapi-operation[\s\S]*?\{%\s*endopenapi-operation\s*%\}/g, ' ')
    .replace(/\{%\s*(?:tab|code)\s[^%]*?title="([^"]*)"[^%]*%\}/g, (_, title: string) => take(decodeHTMLStrict(title)))
    // A content-ref or a mention of a page shows the page's title (GitBook's and Quire's), not the
    // label written with it, which may be an older title.
    .replace(/\{%\s*content-ref\s+url="([^"]*)"\s*%\}[\s\S]*?\{%\s*endcontent-ref\s*%\}/g, (ref, url: string) => (ABSOLUTE_URL.test(url) ? ref : ' '))
    .replace(/\[[^\]\n]*\]\(<?([^)>\s]*)>?\s+"mention"\)/g, (mention, href: string) => (ABSOLUTE_URL.test(href) ? mention : ' '))
    .replace(/(?<!\\)\{%[\s\S]*?%\}/g, ' ')
    // Shown as nothing.
    .replace(/<!--[\s\S]*?-->/g, ' ')
    // A processing instruction, declaration or CDATA section is shown as written (Quire's choice:
    // a browser would hide it; docs/decisions/markdown.md). Never past a blank line: a `<?` in
    // prose and a `?>` pages later are no directive.
    .replace(DIRECTIVE, (directive: string) => take(directive))
    // A column GitBook hides (`<th data-hidden>`: a card's target, a cover) shows none of its cells.
    .replace(/<table\b[\s\S]*?<\/table>/gi, withoutHiddenColumns)
    // A cards view shows its cards, not its column titles (GitBook's and Quire's); in a quote too.
    .replace(/(<table\b[^>]*\bdata-view="cards"[^>]*>)[\s>]*<thead>[\s\S]*?<\/thead>/gi, '$1 ')
    // A table whose header GitBook hides (`data-header-hidden`) shows no column titles.
    .replace(/(<table\b[^>]*\bdata-header-hidden\b[^>]*>)[\s>]*<thead>[\s\S]*?<\/thead>/gi, '$1 ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<i\s+class="fa[^"]*"[^>]*>[\s\S]*?<\/i>/gi, ' ')
    .replace(/^[ \t>]*\[[^\]\n]+\]:[ \t]+\S+.*$/gm, ' ')
    .replace(new RegExp(String.raw`!\[(?:[^\][]|\[[^\]]*\])*\]\(${DESTINATION}\)`, 'g'), ' ')
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, ' ')
    // A list item's marker, and one opening its content (`- 2. x` is an ordered list in a bullet item).
    .replace(/^([ \t>]*(?:[*+-][ \t]+)?)\d+[.)](?=[ \t]|$)/gm, '$1 ')
    .replace(/^([ \t>]*[*+-][ \t]+)\[[ xX]\](?=[ \t]|$)/gm, '$1 ')
    // A link labelled with its own address (a card's target cell, a content-ref, a mention as
    // GitBook exports them) shows the target page's title, not those words.
    .replace(/<a\s+href="([^"]*)"[^>]*>([^<]*)<\/a>/g, (link, href: string, label: string) => (ownAddress(label, href) ? ' ' : link))
    .replace(/\[([^\]\n]*)\]\(<?([^)>\s]*)>?(?:\s+"mention")?\)/g, (link, label: string, href: string) => (ownAddress(label, href) ? ' ' : link))
    // A link is its text.
    .replace(new RegExp(String.raw`\]\(${DESTINATION}\)`, 'g'), '] ')
    .replace(/\]\[[^\]]*\]/g, '] ')
    // An inline element with no look of its own here (`中文<font color="red">重點</font>文字`,
    // `see<u>under</u>line`) joins the text around it, as a browser shows it: no word ends at its tags.
    .replace(/(?<!\\)<(u|ins|small|big|font|abbr|acronym|cite|q|var|samp|tt|dfn|time|bdi|bdo|nobr|label|data)\b[^>]*>([^<]*)<\/\1\s*>/gi, '$2')
    // A figure is HTML (GitBook's caption `<p>\</p>`, a line break).
    .replace(/<figure\b[\s\S]*?<\/figure>/gi, backslashesBeforeTagsAsText)
    // A tag ends at its first `>` outside a double-quoted value (GitBook writes `alt="for <tenant>"`
    // unescaped, as a browser reads it); a quote left open on its line, at its first `>`.
    .replace(/(?<!\\)<[a-zA-Z/](?:[^>"]|="[^"\n]*")*>|(?<!\\)<[a-zA-Z/][^>]*>/g, ' ')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const prose = decodeHTMLStrict(text);
  return { prose, all: `${prose} ${shown.join(' ')}` };
}

/** Source words missing from the rendered page (`all` of renderedText): each missing occurrence once. */
export function missingWords(source: string, html: string): string[] {
  const shown = wordCounts(renderedText(html).all);
  const missing: string[] = [];
  for (const [word, count] of wordCounts(sourceText(source).all)) {
    for (let i = shown.get(word) ?? 0; i < count; i++) missing.push(word);
  }
  return missing;
}

/** What shows as raw markup on a published page (issue 31's list). */
export const LEAKS: [string, RegExp][] = [
  ['<p>', /<p>/gi],
  ['<table', /<table/gi],
  ['<button', /<button/gi],
  ['{%', /\{%/g],
  ['\\<', /\\</g],
];

/**
 * Raw markup the rendered page shows outside code that its source does not mean to show:
 * a leak counts where the rendered prose holds it more often than the source's prose
 * (an escaped `\{%x%\}` or `\<p>` is text its author wrote to be read).
 */
export function rawMarkup(source: string, html: string): string[] {
  const shown = renderedText(html).prose;
  const meant = sourceText(source).prose;
  return LEAKS.filter(([, re]) => (shown.match(re)?.length ?? 0) > (meant.match(re)?.length ?? 0)).map(([label]) => label);
}
