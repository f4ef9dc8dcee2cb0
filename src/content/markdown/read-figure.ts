/*
 * GitBook's figures (`<figure><img><figcaption>`, in a `<div align>` or `<picture>` for a dark
 * variant) and the image blocks markdown images become: read-block.ts's, apart for its size.
 */
import { isEmptyContent, leaf, paragraph, textNode } from './leaves.ts';
import { firstSrc } from './read-inline.ts';
import { imageRefFromSrc } from './refs.ts';
import { quoteAttribute, splitHtml, type HtmlTag } from './syntax.ts';
import type { BlockContext } from './read-block.ts';
import type { ImageBlock, ImageRef, ImagesBlock, InlineContent } from './types.ts';

/** `<figure><img …><figcaption>…</figcaption></figure>`, optionally in a `<div align …>`; null when no image. */
export function readFigure(html: string, ctx: Pick<BlockContext, 'readInlineMarkdown'>): ImagesBlock | null {
  const parts = splitHtml(html);
  const result: ImageBlock[] = [];
  const data: ImagesBlock['data'] = {};
  let dark: ImageRef | undefined;
  let inPicture = false;
  let caption: string | null = null;
  let captionTarget: ImageBlock | null = null;
  for (const part of parts) {
    if (caption !== null) {
      if ('tag' in part && part.tag.name === 'figcaption' && part.tag.closing) {
        if (captionTarget) setCaption(captionTarget, ctx.readInlineMarkdown(stripParagraphs(caption)), true);
        caption = null;
      } else caption += 'tag' in part ? rawTag(part.tag) : part.text;
      continue;
    }
    if (!('tag' in part)) continue;
    const tag = part.tag;
    if (tag.name === 'div' && !tag.closing) readFigureWrapper(tag, data);
    else if (tag.name === 'picture') inPicture = !tag.closing;
    else if (tag.name === 'source' && inPicture && /dark/i.test(tag.attrs.media ?? '')) dark = imageRefFromSrc(firstSrc(tag.attrs.srcset ?? ''));
    else if (tag.name === 'img') {
      // A figure has a caption, empty until its `<figcaption>` says otherwise (a markdown image has none).
      captionTarget = image(imageRefFromSrc(tag.attrs.src ?? ''), dark, tag.attrs.alt ?? '', [], true);
      const width = Number(tag.attrs.width);
      if (tag.attrs.width && Number.isFinite(width) && width > 0) captionTarget.data.width = width;
      result.push(captionTarget);
      dark = undefined;
    } else if (tag.name === 'figcaption' && !tag.closing) caption = '';
  }
  return result.length > 0 ? images(result, data) : null;
}

function readFigureWrapper(tag: HtmlTag, data: ImagesBlock['data']): void {
  const align = tag.attrs.align?.toLowerCase();
  if (align === 'left' || align === 'right' || align === 'center') data.align = align;
  if (tag.attrs['data-with-frame'] === 'true') data.withFrame = true;
  if (tag.attrs['data-full-width'] === 'true') data.fullWidth = true;
  // GitBook writes `data-full-width="false"` for a figure set back to the page width: kept.
  if (tag.attrs['data-full-width'] === 'false') data.fullWidth = false;
}

function rawTag(tag: HtmlTag): string {
  const attrs = Object.entries(tag.attrs).map(([k, v]) => ` ${k}=${quoteAttribute(v)}`).join('');
  return `<${tag.closing ? '/' : ''}${tag.name}${attrs}>`;
}

function stripParagraphs(html: string): string {
  return html.replace(/<\/?p>/gi, ' ').trim();
}

export function image(ref: ImageRef, dark: ImageRef | undefined, alt: string, caption: InlineContent[], figure: boolean): ImageBlock {
  const data: ImageBlock['data'] = { ref };
  if (dark) data.refDark = dark;
  if (alt) data.alt = alt;
  const block: ImageBlock = { object: 'block', type: 'image', isVoid: true, data, fragments: [] };
  setCaption(block, caption, figure);
  return block;
}

/** A figure's caption fragment is there even when empty (GitBook's editor always has one); a markdown image has none. */
function setCaption(block: ImageBlock, caption: InlineContent[], figure: boolean): void {
  block.fragments = isEmptyContent(caption) && !figure ? [] : [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(isEmptyContent(caption) ? [textNode([leaf('')])] : caption)] }];
}

export function images(nodes: ImageBlock[], data: ImagesBlock['data']): ImagesBlock {
  return { object: 'block', type: 'images', isVoid: false, data, nodes };
}
