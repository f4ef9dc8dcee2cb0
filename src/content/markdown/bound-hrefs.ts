/*
 * The written href of a bound link. A relative link (`../x/y.md`, `y.md#usage`, `./`) that
 * reading binds to a page or file reference loses how it was written: writing the page
 * back gives the canonical relative path (`folder/README.md` for `folder/`, `y.md` for
 * `./y.md`). The document keeps the hrefs it bound, in order (`data.boundHrefs`), and the
 * writer gives a reference back the first kept href that still resolves to it from the
 * page's file (the one rule, paths.ts resolveRelative); a reference whose page moved, or a
 * link edited to point elsewhere, has none and is written in the canonical form.
 */
import type { ContentRef, Document } from './types.ts';

/** The identity of a bound reference: what a kept href has to resolve to again. */
export function boundTarget(ref: ContentRef): string | null {
  if ('space' in ref && ref.space) return null;
  if (ref.kind === 'page') return `page\u0000${ref.page}`;
  if (ref.kind === 'anchor' && ref.page) return `anchor\u0000${ref.page}\u0000${ref.anchor}`;
  if (ref.kind === 'file') return `file\u0000${ref.file}`;
  return null;
}

/** The hrefs a document bound, in order. */
export function boundHrefsOf(document: Document): readonly string[] {
  const kept = document.data?.boundHrefs;
  return Array.isArray(kept) ? kept.filter((h): h is string => typeof h === 'string') : [];
}

/** `document` with the hrefs `bound` (in document order) kept; an empty list keeps what it had. */
export function withBoundHrefs(document: Document, bound: readonly string[]): Document {
  if (bound.length === 0) return document;
  return { ...document, data: { ...document.data, boundHrefs: [...bound] } };
}

/**
 * The kept href for each bound reference of a page, as the writer asks for them:
 * `resolve` reads a kept href from the page's file as it stands now. Each kept href is
 * given once, to the first reference it resolves to.
 */
export function writtenHrefs(document: Document, resolve: (href: string) => ContentRef | null): (ref: ContentRef) => string | null {
  const kept = boundHrefsOf(document);
  if (kept.length === 0) return () => null;
  const free = new Map<string, string[]>();
  for (const href of kept) {
    const ref = resolve(href);
    const target = ref && boundTarget(ref);
    if (!target) continue;
    const list = free.get(target);
    if (list) list.push(href);
    else free.set(target, [href]);
  }
  return (ref) => {
    const target = boundTarget(ref);
    return (target && free.get(target)?.shift()) ?? null;
  };
}
