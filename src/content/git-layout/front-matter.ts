/*
 * The YAML front matter of a page file: GitBook keeps the page metadata there
 * (`description`, `icon`, `cover`, `coverY`, `layout`, `hidden`).
 */
import { loadOnUse } from '../../lib/load-on-use.ts';
import { splitFrontMatter } from '../markdown/front-matter.ts';
import type { PageCover, PageLayout, PageMeta } from '../store/types.ts';

/** YAML is parsed only by some requests: loaded on first use (lib/load-on-use.ts). */
const yaml = loadOnUse<typeof import('yaml')>('yaml');

/**
 * Splits a page file into its front matter (parsed) and its markdown body, the one rule for
 * where front matter is (markdown/front-matter.ts); the blank line GitBook writes under it is
 * the file's, not the body's. Front matter YAML does not parse is text GitBook would show: body.
 */
export function splitPageFile(text: string): { data: Record<string, unknown>; body: string } {
  const { data, body } = splitFrontMatter(text);
  return { data, body: body === text ? text : body.replace(/^\r?\n/, '') };
}

/** The front matter keys that are page metadata; any other key is kept as it was read. */
const KNOWN_KEYS = new Set(['description', 'icon', 'hidden', 'cover', 'coverY', 'layout']);

/** Front matter keys Quire does not model (kept with the page's git metadata and written back). */
export function otherFrontMatter(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const other = Object.fromEntries(Object.entries(data).filter(([key]) => !KNOWN_KEYS.has(key)));
  return Object.keys(other).length > 0 ? other : undefined;
}

type LayoutFlag = 'title' | 'description' | 'tableOfContents' | 'outline' | 'pagination';
const FLAGS: LayoutFlag[] = ['title', 'description', 'tableOfContents', 'outline', 'pagination'];

/** Page metadata from front matter; `cover` is handed to `coverRef` to become a file or URL reference. */
export function metaFromFrontMatter(data: Record<string, unknown>, coverRef: (value: string) => PageCover['ref']): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  if (typeof data.description === 'string' && data.description.trim()) meta.description = data.description.trim().slice(0, 500);
  if (typeof data.icon === 'string' && data.icon.trim()) meta.icon = data.icon.trim();
  if (data.hidden === true) meta.hidden = true;
  if (typeof data.cover === 'string' && data.cover.trim()) {
    const ref = coverRef(data.cover.trim());
    if (ref) meta.cover = { ref, yPos: typeof data.coverY === 'number' ? data.coverY : 0 };
  }
  const layout = data.layout;
  if (layout && typeof layout === 'object') {
    const l = layout as Record<string, unknown>;
    const out: Partial<PageLayout> = {};
    if (l.width === 'wide' || l.width === 'default') out.width = l.width;
    const cover = l.cover as Record<string, unknown> | undefined;
    if (cover && typeof cover === 'object') {
      if (typeof cover.visible === 'boolean') out.cover = cover.visible;
      if (cover.size === 'hero' || cover.size === 'full') out.coverSize = cover.size;
    }
    for (const flag of FLAGS) {
      const v = l[flag] as Record<string, unknown> | undefined;
      if (v && typeof v === 'object' && typeof v.visible === 'boolean') out[flag] = v.visible;
    }
    if (Object.keys(out).length > 0) meta.layout = out;
  }
  return meta;
}

/**
 * Front matter for page metadata ('' when there is none), in GitBook's key order, then the
 * keys Quire does not model as they were read (`git.frontMatter`).
 */
export function frontMatterOf(meta: Partial<PageMeta>, coverPath: (ref: NonNullable<PageCover['ref']>) => string | undefined): string {
  const data: Record<string, unknown> = {};
  if (meta.description) data.description = meta.description;
  if (meta.icon) data.icon = meta.icon;
  if (meta.cover?.ref) {
    const path = coverPath(meta.cover.ref);
    if (path) {
      data.cover = path;
      data.coverY = meta.cover.yPos ?? 0;
    }
  }
  if (meta.layout && Object.keys(meta.layout).length > 0) {
    const l = meta.layout;
    const layout: Record<string, unknown> = {};
    if (l.width) layout.width = l.width;
    if (l.cover !== undefined || l.coverSize) layout.cover = { ...(l.cover !== undefined ? { visible: l.cover } : {}), ...(l.coverSize ? { size: l.coverSize } : {}) };
    for (const flag of FLAGS) if (l[flag] !== undefined) layout[flag] = { visible: l[flag] };
    if (Object.keys(layout).length > 0) data.layout = layout;
  }
  if (meta.hidden) data.hidden = true;
  for (const [key, value] of Object.entries(meta.git?.frontMatter ?? {})) if (!KNOWN_KEYS.has(key)) data[key] = value;
  if (Object.keys(data).length === 0) return '';
  return `---\n${yaml().stringify(data, { lineWidth: 0 })}---\n\n`;
}
