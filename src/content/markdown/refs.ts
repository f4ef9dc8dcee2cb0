/*
 * Link targets in markdown <-> GitBook content references.
 *
 * GitBook's API writes references to its own content as root-relative paths: `/pages/<id>`,
 * `/files/<id>`, `#anchor`. The same forms are read back, plus space-qualified ones
 * (`/spaces/<space>/pages/<id>`) and a few others so that every `ContentRef` kind has one
 * href and reading it gives the same reference. Anything else is a URL and is kept verbatim
 * (relative `.md` paths included: resolving those needs the page tree, which callers have).
 */
import type { ContentRef, ContentRefFile, ImageRef } from './types.ts';

const SEGMENT = '([^/#?\\s]+)';
const PATTERNS: Array<[RegExp, (m: RegExpExecArray, anchor: string | null) => ContentRef]> = [
  [new RegExp(`^/spaces/${SEGMENT}/pages/([^#?\\s]+)$`), (m, a) => (a ? { kind: 'anchor', anchor: a, page: m[2], space: m[1] } : { kind: 'page', page: m[2], space: m[1] })],
  [new RegExp(`^/pages/([^#?\\s]+)$`), (m, a) => (a ? { kind: 'anchor', anchor: a, page: m[1] } : { kind: 'page', page: m[1] })],
  [new RegExp(`^/spaces/${SEGMENT}/files/${SEGMENT}$`), (m) => ({ kind: 'file', file: m[2], space: m[1] })],
  [new RegExp(`^/files/${SEGMENT}$`), (m) => ({ kind: 'file', file: m[1] })],
  [new RegExp(`^/spaces/${SEGMENT}$`), (m, a) => (a ? { kind: 'anchor', anchor: a, space: m[1] } : { kind: 'space', space: m[1] })],
  [new RegExp(`^/collections/${SEGMENT}$`), (m) => ({ kind: 'collection', collection: m[1] })],
  [new RegExp(`^/users/${SEGMENT}$`), (m) => ({ kind: 'user', user: m[1] })],
  [new RegExp(`^/openapi/${SEGMENT}$`), (m) => ({ kind: 'openapi', spec: m[1] })],
  [new RegExp(`^/reusable-content/${SEGMENT}$`), (m) => ({ kind: 'reusable-content', reusableContent: m[1] })],
];

/** The content reference a link target stands for. */
export function refFromHref(href: string): ContentRef {
  if (href.startsWith('#') && href.length > 1) return { kind: 'anchor', anchor: href.slice(1) };
  const hash = href.indexOf('#');
  const path = hash >= 0 ? href.slice(0, hash) : href;
  const anchor = hash >= 0 && hash < href.length - 1 ? href.slice(hash + 1) : null;
  if (hash >= 0 && !anchor) return { kind: 'url', url: href };
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(path);
    if (!match) continue;
    const ref = build(match, anchor);
    // Only pages and spaces take an anchor; `/files/x#y` stays a URL.
    if (anchor && ref.kind !== 'anchor') return { kind: 'url', url: href };
    return ref;
  }
  return { kind: 'url', url: href };
}

/** The link target written for a content reference; `refFromHref` reads it back. */
export function hrefFromRef(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return pagePath(ref.page, ref.space);
    case 'anchor':
      return (ref.page ? pagePath(ref.page, ref.space) : ref.space ? `/spaces/${ref.space}` : '') + '#' + ref.anchor;
    case 'file':
      return (ref.space ? `/spaces/${ref.space}` : '') + `/files/${ref.file}`;
    case 'space':
      return `/spaces/${ref.space}`;
    case 'collection':
      return `/collections/${ref.collection}`;
    case 'user':
      return `/users/${ref.user}`;
    case 'openapi':
      return `/openapi/${ref.spec}`;
    case 'reusable-content':
      return `/reusable-content/${ref.reusableContent}`;
    case 'tag':
      return `#${ref.tag}`;
  }
}

function pagePath(page: string, space: string | undefined): string {
  return (space ? `/spaces/${space}` : '') + `/pages/${page}`;
}

/** An image source: a `/files/<id>` path is an uploaded file, anything else a URL. */
export function imageRefFromSrc(src: string): ImageRef {
  const ref = refFromHref(src);
  return ref.kind === 'file' ? ref : { kind: 'url', url: src };
}

/** A file block's source: `/files/<id>`, or any other path kept as the file's name for callers to resolve. */
export function fileRefFromSrc(src: string): ContentRefFile {
  const ref = refFromHref(src);
  return ref.kind === 'file' ? ref : { kind: 'file', file: src };
}

/** The `src` written for a file block: `/files/<id>`, or the kept path when the file is not an id. */
export function srcFromFileRef(ref: ContentRefFile): string {
  return /^[^/#?\s]+$/.test(ref.file) ? hrefFromRef(ref) : ref.file;
}

/** GitBook labels a relative content-ref (and a link cell) with the file name it points at; other targets with themselves. */
export function contentRefLabel(href: string): string {
  return /^(?:[a-z][a-z0-9+.-]*:|\/|#)/i.test(href) ? href : href.split('#')[0].split('/').pop() || href;
}
