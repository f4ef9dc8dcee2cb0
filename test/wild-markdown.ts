/*
 * A seeded generator of hand-written GitBook-dialect markdown pages: the constructs of
 * docs/decisions/markdown.md nested in lists, quotes and tags, written the irregular ways
 * people and older exports write them (blank lines off, indentation off, tabs, odd bullets
 * and numbering, lazy lines, tags sharing lines, fences left open, CR LF, trailing spaces,
 * escapes, entities). Every word is a distinct made-up word, so a lost word is visible.
 * Made up from the dialect's rules only; no corpus page was read.
 *
 * `measureWild` checks one page as bench/corpus.ts measures a corpus page, and `minimize`
 * shrinks a failing page to the fewest lines that fail the same way (line-based ddmin).
 */
import { missingWords, rawMarkup, roundTrip } from '../bench/corpus-measure.ts';
import { renderDocument } from '../src/site/render-document.ts';
import { seededRandom } from './seeded-random.ts';

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/**
 * Irregular forms the generator can leave out, one per class of failure found (the CI test
 * leaves out the known ones, so a new class fails it). `engine`: Quire shows the page wrong;
 * `measure`: bench/corpus-measure.ts models the source wrong (Quire shows what GFM shows).
 */
export const WILD_CLASSES = {
  'html-block-no-blank': 'measure: tags right under an HTML block (no blank line) are in the HTML block (GFM), shown as text',
  'indented-fence': 'measure: a fence indented 1-3 columns at the top level is not a list item\'s; its closer may be less indented',
  'block-on-marker-line': 'measure: a list or quote opening on an item\'s marker line (`1. 1. x`, `1.\t> ~~~`): markers and fences missed',
  'tag-indent-off': 'engine: a tag pair in a list item or a list under a tag, indented off (`{% endhint %}` left of its opening, ` 3. x` in a hint) shows `{%`',
  'lazy-line': 'engine and measure: an unindented line in a list item\'s fenced code ends the item (GFM), the code and the tags after it cut off; unstable once (read: a lazy line in a tag\'s body, stop 43; code at the margin in a block\'s fence closed at the body\'s indentation, a void tag\'s caption at the margin, stop 44)',
  'quote-no-space': 'measure: `>text` or a bare `>` line in a quoted fence is read by the measure as leaving a list item, ending the fence early',
  'task-item-indent': 'measure: a task item\'s lines indented past its `[ ]` are 4+ columns into the item: indented code (GFM), its tags shown as code',
  'tab-after-marker': 'measure: `+\tx` puts the item\'s content at column 4 (GFM); lines indented 2 leave the item, splitting a tag pair: GFM shows `{%` too',
  'task-box-then-block': 'engine and measure: a block opening after a task box (`+ [ ] {% code %}`, `+ [ ] ```js`): GFM reads a paragraph (fence shown as text, measure misses it); Quire shows the tag as text',
  'backslash-before-tag': 'measure: `<summary>x\\</summary>` is HTML (GFM), the backslash literal; the measure reads `\\<` as an escape, `summary` as words',
  'unpaired-tag': 'engine, by decision (docs/decisions/markdown.md): a known tag left unpaired shows its `{%`',
  'intraword-emphasis': 'measure: `a**b**c` shows `abc` as one word (GFM too); the measure splits it at `**`',
} as const;
export type WildClass = keyof typeof WILD_CLASSES;

class Gen {
  readonly random: () => number;
  private count = 0;
  constructor(
    seed: number,
    readonly avoid: ReadonlySet<WildClass> = new Set(),
  ) {
    this.random = seededRandom(seed);
  }
  allows(name: WildClass): boolean {
    return !this.avoid.has(name);
  }
  /** A made-up word no other call returns (letters only: digits would make list numbers). */
  word(): string {
    let n = this.count++;
    let out = 'q';
    do {
      out += CONSONANTS[n % CONSONANTS.length] + VOWELS[Math.floor(n / CONSONANTS.length) % VOWELS.length];
      n = Math.floor(n / (CONSONANTS.length * VOWELS.length));
    } while (n > 0);
    return out + 'x';
  }
  words(min: number, max: number): string {
    return Array.from({ length: this.int(min, max) }, () => this.word()).join(' ');
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
}

/** Inline pieces: marks, links, buttons, escapes and entities, some written oddly. */
const INLINE: ((g: Gen) => string)[] = [
  (g) => g.words(1, 3),
  (g) => g.words(1, 3),
  (g) => `**${g.words(1, 2)}**`,
  (g) => `__${g.words(1, 2)}__`,
  (g) => `_${g.words(1, 2)}_`,
  (g) => `*${g.words(1, 2)}*`,
  (g) => `~~${g.words(1, 2)}~~`,
  (g) => `\`${g.words(1, 2)}\``,
  (g) => `[${g.words(1, 2)}](https://x.io/${g.word()})`,
  (g) => `[${g.words(1, 2)}](${g.word()}.md)`,
  (g) => `[${g.words(1, 2)}][${g.word()}]`,
  (g) => `<mark style="color:red;">${g.words(1, 2)}</mark>`,
  (g) => `<mark style="background-color:blue;">${g.words(1, 2)}</mark>`,
  (g) => `<a href="https://x.io/${g.word()}" class="button ${g.pick(['primary', 'secondary'])}">${g.words(1, 2)}</a>`,
  (g) => `<kbd>${g.word()}</kbd>`,
  (g) => `<sup>${g.word()}</sup>`,
  (g) => `$$${g.word()}+1$$`,
  (g) => `${g.word()}[^${g.int(1, 3)}]`,
  (g) => `\\*${g.word()}\\*`,
  (g) => `\\<${g.word()}>`,
  (g) => `${g.word()}&#x20;`,
  (g) => `${g.word()}&nbsp;${g.word()}`,
  (g) => `${g.word()} <?php echo ${g.word()}; ?>`,
  (g) => `&lt;${g.word()}&gt;`,
  // Emphasis across odd boundaries.
  (g) => `**${g.word()} _${g.word()}** ${g.word()}_`,
  (g) => (g.allows('intraword-emphasis') ? `**${g.word()} **${g.word()}` : g.word()),
  (g) => (g.allows('intraword-emphasis') ? `*${g.word()}**${g.word()}*` : g.word()),
  (g) => (g.allows('intraword-emphasis') ? `${g.word()}**${g.word()}**${g.word()}` : g.word()),
  (g) => `<strong>${g.word()}</strong>`,
  (g) => `<br>${g.word()}`,
  (g) => `:${g.pick(['smile', 'rocket'])}: ${g.word()}`,
  (g) => `<i class="fa-check">:check:</i> ${g.word()}`,
];

export function inlineText(g: Gen, pieces = g.int(1, 4)): string {
  const out: string[] = [];
  for (let i = 0; i < pieces; i++) out.push(g.pick(INLINE)(g));
  let text = out.join(' ');
  if (g.chance(0.1)) text += g.pick(['  ', ' ', '\t', '\\']);
  return text;
}

type Lines = string[];

/** Blank lines between blocks as people leave them: none, one, several, or whitespace-only. */
function gap(g: Gen): Lines {
  const r = g.random();
  if (r < 0.12) return [];
  if (r < 0.8) return [''];
  if (r < 0.92) return ['', ''];
  return [g.pick(['  ', '\t', '', ' '])];
}

/** Indentation off by a few columns (never 4, which would make code at the top level). */
const jitter = (g: Gen) => (g.chance(0.15) ? ' '.repeat(g.int(1, 3)) : '');

function indent(lines: Lines, by: string, g: Gen, lazy = false): Lines {
  return lines.map((line, i) => {
    if (line.trim() === '') return line;
    // A lazy continuation line: a paragraph's later line left unindented.
    if (lazy && g.allows('lazy-line') && i > 0 && g.chance(0.2) && !/^\s*[{<`~$|#>*+-]/.test(line) && lines[i - 1].trim() !== '') return line;
    return by + line;
  });
}

function tag(name: string, attrs = ''): string {
  return `{% ${name}${attrs ? ' ' + attrs : ''} %}`;
}

/** A tag pair around body lines, sometimes on the same line as the body, the closing indented otherwise. */
function wrapTag(g: Gen, name: string, attrs: string, body: Lines): Lines {
  const open = tag(name, attrs);
  const close = tag(`end${name}`);
  const style = g.random();
  if (style < 0.08 && body.length === 1) return [`${open}${body[0]}${close}`];
  if (style < 0.14 && body.length >= 1) return [`${open}${body[0]}`, ...body.slice(1), close];
  // (Not after a divider: `- - - {% endhint %}` is a list in a list in a list to GFM, the tag in it.)
  if (style < 0.2 && body.length >= 1 && !/^[-*_ ]+$/.test(body[body.length - 1])) return [open, ...body.slice(0, -1), `${body[body.length - 1]} ${close}`];
  const off = g.allows('tag-indent-off');
  const inner = off && g.chance(0.2) ? indent(body, g.pick(['  ', '    ', '\t']), g) : body;
  const pad = g.chance(0.15) ? [''] : [];
  const shift = off ? jitter(g) : '';
  return [shift + open, ...pad, ...inner, ...pad, (off ? jitter(g) : shift) + close];
}

type BlockGen = (g: Gen, depth: number) => Lines;

const paragraph: BlockGen = (g) => {
  const lines = [inlineText(g)];
  while (g.chance(0.3)) lines.push(inlineText(g));
  return lines.map((line, i) => (i === 0 ? jitter(g) + line : line));
};

const heading: BlockGen = (g) => [`${jitter(g)}${'#'.repeat(g.int(2, 4))} ${inlineText(g, g.int(1, 2))}${g.chance(0.1) ? ' ##' : ''}`];

const fence: BlockGen = (g) => {
  const char = g.chance(0.2) ? '~' : '`';
  const open = char.repeat(g.chance(0.15) ? 4 : 3);
  const info = g.pick(['', 'js', 'bash', 'python title="a.py"', 'json']);
  const body = Array.from({ length: g.int(1, 3) }, () => g.pick([g.words(1, 3), `<p>${g.word()}</p>`, `{% ${g.word()} %}`, `- ${g.word()}`, `  ${g.word()} = "${g.word()}"`, '']));
  const r = g.random();
  const close = r < 0.08 ? null : r < 0.2 ? open + char : open;
  return [(g.allows('indented-fence') ? jitter(g) : '') + open + info, ...body, ...(close === null ? [] : [close])];
};

const codeTag: BlockGen = (g) =>
  wrapTag(g, 'code', g.pick([`title="${g.word()}.js"`, `overflow="wrap"`, `lineNumbers="true"`, `title="${g.word()}" overflow="wrap"`]), [
    '```js',
    `${g.word()}(${g.word()})`,
    '```',
  ]);

const math: BlockGen = (g) => ['$$', `${g.word()} = ${g.word()}^2`, '$$'];

const divider: BlockGen = (g) => [g.pick(['---', '***', '___', '- - -'])];

function pipeTable(g: Gen): Lines {
  const cols = g.int(2, 3);
  // An inline `<table>` never opens a row: written without its leading pipe, such a line is an HTML block (GFM's kind 6).
  const row = () => `| ${Array.from({ length: cols }, (_, c) => (c > 0 && g.chance(0.1) ? `<table><tr><td>${g.word()}</td></tr></table>` : inlineText(g, 1))).join(' | ')} |`;
  const lines = [row(), `|${Array(cols).fill(g.pick([' --- ', '---', ':--', ' :-: '])).join('|')}|`];
  for (let i = g.int(1, 3); i > 0; i--) lines.push(row());
  return lines.map((line) => (g.chance(0.1) ? line.replace(/^\| /, '').replace(/ \|$/, '') : line));
}

function htmlTable(g: Gen): Lines {
  const cards = g.chance(0.3);
  const hidden = !cards && g.chance(0.3);
  const attrs = cards ? ' data-view="cards"' : hidden ? ' data-header-hidden' : '';
  const cols = g.int(2, 3);
  const head = `<thead><tr>${Array.from({ length: cols }, () => `<th>${g.word()}</th>`).join('')}</tr></thead>`;
  const rows = Array.from({ length: g.int(1, 2) }, () => `<tr>${Array.from({ length: cols }, () => `<td>${g.chance(0.3) ? `<strong>${g.word()}</strong>` : g.words(1, 2)}</td>`).join('')}</tr>`);
  if (g.chance(0.5)) return [`<table${attrs}>${head}<tbody>${rows.join('')}</tbody></table>`];
  // Spread over lines, sometimes with a blank line inside (an HTML block ends there in CommonMark).
  const lines = [`<table${attrs}>`, `  ${head}`, '  <tbody>', ...rows.map((r) => `    ${r}`), '  </tbody>', '</table>'];
  if (g.chance(0.3)) lines.splice(g.int(1, lines.length - 1), 0, '');
  return lines;
}

const table: BlockGen = (g) => (g.chance(0.5) ? pipeTable(g) : htmlTable(g));

const figure: BlockGen = (g) =>
  g.pick([
    [`<figure><img src="${g.word()}.png" alt=""><figcaption><p>${g.words(1, 2)}</p></figcaption></figure>`],
    [`<figure><img src="https://x.io/${g.word()}.png" alt="${g.word()}"><figcaption></figcaption></figure>`],
    [`![${g.word()}](${g.word()}.png)`],
    ['<figure>', `  <img src="${g.word()}.png" alt="">`, `  <figcaption>${g.words(1, 2)}</figcaption>`, '</figure>'],
  ]);

const embed: BlockGen = (g) => (g.chance(0.5) ? [tag('embed', `url="https://x.io/${g.word()}"`)] : wrapTag(g, 'embed', `url="https://x.io/${g.word()}"`, [g.words(1, 3)]));
const file: BlockGen = (g) => (g.chance(0.2) ? [tag('file', `src="${g.word()}.pdf"`)] : wrapTag(g, 'file', `src="${g.word()}.pdf"`, [g.words(1, 2)]));
const contentRef: BlockGen = (g) => {
  const name = g.word();
  return wrapTag(g, 'content-ref', `url="${name}.md"`, [`[${name}.md](${name}.md)`]);
};
const openapi: BlockGen = (g) => wrapTag(g, 'openapi-operation', `spec="${g.word()}" path="/${g.word()}" method="get"`, [`[OpenAPI ${g.word()}](https://x.io/spec.yaml)`]);
const unknownTag: BlockGen = (g) => g.pick([[tag('include', `"${g.word()}.md"`)], [tag('page-ref', `page="${g.word()}"`)], wrapTag(g, 'swagger', `src="x.yaml"`, [g.words(1, 2)])]);
const footnoteDef: BlockGen = (g) => [`[^${g.int(1, 3)}]: ${inlineText(g, 1)}`];
const linkDef: BlockGen = (g) => [`[${g.word()}]: https://x.io/${g.word()}${g.chance(0.3) ? ` "${g.word()}"` : ''}`];
const htmlBlock: BlockGen = (g) =>
  g.pick([
    [`<p>${g.words(1, 3)}</p>`],
    [`<div align="center">`, '', inlineText(g, 1), '', '</div>'],
    [`<p align="center">`, `  ${g.words(1, 2)}`, '</p>'],
    [`<!-- ${g.words(1, 2)} -->`],
    [`<img src="${g.word()}.png" width="200">`],
    // Directives written to be read (security notes, XML samples): a page cannot use them.
    [`<?php system($_GET['${g.word()}']); ?>`],
    ['<?php', `  echo ${g.word()};`, '?>'],
    [`<!DOCTYPE ${g.word()} [<!ENTITY ${g.word()} SYSTEM "file:///etc/passwd">]>`],
    [`<![CDATA[${g.words(1, 2)}]]>`],
    [`<!DOCTYPE ${g.word()} [`, `<!ENTITY ${g.word()} SYSTEM "file:///etc/hosts">`, ']>', `<${g.word()}>&${g.word()};</${g.word()}>`],
  ]);

/** Containers. */
const hint: BlockGen = (g, depth) =>
  wrapTag(g, 'hint', `style="${g.pick(['info', 'warning', 'danger', 'success', 'tip'])}"`, body(g, depth + 1, g.int(1, 2), HINT_CHILDREN));

const tabs: BlockGen = (g, depth) => {
  const items = Array.from({ length: g.int(1, 3) }, () => [...wrapTag(g, 'tab', `title="${g.word()}"`, body(g, depth + 1, g.int(1, 2))), ...gap(g)]);
  return wrapTag(g, 'tabs', '', items.flat());
};

const stepper: BlockGen = (g, depth) => {
  const items = Array.from({ length: g.int(1, 3) }, () => [...wrapTag(g, 'step', '', [`### ${g.words(1, 2)}`, '', ...body(g, depth + 1, g.int(1, 2))]), ...gap(g)]);
  return wrapTag(g, 'stepper', '', items.flat());
};

const updates: BlockGen = (g, depth) => {
  const items = Array.from({ length: g.int(1, 2) }, (_, i) => [...wrapTag(g, 'update', `date="2025-0${i + 1}-1${g.int(0, 9)}"`, [`## ${g.words(1, 2)}`, '', ...body(g, depth + 1, 1)]), ...gap(g)]);
  return wrapTag(g, 'updates', g.chance(0.5) ? 'format="full"' : '', items.flat());
};

const columns: BlockGen = (g, depth) => {
  const items = Array.from({ length: 2 }, () => [...wrapTag(g, 'column', g.chance(0.5) ? 'width="50%"' : '', body(g, depth + 1, g.int(1, 2))), ...gap(g)]);
  return wrapTag(g, 'columns', '', items.flat());
};

const details: BlockGen = (g, depth) => {
  const title = inlineText(g, 1);
  const summary = `<summary>${g.allows('backslash-before-tag') ? title : title.replace(/\\$/, '')}</summary>`;
  const inner = body(g, depth + 1, g.int(1, 2));
  const r = g.random();
  if (r < 0.15) return [`<details>${summary}`, '', ...inner, '', '</details>'];
  if (r < 0.25) return ['<details>', '', summary, '', ...inner, '', '</details>'];
  if (r < 0.3) return ['<details>', summary, ...inner, '</details>'];
  return ['<details>', '', summary, '', ...inner, '', '</details>'].map((line) => (line.startsWith('<') && g.chance(0.1) ? ' ' + line : line));
};

const quote: BlockGen = (g, depth) => {
  const inner = body(g, depth + 1, g.int(1, 2), QUOTE_CHILDREN);
  const lazy = g.allows('lazy-line') && g.chance(0.2);
  return inner.map((line, i) => (lazy && i > 0 && line.trim() !== '' && inner[i - 1].trim() !== '' && g.chance(0.5) ? line : line.trim() === '' ? (g.chance(0.7) && g.allows('quote-no-space') ? '>' : '> ') : `${g.pick(['> ', '> ', g.allows('quote-no-space') ? '>' : '> '])}${line}`));
};

const list: BlockGen = (g, depth) => {
  const ordered = g.chance(0.4);
  const bullet = g.pick(['-', '*', '+']);
  const delimiter = g.chance(0.2) ? ')' : '.';
  const start = g.chance(0.2) ? g.int(0, 3) : 1;
  const task = !ordered && g.chance(0.15);
  const loose = g.chance(0.3);
  const out: Lines = [];
  const count = g.int(1, 4);
  for (let i = 0; i < count; i++) {
    const marker = ordered ? `${g.chance(0.2) ? 1 : start + i}${delimiter}` : bullet;
    const space = g.chance(0.1) ? '  ' : g.chance(0.05) && g.allows('tab-after-marker') ? '\t' : ' ';
    const box = task ? g.pick(['[ ] ', '[x] ']) : '';
    const prefix = `${marker}${space}${box}`;
    const onMarker = BLOCKS_IN_ITEM.filter((gen) => g.allows('block-on-marker-line') || (gen !== list && gen !== quote));
    const blockOnBox = !task || g.allows('task-box-then-block');
    const first = blockOnBox && g.chance(0.2) && depth < 3 ? g.pick(onMarker)(g, depth + 1) : [inlineText(g)];
    const children = ITEM_CHILDREN;
    const rest = g.chance(0.35) && depth < 3 ? ['', ...body(g, depth + 1, g.int(1, 2), children)] : [];
    // Continuation indented to the content (the usual), or off by one, or by a tab.
    const content = g.allows('task-item-indent') ? prefix.length : prefix.length - box.length;
    const width = g.chance(0.15) && g.allows('indented-fence') ? g.pick([content - 1, content + 1, 4]) : content;
    const by = g.chance(0.05) ? '\t' : ' '.repeat(Math.max(1, width));
    out.push(prefix + first[0], ...indent([...first.slice(1), ...rest], by, g, true));
    if (loose && i < count - 1) out.push('');
  }
  const shift = g.allows('tag-indent-off') ? jitter(g).slice(0, 1) : '';
  return out.map((line) => (line.trim() === '' ? line : shift + line));
};

const LEAVES: [number, BlockGen][] = [
  [8, paragraph],
  [2, heading],
  [2, fence],
  [1, codeTag],
  [1, math],
  [1, divider],
  [2, table],
  [1, figure],
  [1, embed],
  [1, file],
  [1, contentRef],
  [1, unknownTag],
  [1, footnoteDef],
  [1, linkDef],
  [2, htmlBlock],
];
const CONTAINERS: [number, BlockGen][] = [
  [2, hint],
  [1, tabs],
  [1, stepper],
  [1, columns],
  [1, details],
  [2, quote],
  [3, list],
];
const TOP_ONLY: [number, BlockGen][] = [
  [1, updates],
  [1, openapi],
];
const HINT_CHILDREN: [number, BlockGen][] = [
  [8, paragraph],
  [1, heading],
  [1, fence],
  [1, list],
  [1, embed],
  [1, table],
];
const QUOTE_CHILDREN: [number, BlockGen][] = [
  [8, paragraph],
  [1, heading],
  [1, fence],
  [1, list],
  [1, codeTag],
];
const ITEM_CHILDREN: [number, BlockGen][] = [...LEAVES, [1, hint], [1, list], [1, quote]];
const BLOCKS_IN_ITEM: BlockGen[] = [fence, hint, quote, list, codeTag, figure, table];

/** The blank lines before the next block; a blank line after HTML unless those classes are wanted. */
function separator(g: Gen, before: Lines, blank: Lines): Lines {
  if (blank.some((line) => line.trim() === '')) return blank;
  const last = before[before.length - 1] ?? '';
  const html = /^\s*<\/?[a-z]/i.test(last) && !g.allows('html-block-no-blank');
  return html ? [''] : blank;
}

function pickWeighted(g: Gen, choices: [number, BlockGen][]): BlockGen {
  const total = choices.reduce((sum, [w]) => sum + w, 0);
  let r = g.random() * total;
  for (const [w, gen] of choices) {
    r -= w;
    if (r < 0) return gen;
  }
  return choices[choices.length - 1][1];
}

function body(g: Gen, depth: number, count: number, choices?: [number, BlockGen][]): Lines {
  const options = choices ?? (depth >= 3 ? LEAVES : [...LEAVES, ...CONTAINERS]);
  const out: Lines = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) out.push(...separator(g, out, g.chance(0.9) ? [''] : gap(g)));
    out.push(...pickWeighted(g, options)(g, depth));
  }
  return out;
}

/** Damage a page the way hand edits do: a tag left unclosed, an extra end tag, a fence left open. */
function damage(g: Gen, lines: Lines): Lines {
  const out = [...lines];
  if (!g.allows('unpaired-tag')) return out;
  const r = g.random();
  if (r < 0.05) {
    const i = out.findIndex((line) => /\{%\s*end\w+/.test(line));
    if (i >= 0) out.splice(i, 1);
  } else if (r < 0.08) {
    out.splice(g.int(0, out.length), 0, g.pick(['{% endhint %}', '{% endtab %}', '{% hint style="info" %}', '</details>', '<details>']));
  }
  return out;
}

/** One hand-written page: maybe front matter and a title, then blocks, in LF or CR LF. */
export function wildPage(seed: number, avoid: ReadonlySet<WildClass> = new Set()): string {
  const g = new Gen(seed, avoid);
  const lines: Lines = [];
  if (g.chance(0.2)) lines.push('---', `description: ${g.words(1, 3)}`, '---', '');
  if (g.chance(0.7)) lines.push(`# ${g.words(1, 3)}`, ...gap(g));
  const count = g.int(2, 7);
  for (let i = 0; i < count; i++) {
    if (i > 0) lines.push(...separator(g, lines, gap(g)));
    lines.push(...pickWeighted(g, [...LEAVES, ...CONTAINERS, ...TOP_ONLY])(g, 0));
  }
  const damaged = damage(g, lines);
  const trailing = damaged.map((line) => (line.trim() !== '' && g.chance(0.04) ? line + g.pick([' ', '  ', '\t']) : line));
  const text = trailing.join('\n') + (g.chance(0.8) ? '\n' : '');
  return g.chance(0.1) ? text.replace(/\n/g, '\r\n') : text;
}

export type WildFailure = 'throws' | 'unstable' | 'lost-words' | 'raw-markup';

export interface WildResult {
  failures: WildFailure[];
  missing: string[];
  leaks: string[];
  error?: string;
}

/** The corpus measure on one page (bench/corpus.ts `measureEngine`). */
export function measureWild(source: string): WildResult {
  try {
    const first = roundTrip(source);
    const second = roundTrip(first.markdown);
    const html = renderDocument(first.document).html;
    const missing = missingWords(source, html);
    const leaks = rawMarkup(source, html);
    const failures: WildFailure[] = [];
    if (second.markdown !== first.markdown) failures.push('unstable');
    if (missing.length > 0) failures.push('lost-words');
    if (leaks.length > 0) failures.push('raw-markup');
    return { failures, missing, leaks };
  } catch (error) {
    return { failures: ['throws'], missing: [], leaks: [], error: String((error as Error)?.stack ?? error) };
  }
}

/** The fewest lines of `source` (line-based ddmin) that still fail with `failure`. */
export function minimize(source: string, failure: WildFailure, budget = 3000): string {
  const crlf = source.includes('\r\n');
  const join = (lines: Lines) => lines.join(crlf ? '\r\n' : '\n') + '\n';
  const before = measureWild(source);
  const balanced = tagBalance(source);
  // The same failure, on the same words or leaks, and no tag left unpaired that the page paired:
  // a smaller page failing for another reason (an opening tag cut away) is not this case.
  const fails = (lines: Lines) => {
    if (budget-- <= 0) return false;
    const text = join(lines);
    if (tagBalance(text) !== balanced) return false;
    const after = measureWild(text);
    if (!after.failures.includes(failure)) return false;
    if (failure === 'lost-words') return after.missing.some((word) => before.missing.includes(word));
    if (failure === 'raw-markup') return after.leaks.some((leak) => before.leaks.includes(leak));
    return true;
  };
  let lines = source.split(crlf ? '\r\n' : '\n');
  let n = 2;
  while (lines.length >= 2 && budget > 0) {
    const size = Math.ceil(lines.length / n);
    let reduced = false;
    for (let start = 0; start < lines.length; start += size) {
      const complement = [...lines.slice(0, start), ...lines.slice(start + size)];
      if (complement.length > 0 && fails(complement)) {
        lines = complement;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= lines.length) break;
      n = Math.min(lines.length, n * 2);
    }
  }
  // Then ranges and pairs of lines (an opening tag with its end tag), which one-chunk removal keeps.
  for (let progress = true; progress && budget > 0; ) {
    progress = false;
    search: for (let i = 0; i < lines.length; i++) {
      for (let j = lines.length - 1; j > i; j--) {
        const range = [...lines.slice(0, i), ...lines.slice(j + 1)];
        const pair = [...lines.slice(0, i), ...lines.slice(i + 1, j), ...lines.slice(j + 1)];
        for (const candidate of [range, pair]) {
          if (candidate.length > 0 && fails(candidate)) {
            lines = candidate;
            progress = true;
            break search;
          }
        }
      }
    }
  }
  return join(lines);
}

/** The page's unpaired GitBook tags and fences, as a key: minimizing must not change them. */
function tagBalance(text: string): string {
  const counts = new Map<string, number>();
  for (const [, end, name] of text.matchAll(/\{%\s*(end)?([\w-]+)/g)) {
    if (!end && !/^(?:hint|tabs|tab|stepper|step|updates|update|columns|column|code|embed|file|content-ref|openapi-operation|swagger)$/.test(name)) continue;
    counts.set(name, (counts.get(name) ?? 0) + (end ? -1 : 1));
  }
  for (const [, close, name] of text.matchAll(/<(\/?)(details|summary|table|figure)\b/gi)) counts.set(name, (counts.get(name) ?? 0) + (close ? -1 : 1));
  const fences = (text.match(/^[ \t>*+\d.)-]*(?:`{3,}|~{3,})/gm) ?? []).length;
  return [...counts].filter(([, n]) => n !== 0).sort().join(',') + `|fences:${fences % 2}`;
}
