import type { ImageBlock, InlineContent, InlineImage } from './types.ts';

/**
 * What an image says to a reader who cannot see it: its own alt text when it has one, else
 * its caption, which GitBook's document model treats as the image's description. Every
 * renderer of images (the published site's `alt`, the PDF's stand-in for an image it cannot
 * draw) asks here, so they agree. Empty only for an image with neither (decorative).
 */
export function imageDescription(image: ImageBlock | InlineImage): string {
  const alt = image.data?.alt?.trim();
  if (alt) return alt;
  if (image.type === 'inline-image') return oneLine(image.data?.caption ?? '');
  const caption = (image.fragments ?? []).find((f) => f.fragment === 'caption');
  return oneLine((caption?.nodes ?? []).map((paragraph) => textOf(paragraph.nodes ?? [])).join(' '));
}

/** The words of inline content (text and link text; marks, math and icons dropped). */
function textOf(nodes: readonly InlineContent[]): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves ?? []) out += leaf.text ?? '';
    else if (node.type === 'link') out += textOf(node.nodes ?? []);
  }
  return out;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
