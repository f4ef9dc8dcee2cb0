import { lookupOf, missingPagePath, resolveRelative, type SpacePaths } from '../../content/markdown/paths.ts';
import { snapshotLayout } from '../../content/store/layout.ts';
import type { AppDeps } from '../../context.ts';
import { loadSnapshot } from '../../content/store/snapshot.ts';
import type { ContentRef, PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { type RenderLinks } from '../../site/render-document.ts';
import { safeUrl } from '../../site/html.ts';
import type { PlacedSiteSpace, Structure } from './reader-structure.ts';

/* Where links of a page and of the customization lead on a published site, for one visitor's structure. */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Spaces a document's page and anchor references name (other than its own). */
function referencedSpaces(value: unknown, own: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) referencedSpaces(item, own, into);
  } else if (isPlainObject(value)) {
    if ((value.kind === 'page' || value.kind === 'anchor') && typeof value.space === 'string' && value.space !== own) into.add(value.space);
    for (const child of Object.values(value)) if (child && typeof child === 'object') referencedSpaces(child, own, into);
  }
}

/** Snapshots of the site spaces that references name (the current one included). */
export async function snapshotsFor(
  deps: Deps,
  structure: Structure,
  current: PlacedSiteSpace,
  snapshot: RevisionSnapshot,
  refs: unknown[],
): Promise<Map<string, RevisionSnapshot>> {
  const snapshots = new Map<string, RevisionSnapshot>([[current.row.space_id, snapshot]]);
  const spaces = new Set<string>();
  referencedSpaces(refs, current.row.space_id, spaces);
  for (const spaceId of spaces) {
    const placed = structure.siteSpaces.find((s) => s.row.space_id === spaceId);
    if (placed?.row.revision_id) snapshots.set(spaceId, await loadSnapshot(deps.db, spaceId, placed.row.revision_id));
  }
  return snapshots;
}

/** The site space showing a space: the current one when it does, else the first. */
function placedFor(structure: Structure, current: PlacedSiteSpace, spaceId: string | undefined): PlacedSiteSpace | undefined {
  if (!spaceId || spaceId === current.row.space_id) return current;
  return structure.siteSpaces.find((s) => s.row.space_id === spaceId);
}

export function linksFor(structure: Structure, current: PlacedSiteSpace, snapshots: Map<string, RevisionSnapshot>, sign?: (fileId: string) => { url: string; name: string } | null): RenderLinks {
  return {
    page(pageId, spaceId) {
      const placed = placedFor(structure, current, spaceId);
      if (!placed) return null;
      const node = snapshots.get(placed.row.space_id)?.byId.get(pageId);
      const landing = node && landingPage(node);
      return landing ? `${placed.base}${landing.path}` : null;
    },
    pageTitle(pageId, spaceId) {
      const placed = placedFor(structure, current, spaceId);
      return (placed && snapshots.get(placed.row.space_id)?.byId.get(pageId)?.entry.title) || null;
    },
    space(spaceId) {
      return placedFor(structure, current, spaceId)?.base ?? null;
    },
    file(fileId, spaceId) {
      if (spaceId && spaceId !== current.row.space_id) return null;
      return sign ? sign(fileId) : null;
    },
  };
}

/**
 * Every page's and file's path in a revision's layout (content/markdown/paths.ts spacePaths): a
 * page or file git sync imported at its path in git, any other at the path its slugs give
 * (`a/b.md`, `a/README.md`; files in `.gitbook/assets/`), as links are bound and read back.
 */
const layoutPaths = new WeakMap<RevisionSnapshot, SpacePaths>();

function layoutOf(snapshot: RevisionSnapshot): SpacePaths {
  let paths = layoutPaths.get(snapshot);
  if (!paths) {
    paths = snapshotLayout(snapshot);
    layoutPaths.set(snapshot, paths);
  }
  return paths;
}

/**
 * Where a URL written relative to a page's file leads on the site (RenderLinks.relative), for
 * git-synced pages and pages made through the API alike: resolved by the rule links are bound
 * with (content/markdown/paths.ts resolveRelative) from the page's file in the revision's
 * layout, to the page or file of the space at that path; and which of them name a markdown
 * file that is no page of the space (RenderLinks.unresolved, paths.ts missingPagePath).
 * null when the page has no file.
 */
export function relativeLinks(
  snapshot: RevisionSnapshot,
  pageId: string,
  base: string,
  sign?: (fileId: string) => { url: string; name: string } | null,
): Required<Pick<RenderLinks, 'relative' | 'unresolved'>> | null {
  const paths = layoutOf(snapshot);
  const fromFile = paths.fileOfPage(pageId);
  if (!fromFile) return null;
  const lookup = lookupOf(paths);
  // Each href is resolved once for both answers (a page's links, at most).
  const resolved = new Map<string, ContentRef | null>();
  const resolve = (href: string): ContentRef | null => {
    let ref = resolved.get(href);
    if (ref === undefined) resolved.set(href, (ref = resolveRelative(href, fromFile, lookup, paths.root)));
    return ref;
  };
  /** A relative URL naming a group with no page to land on: the group's path in the layout (shown as the link's title, no href). */
  const emptyGroupPath = (href: string): string | null => {
    const ref = resolve(href);
    const node = ref?.kind === 'page' || ref?.kind === 'anchor' ? snapshot.byId.get(ref.page as string) : undefined;
    return node?.entry.type === 'group' && !landingPage(node) ? (paths.fileOfPage(node.entry.id) ?? null) : null;
  };
  return {
    relative: (href) => {
      const ref = resolve(href);
      if (ref?.kind === 'page' || ref?.kind === 'anchor') {
        // A link entry has a slug path but no page to open: a folder link naming it leads nowhere.
        const node = snapshot.byId.get(ref.page as string);
        const landing = node && node.entry.type !== 'link' ? landingPage(node) : null;
        return landing ? `${base}${landing.path}${ref.kind === 'anchor' ? `#${ref.anchor}` : ''}` : null;
      }
      return ref?.kind === 'file' && sign ? (sign(ref.file)?.url ?? null) : null;
    },
    unresolved: (href) => missingPagePath(href, fromFile, resolve, paths.root) ?? emptyGroupPath(href),
  };
}

/**
 * The page a reference to `node` opens: the page itself, or for a group (a SUMMARY.md
 * heading, no content and no address of its own) its first visible page, as GitBook
 * resolves a link to a group and as the group's path redirects (published.service
 * readPage); null for a group holding none, whose address is a 404.
 */
export function landingPage(node: PageNode): PageNode | null {
  return node.entry.type === 'group' ? (firstPage(node.children) ?? null) : node;
}

/** The first page a visitor lands on: the first visible document page, depth first. */
export function firstPage(nodes: PageNode[]): PageNode | undefined {
  for (const node of nodes) {
    if (node.entry.hidden) continue;
    if (node.entry.type === 'document') return node;
    const inner = firstPage(node.children);
    if (inner) return inner;
  }
  return undefined;
}

/** A customization link target (`to`): a URL, or a page or space on this site. */
export function resolveRef(ref: unknown, structure: Structure, current: PlacedSiteSpace, snapshots: Map<string, RevisionSnapshot>): string | null {
  if (!isPlainObject(ref)) return null;
  const r = ref as ContentRef;
  const links = linksFor(structure, current, snapshots);
  switch (r.kind) {
    case 'url':
      return safeUrl(r.url);
    case 'page':
      return links.page(r.page, r.space);
    case 'anchor':
      return r.page ? (links.page(r.page, r.space) ?? '') + `#${encodeURIComponent(r.anchor)}` : `#${encodeURIComponent(r.anchor)}`;
    case 'space':
      return links.space(r.space);
    default:
      return null;
  }
}
