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

/** Parses one HTML tag such as `<img src="a" alt="b">` or `</mark>`; null when `source` is not exactly one tag. */
export function readHtmlTag(source: string): HtmlTag | null {
  const match = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)([^>]*?)\/?>$/s.exec(source.trim());
  if (!match) return null;
  return { name: match[2].toLowerCase(), closing: match[1] === '/', attrs: readAttributes(match[3]) };
}

/** Every HTML tag in `html`, in order, with the text between them. */
export function splitHtml(html: string): Array<{ tag: HtmlTag } | { text: string }> {
  const parts: Array<{ tag: HtmlTag } | { text: string }> = [];
  const pattern = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[^>]*?)?\/?>/gs;
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: html.slice(last, match.index) });
    const tag = readHtmlTag(match[0]);
    parts.push(tag ? { tag } : { text: match[0] });
    last = match.index + match[0].length;
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

/** Escapes a value for a double-quoted attribute, in `{% %}` tags and in HTML alike. */
export function quoteAttribute(value: string): string {
  return '"' + value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/'/g, '&#x27;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;').replace(/\n/g, '&#xA;') + '"';
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
