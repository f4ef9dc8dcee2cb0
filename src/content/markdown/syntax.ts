/*
 * Small lexical helpers shared by the reader and the writer: GitBook's `{% name key="value" %}`
 * tags, HTML start tags and their attributes, and the placeholder characters the pre-pass
 * puts in the markdown it hands to remark.
 */

/** Marks a block token line: `\uE000<index>\uE000`. Private-use characters never occur in real text. */
export const BLOCK_MARK = '\uE000';
/** Marks an inline token (math, expression) inside a line: `\uE001<index>\uE001`. */
export const INLINE_MARK = '\uE001';

export const BLOCK_PLACEHOLDER = /^\uE000(\d+)\uE000$/;
export const ANY_PLACEHOLDER = /[\uE000\uE001](\d+)[\uE000\uE001]/g;
export const INLINE_PLACEHOLDER = /\uE001(\d+)\uE001/g;

export interface LiquidTag {
  name: string;
  attrs: Record<string, string>;
  /** The source text of the tag, `{% ... %}` included. */
  raw: string;
}

/** Reads the `{% ... %}` tag that starts `text`, or null. Quoted values may contain `%}`. */
export function readLiquidTag(text: string): LiquidTag | null {
  if (!text.startsWith('{%')) return null;
  let quote: string | null = null;
  for (let i = 2; i < text.length - 1; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '%' && text[i + 1] === '}') {
      const inner = text.slice(2, i).replace(/^-/, '').replace(/-$/, '').trim();
      // `@integration/block` names GitBook's integration blocks (`{% @github-files/github-code-block url="…" %}`).
      const name = /^(?:@[A-Za-z][\w.-]*\/[\w.-]+|[A-Za-z][\w-]*)/.exec(inner)?.[0];
      if (!name) return null;
      return { name, attrs: readAttributes(inner.slice(name.length)), raw: text.slice(0, i + 2) };
    }
  }
  return null;
}

const NAME = /\s*([A-Za-z_:][\w:.-]*)/y;
const EQUALS = /\s*=\s*/y;
const UNQUOTED = /[^\s"'=<>`]+/y;
/** What may follow a quoted value's closing quote: another attribute, or the end of the tag. */
const AFTER_VALUE = /^(?:\s+[A-Za-z_:][\w:.-]*(?:\s*=|\s|$)|\s*\/?\s*$)/;

/**
 * Attributes of a tag body: `a="1" b='2' c=3 d` gives `{ a: '1', b: '2', c: '3', d: '' }`.
 * GitBook writes quotes inside a value bare (`title="a "b""`): a quoted value ends at the
 * quote that another attribute or the end of the tag follows, not at the first one.
 */
export function readAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let i = 0;
  while (i < source.length) {
    NAME.lastIndex = i;
    const name = NAME.exec(source);
    if (!name) {
      i++;
      continue;
    }
    i = NAME.lastIndex;
    let value = '';
    EQUALS.lastIndex = i;
    if (EQUALS.exec(source)) {
      i = EQUALS.lastIndex;
      const quote = source[i];
      if (quote === '"' || quote === "'") {
        let end = -1;
        for (let k = source.indexOf(quote, i + 1); k >= 0; k = source.indexOf(quote, k + 1)) {
          if (AFTER_VALUE.test(source.slice(k + 1))) {
            end = k;
            break;
          }
        }
        if (end < 0) end = source.indexOf(quote, i + 1);
        if (end < 0) end = source.length;
        value = source.slice(i + 1, end);
        i = end + 1;
      } else {
        UNQUOTED.lastIndex = i;
        const bare = UNQUOTED.exec(source);
        value = bare?.[0] ?? '';
        i = bare ? UNQUOTED.lastIndex : i;
      }
    }
    const key = name[1].toLowerCase();
    if (!(key in attrs)) attrs[key] = decodeEntities(value);
  }
  return attrs;
}

export interface HtmlTag {
  name: string;
  closing: boolean;
  attrs: Record<string, string>;
}

/**
 * How far a tag is read with its quotes: past this many characters (or with a quote left open)
 * a tag ends at its first `>`, as before quotes were read. Keeps reading linear on markup made
 * to be slow (a quote per tag, no `>`).
 */
const QUOTED_TAG_BUDGET = 1024;

/** The first `>` at or after a position, remembered: calls come in increasing order, so the scans add up to one pass. */
function gtFinder(html: string): (from: number) => number {
  let searched = -1;
  let found = -1;
  return (from) => {
    if (searched >= 0 && from >= searched && (found < 0 || from <= found)) return found;
    searched = from;
    found = html.indexOf('>', from);
    return found;
  };
}

/**
 * Where the tag opening at `at` ends (after its `>`); null when `at` opens none. Read as a browser
 * reads a tag: a quoted value may hold `>` (GitBook writes `alt="Grant consent for <tenant>"`
 * unescaped). A quote left open within the budget ends the tag at its first `>`.
 */
function tagEnd(html: string, at: number, firstGt: (from: number) => number): { nameEnd: number; end: number } | null {
  let i = at + 1;
  if (html[i] === '/') i++;
  if (!/[A-Za-z]/.test(html[i] ?? '')) return null;
  while (i < html.length && /[A-Za-z0-9-]/.test(html[i])) i++;
  const nameEnd = i;
  if (!/[\s>]/.test(html[i] ?? '') && html.slice(i, i + 2) !== '/>') return null;
  const limit = Math.min(html.length, at + QUOTED_TAG_BUDGET);
  let quote = '';
  for (let j = i; j < limit; j++) {
    const c = html[j];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '>') return { nameEnd, end: j + 1 };
    else if (c === '"' || c === "'") quote = c;
  }
  const gt = firstGt(i);
  return gt < 0 ? null : { nameEnd, end: gt + 1 };
}

/** The tag opening at `at` (its name, whether closing, its attributes) and where it ends; null when `at` opens none. */
function tagAt(html: string, at: number, firstGt: (from: number) => number): { tag: HtmlTag; end: number } | null {
  const read = tagEnd(html, at, firstGt);
  if (!read) return null;
  const closing = html[at + 1] === '/';
  const name = html.slice(at + (closing ? 2 : 1), read.nameEnd).toLowerCase();
  const body = html.slice(read.nameEnd, read.end - 1).replace(/\/$/, '');
  return { tag: { name, closing, attrs: readAttributes(body) }, end: read.end };
}

/** Parses one HTML tag such as `<img src="a" alt="b">` or `</mark>`; null when `source` is not exactly one tag. */
export function readHtmlTag(source: string): HtmlTag | null {
  const trimmed = source.trim();
  if (trimmed[0] !== '<') return null;
  const read = tagAt(trimmed, 0, gtFinder(trimmed));
  return read && read.end === trimmed.length ? read.tag : null;
}

/** Every HTML tag in `html`, in order, with the text between them. One pass: linear in the markup. */
export function splitHtml(html: string): Array<{ tag: HtmlTag } | { text: string }> {
  const parts: Array<{ tag: HtmlTag } | { text: string }> = [];
  const firstGt = gtFinder(html);
  let last = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    const read = tagAt(html, at, firstGt);
    if (!read) continue;
    if (at > last) parts.push({ text: html.slice(last, at) });
    parts.push({ tag: read.tag });
    last = read.end;
    at = read.end - 1;
  }
  if (last < html.length) parts.push({ text: html.slice(last) });
  return parts;
}

/**
 * Markup with each `href`/`src` attribute of its tags replaced by what `replace` returns for it
 * (`whole`, from the space before the name to the value's end, keeps it; `lead` is `whole` up to
 * the value), its value decoded. Only attributes of tags, read as a browser's tokenizer reads
 * them: text that merely looks like one (`&#x3C;a href="#">` shown in code, ` href=` inside
 * another attribute's value) is left as written. The one reading of the URLs of markup kept
 * verbatim (git sync's assets, the published site's links). One pass: linear in the markup.
 */
export function mapUrlAttributes(markup: string, replace: (attribute: { whole: string; lead: string; name: string; value: string }) => string): string {
  let out = '';
  let copied = 0;
  for (let at = markup.indexOf('<'); at >= 0; at = markup.indexOf('<', at + 1)) {
    if (!/[A-Za-z]/.test(markup[at + 1] ?? '')) continue;
    const tag = readStartTag(markup, at);
    // A tag running to the end holds the rest of the markup, as a browser reads it: no tag follows.
    if (!tag) break;
    for (const attribute of tag.attributes) {
      const name = attribute.name.toLowerCase();
      if (name !== 'href' && name !== 'src') continue;
      const whole = markup.slice(attribute.from, attribute.to);
      const lead = markup.slice(attribute.from, attribute.valueFrom);
      out += markup.slice(copied, attribute.from) + replace({ whole, lead, name, value: decodeEntities(attribute.value) });
      copied = attribute.to;
    }
    at = tag.end - 1;
  }
  return out + markup.slice(copied);
}

interface TagAttribute {
  name: string;
  /** Where the space before its name starts. */
  from: number;
  /** Where its value starts (its opening quote) and ends (after the closing one). */
  valueFrom: number;
  to: number;
  /** The value as written, without its quotes. */
  value: string;
}

/** The start tag opening at `at`: where it ends (after its `>`) and its attributes that have values; null when the markup ends first. */
function readStartTag(markup: string, at: number): { end: number; attributes: TagAttribute[] } | null {
  const attributes: TagAttribute[] = [];
  const length = markup.length;
  let i = at + 1;
  while (i < length && !/[\s/>]/.test(markup[i])) i++;
  for (;;) {
    const from = i;
    while (i < length && /[\s/]/.test(markup[i])) i++;
    if (i >= length) return null;
    if (markup[i] === '>') return { end: i + 1, attributes };
    const nameFrom = i;
    i++;
    while (i < length && !/[\s/>=]/.test(markup[i])) i++;
    const name = markup.slice(nameFrom, i);
    let j = i;
    while (j < length && /\s/.test(markup[j])) j++;
    if (markup[j] !== '=') continue;
    j++;
    while (j < length && /\s/.test(markup[j])) j++;
    const valueFrom = j;
    const quote = markup[j];
    let value: string;
    if (quote === '"' || quote === "'") {
      const close = markup.indexOf(quote, j + 1);
      if (close < 0) return null;
      value = markup.slice(j + 1, close);
      i = close + 1;
    } else {
      i = j;
      while (i < length && !/[\s>]/.test(markup[i])) i++;
      value = markup.slice(j, i);
    }
    attributes.push({ name, from, valueFrom, to: i, value });
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references GitBook writes in attribute values (`&#x26;`, `&amp;`, ...). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Escapes a value for a double-quoted attribute, in `{% %}` tags and in HTML alike; `bare` leaves `<` and `>` as GitBook's figures write them. */
export function quoteAttribute(value: string, angles: 'escaped' | 'bare' = 'escaped'): string {
  const quoted = value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/'/g, '&#x27;').replace(/\n/g, '&#xA;');
  return '"' + (angles === 'bare' ? quoted : quoted.replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;')) + '"';
}

/** A link destination, in angle brackets when it has spaces or parentheses; as it was written (`written`) while that still says `href`. */
export function destination(href: string, written?: string): string {
  if (written !== undefined && unescapeMarkdown(written) === href) return written;
  const escaped = href.replace(/\\/g, '\\\\').replace(/&(?=#?\w+;)/g, '\\&').replace(/\|/g, '\\|');
  if (href === '' || /[\s<>()]/.test(href)) return '<' + escaped.replace(/[<>]/g, '\\$&').replace(/\n/g, ' ') + '>';
  return escaped;
}

/** Undoes markdown's backslash escapes. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}
