/*
 * The pre-pass that runs before remark.
 *
 * Why a line pre-pass and not a micromark extension: GitBook's `{% tag %}` lines, `<details>`
 * lines, `<figure>` images and `$$` math wrap or hold arbitrary markdown and are written on
 * lines of their own. Left to CommonMark, a closing `{% endhint %}` right after a list item
 * is swallowed as a lazy continuation line, after a table it becomes a table row, and text in
 * `$$a*b*$$` or in `url="..._x_..."` is read as emphasis or autolinks. Container-level
 * micromark constructs that fix all of that are far heavier than this. So each such line is
 * cut out here: it is stored as a token and replaced by a placeholder line with blank lines
 * around it (keeping the line's indentation and `>` prefix, so it stays in its list item or
 * quote). remark then sees one placeholder paragraph per token, and the mdast converter groups
 * the blocks between an opening and a closing placeholder. Inline math and `{{ }}`
 * expressions get inline placeholders the same way, so remark never reads inside them.
 * Fenced code and front matter are left untouched.
 */
import { closesFence, columns, continuation, continuesContainer, FENCE, LIST_MARKER, listItemAround, type ListItemMemo, PREFIX, startsHtmlBlock, stripPrefix, within, withoutColumns } from './prepare-lines.ts';
import { BLOCK_MARK, INLINE_MARK, ANY_PLACEHOLDER, readLiquidTag, type LiquidTag } from './syntax.ts';

export type Token =
  | { kind: 'tag'; tag: LiquidTag; raw: string }
  | { kind: 'details'; open: boolean; raw: string }
  | { kind: 'summary'; markdown: string; raw: string }
  | { kind: 'details-end'; raw: string }
  | { kind: 'figure'; html: string; raw: string }
  | { kind: 'math'; formula: string; raw: string }
  | { kind: 'inline-math'; formula: string; raw: string }
  | { kind: 'expression'; expression: string; raw: string }
  | { kind: 'markup'; markup: string; raw: string };

export interface Prepared {
  /** The markdown remark parses: the input with placeholders for every token. */
  source: string;
  tokens: Token[];
  /** Lines of `source` (0-based) that are the blank lines put around placeholders, not the input's. */
  addedLines: Set<number>;
}

/** The `{% %}` tags this library understands; other tags stay text. */
export const KNOWN_TAGS = new Set([
  'hint', 'tabs', 'tab', 'code', 'embed', 'content-ref', 'file', 'stepper', 'step', 'openapi-operation',
  'updates', 'update', 'columns', 'column',
]);

/** Tags whose closing tag is optional: without one they stand alone. */
export const VOID_TAGS = new Set(['embed', 'file', 'content-ref', 'openapi-operation']);

/** `space.vars.x`, `page.vars.x` and their bracket forms: the expressions `{{ }}` may hold. */
export const VARIABLE_EXPRESSION = /^(?:space|page)\.vars(?:\.[A-Za-z_$][\w$-]*|\[(?:"[^"]+"|'[^']+')\])$/;

/** HTML blocks CommonMark ends only at their closing text (kinds 1 and 2), blank lines included. */
const RAW_HTML_BLOCKS = [
  { open: /^ {0,3}<pre(?=[\s>]|$)/i, close: /<\/pre>/i },
  { open: /^ {0,3}<!--/, close: /-->/ },
];
/** What a lazy line cannot start with: a block of its own (a tag, fence, HTML, heading, quote, list item, table, math). */
const LAZY_STOP = /^(?:\{%|`{3,}|~{3,}|<|#|>|[*+-](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$)|\||\$\$|$)/;
/** Replaces GitBook's block tags, math and expressions by placeholders; see the file comment. */
export function prepareMarkdown(markdown: string): Prepared {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const tokens: Token[] = [];
  const out: string[] = [];
  const addedLines = new Set<number>();
  let i = 0;
  let fence: Fence | null = null;
  let htmlBlock: string | null = null;
  const listItemMemo: ListItemMemo = { line: -1, at: 0, container: '' };
  // Lines the search for an over-indented tag's closing tag may still read: linear on any page.
  const scan = { budget: 4 * lines.length + 10_000 };

  const openTags: OpenTag[] = [];
  // The void tag (`{% embed %}`) placed last, whose optional body (a caption) may follow.
  let voidTag: OpenTag | null = null;
  const place = (written: string, token: Token) => {
    const prefix = token.kind === 'tag' ? tagPrefix(openTags, written, token.tag) : written;
    voidTag = token.kind === 'tag' && VOID_TAGS.has(token.tag.name) ? { name: token.tag.name, at: continuation(prefix) } : null;
    tokens.push(token);
    // The blank lines around keep the quote markers but never the list marker (that would open an empty item).
    // The one before holds only the containers opened before the line's last list marker:
    // a `>` opened after it (`2. > {% code %}`) would start an empty quote in the item before.
    const blank = continuation(prefix).trimEnd();
    const markers = [...prefix.matchAll(LIST_MARKER)];
    const before = markers.length === 0 ? blank : continuation(prefix.slice(0, markers[markers.length - 1].index)).trimEnd();
    addedLines.add(out.length).add(out.length + 2);
    out.push(before, prefix + BLOCK_MARK + (tokens.length - 1) + BLOCK_MARK, blank);
  };

  while (i < lines.length) {
    const line = lines[i];
    const prefix = PREFIX.exec(line)![0];
    const rest = line.slice(prefix.length);
    if (fence) {
      // A fence left open ends with its container (GFM), and, in a block whose closing tag comes
      // before any closing fence, at that tag: what follows is the page, not code.
      if (!continuesContainer(line, fence.container)) {
        // Code pasted unindented into a block's fence (`+ {% code %}`, the fence, then `run()`
        // at the margin) is the fence's when its closing fence and the block's closing tag
        // follow at the body's indentation: read there, as the author meant (GFM would end
        // the list item and show both tags).
        const upTo = unindentedCodeEnd(lines, i, fence, openTags);
        if (upTo > i) {
          for (let k = i; k < upTo; k++) lines[k] = fence.container + lines[k].replace(/^[ \t]*/, '');
          continue;
        }
        fence = null;
        continue;
      }
      if (fence.block && endsBlock(rest, prefix, fence.block, openTags) && fenceLeftOpen(lines, i, fence)) {
        // The closing fence the page left out, for remark; not the page's line.
        addedLines.add(out.length);
        out.push(fence.container + fence.char.repeat(fence.length));
        fence = null;
        continue;
      }
      // A closing fence with the closing tag of its block after it (```` ``` {% endcode %} ````) ends both.
      const tagAfter = closingTagAt(rest, prefix, openTags, /^(`{3,}|~{3,})[ \t]+(?=\{%)/);
      if (tagAfter && closesFence(rest.slice(0, tagAfter.at), fence)) {
        fence = null;
        out.push(prefix + rest.slice(0, tagAfter.at).trimEnd());
        lines[i] = tagAfter.prefix + rest.slice(tagAfter.at);
        continue;
      }
      if (closesFence(rest, fence)) fence = null;
      out.push(line);
      i++;
      continue;
    }
    // `<pre>` is raw text to CommonMark up to `</pre>`, and a comment up to `-->`, blank lines
    // and fences included: nothing in them is a tag (a commented-out part of a page shows nothing).
    const raw = RAW_HTML_BLOCKS.find((block) => block.open.test(rest) && !block.close.test(rest.replace(block.open, '')));
    if (raw) {
      let j = i + 1;
      while (j < lines.length && !raw.close.test(lines[j])) j++;
      out.push(...lines.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    // An HTML block that runs to a blank line (CommonMark's kinds 6 and 7) holds the lines
    // under it: a fence line there is its text, as remark reads it, not code hiding the tags after.
    if (htmlBlock !== null && (rest.trim() === '' || !continuesContainer(line, htmlBlock))) htmlBlock = null;
    const opening = htmlBlock === null && FENCE.exec(rest);
    if (opening && !(opening[1][0] === '`' && rest.slice(opening[1].length).includes('`'))) {
      const container = /^[ \t]*$/.test(prefix) ? listItemAround(lines, i, prefix, listItemMemo) : continuation(prefix);
      fence = { char: opening[1][0], length: opening[1].length, container, block: openTags[openTags.length - 1] };
      out.push(line);
      i++;
      continue;
    }
    // A lazy line: text left of the block tag's body it runs on from (`+ {% code %}` then
    // `run()` at the margin), read in that body, as CommonMark reads a paragraph's lazy line.
    const lazyIn = (voidTag ?? openTags[openTags.length - 1])?.at;
    if (lazyIn && /^[ \t]+$/.test(lazyIn) && /^[ \t]*$/.test(prefix) && columns(prefix) < columns(lazyIn) && i > 0 && lines[i - 1].trim() !== '' && !LAZY_STOP.test(rest)) {
      lines[i] = lazyIn + rest;
      continue;
    }
    if (openTags.length > 0 && dedentsOverIndentedTag(lines, i, prefix, openTags[openTags.length - 1].at, listItemMemo, scan)) continue;
    const consumed =
      takeBlockMath(lines, i, prefix, place) ||
      takeFigure(lines, i, prefix, place) ||
      takeUnknownTag(lines, i, prefix, place, openTags) ||
      takeTagLine(lines, i, prefix, place, out, openTags);
    if (consumed) {
      // A tag line is set apart by blank lines (`place`): any HTML block above ends there.
      htmlBlock = null;
      i += consumed;
      continue;
    }
    // Text and then the closing tag of an open block (`last words {% endhint %}`): the text
    // ends the block's body and the tag closes it, as HonKit-era pages were written.
    const closing = closingTagAt(rest, prefix, openTags);
    if (closing) {
      lines.splice(i, 1, prefix + rest.slice(0, closing.at).trimEnd(), closing.prefix + rest.slice(closing.at));
      continue;
    }
    if (htmlBlock === null && startsHtmlBlock(rest, i === 0 || lines[i - 1].trim() === '')) htmlBlock = continuation(prefix);
    out.push(prefix + replaceInlineTokens(rest, tokens));
    i++;
  }
  return { source: out.join('\n'), tokens, addedLines };
}

/**
 * A block tag written 4+ columns deeper than the body it stands in, in no list item
 * (`{% tabs %}` then `    {% tab %}`: nested tags indented by hand to be read): CommonMark would
 * take it and its body for indented code. Its lines up to its closing tag are read that much
 * less indented (the page's lines stay as written). False when it is no such tag, or is never
 * closed (or the page's search budget is spent: many such tags never closed).
 */
function dedentsOverIndentedTag(lines: string[], i: number, prefix: string, body: string, memo: ListItemMemo, scan: { budget: number }): boolean {
  const depth = columns(prefix) - columns(body);
  if (depth < 4 || !/^[ \t]*$/.test(prefix) || !/^[ \t]*$/.test(body)) return false;
  const tag = readLiquidTag(lines[i].trim());
  if (!tag || tag.raw !== lines[i].trim() || !KNOWN_TAGS.has(tag.name) || VOID_TAGS.has(tag.name) || listItemAround(lines, i, prefix, memo) !== '') return false;
  let nested = 0;
  for (let j = i + 1; j < lines.length && scan.budget-- > 0; j++) {
    if (!lines[j].includes('{%')) continue;
    const name = readLiquidTag(lines[j].trim())?.name;
    if (name === tag.name) nested++;
    else if (name === `end${tag.name}` && nested-- === 0) {
      for (let k = i; k <= j; k++) lines[k] = withoutColumns(lines[k], depth);
      return true;
    }
  }
  return false;
}

/** A block tag opened and not closed yet, with the prefix its body's lines continue at. */
type OpenTag = { name: string; at: string };

/** An open code fence: its run, the prefix its container's lines continue at, the innermost block tag open around it. */
type Fence = { char: string; length: number; container: string; block: OpenTag | undefined };

/** Whether `rest`, on a line at `prefix`, is the closing tag of `block`, the innermost open tag, at its own prefix or up to three columns deeper. */
function endsBlock(rest: string, prefix: string, block: OpenTag, open: OpenTag[]): boolean {
  const tag = readLiquidTag(rest.trim());
  const inner = continuation(prefix);
  // Other tags may share its line (`{% endstep %} {% endstepper %}`): they are read after it.
  const after = tag ? rest.trim().slice(tag.raw.length).trimStart() : '';
  // Up to three columns deeper is still the block's line, as for a closing tag (tagPrefix).
  return tag !== null && (after === '' || after.startsWith('{%')) && tag.name === `end${block.name}` && open[open.length - 1] === block && inner.startsWith(block.at) && /^[ \t]{0,3}$/.test(inner.slice(block.at.length));
}

/**
 * For a fence in a block tag's body (no quote) whose line `i` falls left of its container:
 * the line after the run of such lines when a closing fence at the container follows them,
 * then (blank lines aside) the block's closing tag; else `i`.
 */
function unindentedCodeEnd(lines: string[], i: number, fence: Fence, open: OpenTag[]): number {
  if (!fence.block || fence.container.includes('>') || fence.container.trim() !== '') return i;
  let j = i;
  while (j < lines.length && lines[j].trim() !== '' && !continuesContainer(lines[j], fence.container)) {
    if (/^[ \t]*(?:\{%|`{3,}|~{3,})/.test(lines[j])) return i;
    j++;
  }
  if (j >= lines.length || j === i) return i;
  const closer = PREFIX.exec(lines[j])![0];
  const rest = lines[j].slice(closer.length);
  if (!/^[ \t]*$/.test(closer)) return i;
  // The block's closing tag may follow the closing fence on its line (```` ``` {% endcode %} ````).
  const shared = /^(`{3,}|~{3,})[ \t]+(?=\{%)/.exec(rest);
  if (shared) return closesFence(shared[1], fence) && endsBlock(rest.slice(shared[0].length), closer, fence.block, open) ? j : i;
  if (!closesFence(rest, fence)) return i;
  let k = j + 1;
  while (k < lines.length && lines[k].trim() === '') k++;
  if (k >= lines.length) return i;
  const prefix = PREFIX.exec(lines[k])![0];
  return endsBlock(lines[k].slice(prefix.length), prefix, fence.block, open) ? j : i;
}

/** Whether the fence open at line `i` meets no closing fence before a known block tag opens or the page ends. */
function fenceLeftOpen(lines: string[], i: number, fence: Fence): boolean {
  for (let j = i + 1; j < lines.length; j++) {
    const rest = lines[j].slice(PREFIX.exec(lines[j])![0].length);
    if (closesFence(rest, fence)) return false;
    // A fence with an info string opens a block: the one before was never closed.
    if (new RegExp(`^[${fence.char}]{3,}[ \\t]*[^\\s${fence.char}]`).test(rest)) return true;
    const tag = readLiquidTag(rest);
    if (tag && KNOWN_TAGS.has(tag.name)) return true;
  }
  return true;
}

/**
 * The prefix a block tag's placeholder is placed at. A closing tag indented deeper than the
 * innermost open tag of its name, by less than code's four columns and with no container of
 * its own (`  {% endupdate %}` right under a list item of the update's body), closes that
 * tag, as its author meant: placed where it was written, remark takes it as a line of the
 * list item and both tags are left unpaired, shown as `{%` text. Only such a tag moves; a
 * closing tag whose opening is deeper, or not the innermost one open, is placed as written.
 */
function tagPrefix(open: OpenTag[], prefix: string, tag: LiquidTag): string {
  if (!tag.name.startsWith('end')) {
    if (!VOID_TAGS.has(tag.name)) open.push({ name: tag.name, at: continuation(prefix) });
    return prefix;
  }
  const at = open.map((o) => o.name).lastIndexOf(tag.name.slice(3));
  if (at < 0) return prefix;
  const opened = open[at];
  const innermost = at === open.length - 1;
  open.length = at;
  const deeper = prefix.startsWith(opened.at) ? prefix.slice(opened.at.length) : '';
  // Less indented than the opening, in no quote (`-    {% hint %}` … `  {% endhint %}`): written
  // where it stands it would be out of the list item, the hint's tags both shown as text.
  const shallower = /^[ \t]*$/.test(prefix) && /^[ \t]+$/.test(opened.at) && columns(prefix) < columns(opened.at);
  return innermost && (/^[ \t]{1,3}$/.test(deeper) || shallower) && continuation(prefix) === prefix ? opened.at : prefix;
}

/**
 * The first closing tag of an open block in `rest`, after `lead` (by default any text, the tag
 * not in a code span, not escaped): where it starts, and the prefix of the line it is read on.
 * That is the block's own container when the text before it is deeper (`> quoted {% endstep %}`
 * ends the quote's step, not a tag in the quote), since it ends what that block holds.
 */
function closingTagAt(rest: string, prefix: string, open: OpenTag[], lead?: RegExp): { at: number; prefix: string } | null {
  if (!rest.includes('{%')) return null;
  const found = (at: number) => {
    const tag = readLiquidTag(rest.slice(at));
    const name = tag?.name.startsWith('end') ? tag.name.slice(3) : '';
    const opened = open.findLast((o) => o.name === name);
    const inner = continuation(prefix);
    // Void tags (`{% file %}`) are not kept open: their closing tag is optional.
    if (opened) return { at, prefix: within(inner, opened.at) ? opened.at : inner };
    return VOID_TAGS.has(name) ? { at, prefix: inner } : null;
  };
  if (lead) {
    const match = lead.exec(rest);
    return match ? found(match[0].length) : null;
  }
  for (let at = 0; at < rest.length; at++) {
    if (rest[at] === '\\') at++;
    else if (rest[at] === '`') at = codeSpanEnd(rest, at) - 1;
    else if (rest.startsWith('{%', at) && rest.slice(0, at).trim() !== '') {
      const closing = found(at);
      if (closing) return closing;
    }
  }
  return null;
}

/** Puts back the source text of every placeholder in `text` (for code, URLs and raw HTML). */
export function restorePlaceholders(text: string, tokens: Token[]): string {
  if (!text.includes(BLOCK_MARK) && !text.includes(INLINE_MARK)) return text;
  return text.replace(ANY_PLACEHOLDER, (whole, index: string) => tokens[Number(index)]?.raw ?? whole);
}

type Place = (prefix: string, token: Token) => void;

/**
 * Lines `i` to `j` as a token's raw text: what its placeholder stands for, after the first
 * line's prefix. With the prefix, code restoring the placeholder would repeat the list marker
 * (over-indented content read again then nests one list deeper each time).
 */
function rawAfterPrefix(lines: string[], i: number, j: number, prefix: string): string {
  return [lines[i].slice(prefix.length), ...lines.slice(i + 1, j + 1)].join('\n');
}

/** `$$` alone on a line up to the next `$$` line. */
function takeBlockMath(lines: string[], i: number, prefix: string, place: Place): number {
  const rest = lines[i].slice(prefix.length).trim();
  if (rest === '$$') {
    for (let j = i + 1; j < lines.length; j++) {
      const inner = stripPrefix(lines[j], prefix);
      if (inner.trim() === '$$') {
        const formula = lines.slice(i + 1, j).map((l) => stripPrefix(l, prefix)).join('\n').trim();
        place(prefix, { kind: 'math', formula, raw: rawAfterPrefix(lines, i, j, prefix) });
        return j - i + 1;
      }
    }
    return 0;
  }
  // `$$formula$$` alone on its line is inline math in a paragraph of its own (GitBook writes a math block over three lines).
  return 0;
}

/** `<figure>…</figure>`, or a `<div …>` around an image, possibly over several lines. */
function takeFigure(lines: string[], i: number, prefix: string, place: Place): number {
  const rest = lines[i].slice(prefix.length);
  const opener = /^<(figure|div)[\s>]/i.exec(rest);
  if (!opener) return 0;
  const closer = `</${opener[1].toLowerCase()}>`;
  const parts: string[] = [];
  for (let j = i; j < lines.length && j < i + 40; j++) {
    const part = stripPrefix(lines[j], prefix);
    // GitBook writes a `<div data-full-width>` around a figure in a list item over several lines, with blank lines between.
    // (At the top level its lines are HTML blocks of their own, kept as written.)
    if (j > i && part.trim() === '' && !(opener[1].toLowerCase() === 'div' && prefix !== '')) return 0;
    parts.push(part);
    const html = parts.join('\n');
    const end = html.toLowerCase().lastIndexOf(closer);
    if (end >= 0 && html.slice(end + closer.length).trim() === '') {
      if (!/<img\s/i.test(html)) return 0;
      // Over blank lines only a wrapper of figures: any other content there stays markdown.
      if (parts.some((p) => p.trim() === '') && html.replace(/<figcaption[\s\S]*?<\/figcaption>/gi, '').replace(/<[^>]*>/g, '').trim() !== '') return 0;
      place(prefix, { kind: 'figure', html: html.trim(), raw: rawAfterPrefix(lines, i, j, prefix) });
      return j - i + 1;
    }
  }
  return 0;
}

/**
 * A `{% name %}` this library does not know, at the start of a line: kept verbatim, up to its
 * `{% endname %}` (same-name tags nest) or, when it has none, the line alone (`{% include %}`).
 */
function takeUnknownTag(lines: string[], i: number, prefix: string, place: Place, open: OpenTag[]): number {
  const rest = lines[i].slice(prefix.length);
  const tag = readLiquidTag(rest);
  if (!tag || tag.name.startsWith('end')) return 0;
  if (KNOWN_TAGS.has(tag.name) && !(tag.name in CHECKED_CONTAINERS && !containerSupported(lines, i, prefix, tag))) return 0;
  const name = tag.name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const opens = new RegExp(`\\{%-?\\s*${name}(?![\\w-])`, 'g');
  const closes = new RegExp(`\\{%-?\\s*end${name}\\s*-?%\\}`, 'g');
  let depth = 0;
  let fence: { char: string; length: number } | null = null;
  for (let j = i; j < lines.length; j++) {
    const inner = j === i ? rest : stripPrefix(lines[j], prefix);
    if (fence) {
      if (closesFence(inner, fence)) fence = null;
      continue;
    }
    const opening = FENCE.exec(inner.trimStart());
    if (j > i && opening) {
      fence = { char: opening[1][0], length: opening[1].length };
      continue;
    }
    depth += (inner.match(opens) ?? []).length - (inner.match(closes) ?? []).length;
    if (depth <= 0) {
      // What follows the closing tag on its line (`{% endswagger %} {% endstep %}`) is a line of its own.
      const closer = [...inner.matchAll(closes)].pop();
      const end = closer ? closer.index + closer[0].length : inner.length;
      const tail = inner.slice(end).trim();
      const last = tail === '' ? lines[j] : lines[j].slice(0, lines[j].length - inner.length + end);
      const markup = [...[rest, ...lines.slice(i + 1, j + 1).map((l) => stripPrefix(l, prefix))].slice(0, j - i), (j === i ? rest : inner).slice(0, tail === '' ? undefined : end)].join('\n');
      const raw = [...lines.slice(i, j), last];
      raw[0] = raw[0].slice(prefix.length);
      place(prefix, { kind: 'markup', markup, raw: raw.join('\n') });
      readAsNextLine(lines, j + 1, tail, prefix, open);
      return j - i + 1;
    }
  }
  // With no closing tag it is the tag alone; what follows it on the line is read as a line of its own.
  const after = rest.slice(tag.raw.length).trim();
  place(prefix, { kind: 'markup', markup: after ? tag.raw : rest, raw: after ? tag.raw : rest });
  readAsNextLine(lines, i + 1, after, prefix, open);
  return 1;
}

/**
 * Updates and columns whose tags carry what their blocks cannot hold (`{% update tags="…" %}`,
 * a date that is no date, an unknown attribute) are kept verbatim as a whole, never half read.
 */
const CHECKED_CONTAINERS: Record<string, Record<string, (value: string) => boolean>> = {
  updates: { format: () => true },
  columns: { fullwidth: (v) => v === 'true' },
};
/** An update's tags as GitBook writes them (`tags="fix,data-quality"`): tag slugs, comma-separated; read-block.ts reads them. */
export const UPDATE_TAGS = /^[a-z0-9][a-z0-9_-]*(?:,[a-z0-9][a-z0-9_-]*)*$/;
const CHECKED_ITEMS: Record<string, Record<string, (value: string) => boolean>> = {
  update: { date: (v) => /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:\d{2}))?$/.test(v) && !Number.isNaN(Date.parse(v)), tags: (v) => UPDATE_TAGS.test(v) },
  column: { width: (v) => /^\d+(?:\.\d+)?(?:%|px)?$/.test(v) },
};

function attributesSupported(tag: LiquidTag, allowed: Record<string, (value: string) => boolean>, required: string[] = []): boolean {
  return Object.entries(tag.attrs).every(([name, value]) => allowed[name]?.(value) === true) && required.every((name) => name in tag.attrs);
}

function containerSupported(lines: string[], i: number, prefix: string, tag: LiquidTag): boolean {
  if (!attributesSupported(tag, CHECKED_CONTAINERS[tag.name])) return false;
  const closes = new RegExp(`\\{%-?\\s*end${tag.name}\\s*-?%\\}`);
  for (let j = i + 1; j < lines.length; j++) {
    const inner = stripPrefix(lines[j], prefix).trimStart();
    if (closes.test(inner)) return true;
    const item = readLiquidTag(inner);
    if (item && item.name in CHECKED_ITEMS && !attributesSupported(item, CHECKED_ITEMS[item.name], item.name === 'update' ? ['date'] : [])) return false;
  }
  return true;
}

/**
 * A line that starts with a known `{% %}` tag or a `<details>`/`<summary>` tag: the tag is
 * placed, and what follows it on the line (`{% code %}```js`, `{% column %}> quote`) is read
 * again as a line of its own in the same container, so a fence, quote or tag there opens.
 */
function takeTagLine(lines: string[], i: number, prefix: string, place: Place, out: string[], open: OpenTag[]): number {
  const rest = lines[i].slice(prefix.length).trimStart();
  // Text before the line's first tag makes it no tag line, but for a closing HTML tag: GitBook's
  // older export wrote a tag right after the `</table>` ending an HTML block (`</table>{% hint %}`).
  const html = /^<\/[a-z][a-z0-9-]*\s*>(?=\s*(?:\{%|<details|<\/details|<summary))/i.exec(rest)?.[0] ?? '';
  const token = readBlockToken(rest.slice(html.length).trimStart());
  if (!token) return 0;
  if (html) out.push(prefix + html);
  place(html ? continuation(prefix) : prefix, token);
  const after = rest.slice(html.length).trimStart().slice(token.raw.length).trim();
  readAsNextLine(lines, i + 1, after, prefix, open);
  return 1;
}

/**
 * Queues `text`, what is left of a line after a tag taken from it, as line `at` in the same
 * container; one opening with the closing tag of an open block (`> {% endcode %} {% endupdate %}`)
 * is read at that block's container.
 */
function readAsNextLine(lines: string[], at: number, text: string, prefix: string, open: OpenTag[]): void {
  if (text !== '') lines.splice(at, 0, (closingTagAt(text, prefix, open, /^/)?.prefix ?? continuation(prefix)) + text);
}

function readBlockToken(text: string): Token | null {
  if (text.startsWith('{%')) {
    const tag = readLiquidTag(text);
    const base = tag?.name.replace(/^end/, '');
    return tag && base && KNOWN_TAGS.has(base) ? { kind: 'tag', tag, raw: tag.raw } : null;
  }
  const details = /^<details(\s+open(?:=(?:"[^"]*"|'[^']*'|\w+))?)?\s*>/i.exec(text);
  if (details) return { kind: 'details', open: Boolean(details[1]), raw: details[0] };
  const end = /^<\/details\s*>/i.exec(text);
  if (end) return { kind: 'details-end', raw: end[0] };
  const summary = /^<summary>(.*?)<\/summary>/is.exec(text);
  // Trailing spaces of a summary are GitBook's (`<summary>Step 1 </summary>`): kept.
  if (summary) return { kind: 'summary', markdown: summary[1].trimStart(), raw: summary[0] };
  return null;
}

/** Replaces `$$math$$` and `{{ space.vars.x }}` outside code spans by inline placeholders. */
function replaceInlineTokens(line: string, tokens: Token[]): string {
  if (!line.includes('$$') && !line.includes('{{')) return line;
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (ch === '`') {
      const span = codeSpanEnd(line, i);
      out += line.slice(i, span);
      i = span;
      continue;
    }
    const token = readInlineToken(line, i);
    if (token) {
      tokens.push(token);
      out += INLINE_MARK + (tokens.length - 1) + INLINE_MARK;
      i += token.raw.length;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

function codeSpanEnd(line: string, start: number): number {
  let run = start;
  while (line[run] === '`') run++;
  const ticks = line.slice(start, run);
  let search = run;
  while (search < line.length) {
    const at = line.indexOf(ticks, search);
    if (at < 0) break;
    let after = at + ticks.length;
    if (line[after] !== '`') return after;
    while (line[after] === '`') after++;
    search = after;
  }
  return run;
}

function readInlineToken(line: string, i: number): Token | null {
  if (line.startsWith('$$', i)) {
    const match = /^\$\$((?:[^$\\]|\\.|\$(?!\$))+?)\$\$/.exec(line.slice(i));
    if (match && match[1].trim() !== '') return { kind: 'inline-math', formula: match[1].trim(), raw: match[0] };
  }
  if (line.startsWith('{{', i)) {
    const match = /^\{\{\s*([^{}]+?)\s*\}\}/.exec(line.slice(i));
    if (match && VARIABLE_EXPRESSION.test(match[1])) return { kind: 'expression', expression: match[1], raw: match[0] };
  }
  return null;
}
