/*
 * GitBook's HTML form of a hint: `<div data-gb-custom-block data-tag="hint" data-style="warning"
 * class="hint hint-warning"><p>…</p></div>`, one line. GitBook writes it where its `{% hint %}`
 * tag did not fit (in a list item's indented content). Read as the hint block it stands for;
 * the page keeps the line as written (written-form.ts), a new hint is written as the tag.
 */
import { readHtmlTag } from './syntax.ts';
import { HINT_STYLES, type HintBlock, type HintStyle, type InlineContent, type ParagraphBlock } from './types.ts';

const HINT = /^(<div\s[^>]*>)((?:<p>[\s\S]*?<\/p>)+)<\/div>$/i;

/** The hint block a one-line `<div data-gb-custom-block data-tag="hint">` stands for; null when it is not one. */
export function readHtmlHint(html: string, readInlineMarkdown: (markdown: string) => InlineContent[]): HintBlock | null {
  const match = HINT.exec(html);
  if (!match) return null;
  const tag = readHtmlTag(match[1]);
  if (!tag || tag.name !== 'div' || !('data-gb-custom-block' in tag.attrs) || tag.attrs['data-tag'] !== 'hint') return null;
  const style = (tag.attrs['data-style'] ?? 'info') as HintStyle;
  if (!HINT_STYLES.has(style)) return null;
  const bodies = [...match[2].matchAll(/<p>([\s\S]*?)<\/p>/gi)].map((p) => p[1]);
  // A `<p>` body holding another block's tags is not a paragraph: such a hint stays as written.
  if (bodies.some((body) => /<\/?(?:p|div|table|ul|ol|pre|figure)[\s>]/i.test(body))) return null;
  const nodes: ParagraphBlock[] = bodies.map((body) => ({ object: 'block', type: 'paragraph', data: {}, nodes: readInlineMarkdown(body.trim()) }));
  return { object: 'block', type: 'hint', data: { style }, nodes };
}
