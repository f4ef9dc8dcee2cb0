/*
 * Relative paths as GitBook's page markdown writes them (`../blocks/hint.md#usage`,
 * `.gitbook/assets/x.png`, `{% content-ref url="a/README.md" %}`) <-> page and file
 * references. A page's markdown file is `<slug path>.md`, or `<slug path>/README.md` when
 * the page has subpages; uploaded files live in `.gitbook/assets/<name>` at the space root.
 * Reading keeps what resolves to nothing as written (the link report calls it broken).
 */
import { posix } from 'node:path';
import type { ContentRef, Document, TableBlock } from './types.ts';
import { filesAsIds, filesAsRefs, settleTables } from './html-table.ts';
import { boundHrefsOf, withBoundHrefs, writtenHrefs } from './bound-hrefs.ts';

/** Where pages and files of a space are, by path and by id. */
export interface SpacePaths {
  /** The markdown file path of a page (`a/b.md`, `a/README.md`). */
  fileOfPage(pageId: string): string | undefined;
  /** The page whose markdown file is `path` (`a/b.md`), if any. */
  pageAt(path: string): string | undefined;
  /** The page of a folder's README written with its name in another spelling (readmeIndex; `guides/ReadMe.md`). */
  readmeAt(path: string): string | undefined;
  /** An uploaded file by name / the name of a file by id. */
  fileNamed(name: string): string | undefined;
  /** The file at a path: its git path, or `.gitbook/assets/<name>`. */
  fileAtPath(path: string): string | undefined;
  nameOfFile(fileId: string): string | undefined;
  /** Where a file is: its git path, else `.gitbook/assets/<name>`. */
  pathOfFile(fileId: string): string | undefined;
  /** The page a `.gitbook.yaml` redirect of the space sends a path of the layout to (git sync stored them as page ids). */
  redirectedPage(path: string): string | undefined;
  /**
   * The content root git sync read the pages from (`.gitbook.yaml` `root:`, '' for the
   * repository's top): `/path` links and `..` of those pages are read from it, as at import.
   */
  root: string;
}

export const ASSETS_DIR = '.gitbook/assets';

/**
 * The key a `.gitbook.yaml` redirect is found by: an old address or a file path relative to
 * the content root (`root`, taken off a path of the layout under it) without slashes around
 * it, `.md` or `/README.md` (`/old/page/`, `old/page.md` and `old/page/README.md` are all
 * `old/page`). The one rule for redirect keys: git sync reads `.gitbook.yaml`'s with it, links
 * and the published site look paths up with it.
 */
export function redirectKey(path: string, root = ''): string {
  const inRoot = root !== '' && path.startsWith(root + '/') ? path.slice(root.length + 1) : path;
  return inRoot.replace(/^\/+|\/+$/g, '').replace(/(?:(?:^|\/)README)?\.md$/i, '');
}

/**
 * Builds SpacePaths from a page tree (id, slug, children) and a file list. A page or file
 * git sync imported keeps the path it had in git (`file`, `path`): links are read and
 * written against the layout the repository has, not the one its slugs would give.
 * `redirects` are the space's `.gitbook.yaml` redirects as git sync stored them (redirectKey
 * -> page id): a link to an old path leads to the page, at import and on every read after.
 */
export function spacePaths(
  tree: readonly PathNode[],
  files: readonly { id: string; name: string; path?: string }[],
  redirects: Readonly<Record<string, string>> = {},
): SpacePaths {
  const fileOf = new Map<string, string>();
  const pageOf = new Map<string, string>();
  let root = '';
  const gitFiles = (nodes: readonly PathNode[]) => {
    for (const node of nodes) {
      if (node.file && !pageOf.has(node.file)) pageOf.set(node.file, node.id);
      if (node.file && node.root && !root) root = node.root;
      gitFiles(node.children);
    }
  };
  gitFiles(tree);
  const walk = (nodes: readonly PathNode[], dir: string) => {
    for (const node of nodes) {
      const path = dir ? `${dir}/${node.slug}` : node.slug;
      const hasChildren = node.children.length > 0;
      const file = node.file ?? (hasChildren ? `${path}/README.md` : `${path}.md`);
      fileOf.set(node.id, file);
      // Either form finds the page: links written before the page got subpages still resolve.
      for (const alias of [file, `${path}.md`, `${path}/README.md`]) if (!pageOf.has(alias)) pageOf.set(alias, node.id);
      walk(node.children, path);
    }
  };
  walk(tree, '');
  // The space's README.md is its first page (GitBook's landing page), whatever its slug.
  if (!pageOf.has('README.md') && tree[0]) pageOf.set('README.md', tree[0].id);
  const byName = new Map<string, string>();
  const byPath = new Map<string, string>();
  const pathOf = new Map<string, string>();
  const nameOf = new Map<string, string>();
  for (const f of files) {
    if (!byName.has(f.name)) byName.set(f.name, f.id);
    const path = f.path ?? `${ASSETS_DIR}/${f.name}`;
    if (!byPath.has(path)) byPath.set(path, f.id);
    pathOf.set(f.id, path);
    nameOf.set(f.id, f.name);
  }
  // Indexed at the first README link of another spelling, once for the space's paths (a lookup is made per page).
  let readmes: ((path: string) => string | undefined) | undefined;
  return {
    fileOfPage: (id) => fileOf.get(id),
    pageAt: (path) => pageOf.get(path),
    readmeAt: (path) => (readmes ??= readmeIndex(pageOf))(path),
    fileNamed: (name) => byName.get(name),
    fileAtPath: (path) => byPath.get(path) ?? (path.startsWith(ASSETS_DIR + '/') ? byName.get(path.slice(ASSETS_DIR.length + 1)) : undefined),
    nameOfFile: (id) => nameOf.get(id),
    pathOfFile: (id) => pathOf.get(id),
    redirectedPage: (path) => {
      const key = redirectKey(path, root);
      const id = Object.hasOwn(redirects, key) ? redirects[key] : undefined;
      return id !== undefined && fileOf.has(id) ? id : undefined;
    },
    root,
  };
}

export interface PathNode {
  id: string;
  slug: string;
  /** The page's markdown file where git sync found it, if it did. */
  file?: string;
  /** The content root git sync read that file under, when not the repository's top. */
  root?: string;
  children: readonly PathNode[];
}

/** A URL of another site, or a fragment of this page: never a path of the layout. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

/** What a relative link is resolved against: the page and the file (not a page) at a path of the layout, by id. */
export interface PathLookup {
  /** The page at a path; a folder's README page under any spelling of the README name too (readmeIndex). */
  pageAt(path: string): string | undefined;
  fileAt(path: string): string | undefined;
}

/**
 * A path written percent-encoded, decoded name by name: `C%23.md` is `C#.md` and `r%26d.md`
 * is `r&d.md` (decodeURI leaves the characters URLs reserve encoded). A name that is not
 * valid percent-encoding is kept as written. The one rule for a link's path (links, SUMMARY.md).
 */
export function decodePath(path: string): string {
  if (!path.includes('%')) return path;
  return path
    .split('/')
    .map((name) => {
      try {
        return decodeURIComponent(name);
      } catch {
        return name;
      }
    })
    .join('/');
}

/**
 * A relative path from a folder, as GitBook resolves it: like a URL, so `..` above the
 * repository's top stays at the top (`../../.gitbook/assets/x.png` from `guides/` is
 * `.gitbook/assets/x.png`); `.` is the top.
 */
export function clampedPath(fromDir: string, target: string): string {
  const full = posix.normalize(posix.join(fromDir || '.', target)).replace(/\/+$/, '');
  const clamped = full.replace(/^(?:\.\.(?:\/|$))+/, '');
  return clamped === '' ? '.' : clamped;
}

/**
 * The one rule for a relative link of the page whose markdown file is `fromFile` (git sync's
 * import, the change-request batch, the published site's verbatim markup): read like a URL
 * (query aside, percent-decoded, `..` clamped at the top of the content root), a folder (`dir/`, `./`, or a path
 * naming no file) is its `README.md` (the lookup reads that name case-insensitively, as
 * GitBook does: readmeIndex) or, with none, the page `dir.md` (a page's published address
 * written as the link), a `.md` path is a page, any other path a file; an
 * `#anchor` is kept on a page and names nothing on a file. A path from the top (`/a/b.md`,
 * as GitHub reads it) starts at the content root `root` (`/` is its README, the space's
 * first page). The root applies to a page whose file is
 * under it (a page git sync read); another page's file is a path of the layout from the
 * top. null when it names nothing.
 */
export function resolveRelative(href: string, fromFile: string, lookup: PathLookup, contentRoot = ''): ContentRef | null {
  const to = relativeTarget(href, fromFile, contentRoot);
  if (!to) return null;
  const { full, target, inner, anchor } = to;
  const readme = full === '.' ? 'README.md' : `${full}/README.md`;
  const page = (path: string): ContentRef | null => {
    const id = lookup.pageAt(path);
    if (!id) return null;
    return anchor ? { kind: 'anchor', page: id, anchor } : { kind: 'page', page: id };
  };
  if (/\.md$/i.test(full)) return page(full);
  // A folder's README, else the page whose file the name gives with `.md`: the address GitBook
  // publishes that page at, which is how a link written as a URL (`setup#install`) reaches it there.
  const folder = () => page(readme) ?? (target !== '' && inner !== '.' ? page(`${full}.md`) : null);
  if (target === '' || target.endsWith('/') || inner === '.') return folder();
  const file = anchor ? undefined : lookup.fileAt(full);
  return file ? { kind: 'file', file } : folder();
}

/**
 * A relative link naming a markdown file (`other.md`) or a folder (`dir/`, `dir`: its
 * README.md) that is no page of the space: that file's path in the layout; null for any
 * other link. GitBook imports only the pages SUMMARY.md lists, so a link to a repository's
 * markdown file SUMMARY.md leaves out (or to one the repository lacks) is not a link to a
 * page of the space (decision of issue 31): the published site shows its text with no href
 * (never an href ending in `.md`, never a 404 link), while the markdown read back and the git
 * export keep the link as written. A path with another extension (`tool.py`) names a file,
 * not a page: left to the caller. `resolve` is resolveRelative for that page (a caller
 * resolving each href once passes its memo).
 */
export function missingPagePath(href: string, fromFile: string, resolve: (href: string) => ContentRef | null, contentRoot = ''): string | null {
  const to = relativeTarget(href, fromFile, contentRoot);
  if (!to) return null;
  const markdown = /\.md$/i.test(to.full);
  const folder = to.target === '' || to.target.endsWith('/') || to.inner === '.' || !/\.[^/.]+$/.test(to.full);
  if (!markdown && !folder) return null;
  if (resolve(href)) return null;
  return markdown ? to.full : to.full === '.' ? 'README.md' : `${to.full}/README.md`;
}

/** A relative link read like a URL (resolveRelative): its path in the layout (`.` the top), as written, and its anchor. */
function relativeTarget(href: string, fromFile: string, contentRoot: string) {
  if (href === '' || EXTERNAL.test(href)) return null;
  const root = contentRoot !== '' && fromFile.startsWith(contentRoot + '/') ? contentRoot : '';
  const rooted = href.startsWith('/');
  const hash = href.indexOf('#');
  const anchor = hash >= 0 ? href.slice(hash + 1) : '';
  const rawPath = (hash >= 0 ? href.slice(0, hash) : href).replace(/\?.*$/, '').replace(/^<|>$/g, '');
  const target = decodePath(rawPath);
  // Resolved within the content root: `..` stops at its top.
  const inRoot = root !== '' ? fromFile.slice(root.length + 1) : fromFile;
  const dir = rooted || posix.dirname(inRoot) === '.' ? '' : posix.dirname(inRoot);
  const inner = clampedPath(dir, rooted ? target.slice(1) : target || '.');
  const full = inner === '.' ? root || '.' : root ? `${root}/${inner}` : inner;
  return { full, target, inner, anchor };
}

/**
 * Names read as a case-insensitive file system reads them: a name is the entry of that name,
 * else the one entry whose name has the same `fold` (lower case by default); two or more
 * such entries (of distinct values) leave it naming none, rather than a guess. Built once
 * over the entries. The one rule for another spelling of a path: git sync's SUMMARY.md
 * entries (git-layout/read.ts) and a folder's README name (readmeIndex).
 */
export function caseInsensitiveIndex<T>(entries: Iterable<readonly [string, T]>, fold: (name: string) => string = (name) => name.toLowerCase()): (name: string) => T | undefined {
  const exact = new Map<string, T>();
  const folded = new Map<string, T | typeof AMBIGUOUS>();
  for (const [name, value] of entries) {
    if (!exact.has(name)) exact.set(name, value);
    const key = fold(name);
    const seen = folded.get(key);
    folded.set(key, seen === undefined || seen === value ? value : AMBIGUOUS);
  }
  return (name) => {
    if (exact.has(name)) return exact.get(name);
    const value = folded.get(fold(name));
    return value === AMBIGUOUS ? undefined : value;
  };
}

const AMBIGUOUS = Symbol('ambiguous');
const README_NAME = /(?:^|\/)readme\.md$/i;

/**
 * A folder's README page under any spelling of its name (`guides/readme.md`, `guides/ReadMe.Md`
 * for `guides/README.md`, or the other way round): GitBook reads the README name
 * case-insensitively; the folder is read as written. `pages` are the page paths of a layout
 * with what they name; a PathLookup's pageAt answers through it.
 */
export function readmeIndex<T>(pages: Iterable<readonly [string, T]>): (path: string) => T | undefined {
  const readmes: (readonly [string, T])[] = [];
  for (const entry of pages) if (README_NAME.test(entry[0])) readmes.push(entry);
  const foldName = (path: string) => path.slice(0, path.length - 'readme.md'.length) + 'readme.md';
  const find = caseInsensitiveIndex(readmes, foldName);
  return (path) => (README_NAME.test(path) ? find(path) : undefined);
}

/** The relative path GitBook writes for a reference from the page in `pageFile`; null when it has none (another space, unknown id). */
export function relativeHref(ref: ContentRef, pageFile: string, pageId: string, paths: SpacePaths): string | null {
  if ('space' in ref && ref.space) return null;
  const rel = (to: string) => relativeFilePath(pageFile, to);
  if (ref.kind === 'page' || (ref.kind === 'anchor' && ref.page)) {
    const target = paths.fileOfPage(ref.page as string);
    if (!target) return null;
    const anchor = ref.kind === 'anchor' ? `#${ref.anchor}` : '';
    if (ref.page === pageId && anchor) return anchor;
    return rel(target) + anchor;
  }
  if (ref.kind === 'file') {
    const path = paths.pathOfFile(ref.file);
    return path ? rel(path) : null;
  }
  return null;
}

const REF_KINDS = new Set(['url', 'page', 'anchor', 'file', 'space', 'collection', 'user', 'openapi', 'reusable-content', 'tag', 'synced-block']);

/** `holder` is the type of the node holding the reference (`link`, `image`, `file`, ...). */
type Visit = (ref: ContentRef, holder: string) => ContentRef;

/** Maps every content reference of a document (links, images, content-refs, files), returning a new document. */
export function mapRefs(document: Document, visit: Visit): Document {
  const walk = (value: unknown, holder: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, holder));
    if (!value || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    // A button's data has a `kind` too (primary, secondary): only a ContentRef kind is a reference.
    if (typeof object.kind === 'string' && object.object === undefined && REF_KINDS.has(object.kind)) return visit(object as unknown as ContentRef, holder);
    // A table's files cells hold file ids: visited as file references (html-table.ts).
    if (object.object === 'block' && object.type === 'table') return filesAsIds(walkObject(filesAsRefs(object as unknown as TableBlock) as unknown as Record<string, unknown>, 'table') as unknown as TableBlock);
    const type = typeof object.object === 'string' && typeof object.type === 'string' ? object.type : holder;
    return walkObject(object, type);
  };
  const walkObject = (object: Record<string, unknown>, type: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(object)) out[k] = walk(v, type);
    return out;
  };
  return walk(document, 'document') as Document;
}

/**
 * Reading: relative links and asset paths of the page in `pageFile` become page, anchor and
 * file references; what resolves to nothing stays as written. Given `hasPage`, a page
 * reference naming no page of the space is read as GitBook's API reads `/pages/<x>`: a
 * path from the top (`guides/setup`, `guides/setup.md`, `guides/README.md`; `README.md`
 * is the first page).
 */
export function resolveDocumentPaths(document: Document, pageFile: string, paths: SpacePaths, hasPage?: (id: string) => boolean): Document {
  const lookup = lookupOf(paths);
  const pageId = paths.pageAt(pageFile) ?? '';
  const canonical = (ref: ContentRef) => relativeHref(ref, pageFile, pageId, paths);
  return settleTables(bindRelativePaths(document, (path) => resolveRelative(path, pageFile, lookup, paths.root), canonical, (ref) => {
    if (!hasPage || !isPathOfPage(ref, hasPage)) return null;
    const page = ref.kind === 'page' || ref.kind === 'anchor' ? (ref.page as string) : '';
    const id = /\.md$/i.test(page) ? paths.pageAt(page) : (paths.pageAt(`${page}.md`) ?? paths.pageAt(`${page}/README.md`));
    return id ? { ...ref, page: id } : ref;
  }));
}

/**
 * Binds every relative path of a document (a relative URL, a file block's path) with
 * `resolve`, keeping the hrefs bound as written (bound-hrefs.ts) so the page is written
 * back the way it was: kept only when one of them is not the `canonical` href of what it
 * binds (every one then, so the writer gives them back in order); `other` may map any
 * other reference first (null: unchanged).
 */
export function bindRelativePaths(
  document: Document,
  resolve: (path: string) => ContentRef | null,
  canonical: (ref: ContentRef) => string | null,
  other?: (ref: ContentRef) => ContentRef | null,
): Document {
  const bound: string[] = [];
  let differs = false;
  const mapped = mapRefs(document, (ref) => {
    const mappedOther = other?.(ref);
    if (mappedOther) return mappedOther;
    const path = relativePathOf(ref);
    const to = path === null ? null : resolve(path);
    if (!to || path === null) return ref;
    bound.push(path);
    differs ||= canonical(to) !== path;
    return to;
  });
  return differs ? withBoundHrefs(mapped, [...boundHrefsOf(document), ...bound]) : mapped;
}

/** A path relative to the folder of `fromFile`, as GitBook writes it (`../a/b.md`). */
export function relativeFilePath(fromFile: string, to: string): string {
  const dir = posix.dirname(fromFile);
  return encodeURI(posix.relative(dir === '.' ? '' : dir, to));
}

/** A page reference of this space whose id names no page (a path given as `/pages/<path>`). */
function isPathOfPage(ref: ContentRef, hasPage: (id: string) => boolean): boolean {
  return (ref.kind === 'page' || ref.kind === 'anchor') && !ref.space && typeof ref.page === 'string' && !hasPage(ref.page);
}

/**
 * How resolveRelative finds a space's pages and files by path in its layout (uploaded files
 * in `.gitbook/assets/<name>`, where GitBook's markdown puts them); a page under an old
 * path `.gitbook.yaml` redirects; a folder's README page by any spelling of its name.
 */
export function lookupOf(paths: SpacePaths): PathLookup {
  return {
    pageAt: (path) => paths.pageAt(path) ?? paths.redirectedPage(path) ?? paths.readmeAt(path),
    fileAt: (path) => paths.fileAtPath(path),
  };
}

/** The path a reference may stand for relative to its page: a relative URL, or a file block's `src` that is a path, not an id (refs.ts keeps it in `file`). */
function relativePathOf(ref: ContentRef): string | null {
  if (ref.kind === 'url') return ref.url !== '' && !EXTERNAL.test(ref.url) ? ref.url : null;
  if (ref.kind === 'file' && !ref.space && /[/.]/.test(ref.file)) return ref.file;
  return null;
}

/** Whether resolveDocumentPaths could change anything: callers skip building the space's paths when not. */
export function holdsRelativePaths(document: Document, hasPage?: (id: string) => boolean): boolean {
  let found = false;
  mapRefs(document, (ref) => {
    found ||= relativePathOf(ref) !== null || (!!hasPage && isPathOfPage(ref, hasPage));
    return ref;
  });
  return found;
}

/** Writing: page, anchor and file references of this space as relative paths from the page in `pageFile`. */
export function relativeDocumentPaths(document: Document, pageFile: string, pageId: string, paths: SpacePaths): Document {
  // A bound link keeps its href as written while that still leads to the same page or file.
  const lookup = lookupOf(paths);
  const written = writtenHrefs(document, (href) => resolveRelative(href, pageFile, lookup, paths.root));
  return mapRefs(document, (ref, holder) => {
    if (ref.kind !== 'page' && ref.kind !== 'anchor' && ref.kind !== 'file') return ref;
    const href = written(ref) ?? relativeHref(ref, pageFile, pageId, paths);
    if (href === null) return ref;
    // A file block keeps a path in its `file` field (refs.ts writes it back as `src`).
    return (holder === 'file' || holder === 'drawing') && ref.kind === 'file' ? { kind: 'file', file: href } : { kind: 'url', url: href };
  });
}

/**
 * Writing: a mention shows its page's title (GitBook writes `[Title](page.md "mention")`), so
 * each mention of a page gets the current title as its label; call before the references
 * become relative paths. A mention read with its text (`text`) is written with it and gets no
 * label: one would change nothing written, and would make its blocks differ from the ones
 * whose written form the page keeps (their table or paragraph was then written anew).
 */
export function labelMentions(document: Document, titleOfPage: (pageId: string) => string | undefined): Document {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const object = value as Record<string, unknown>;
    if (object.object === 'inline' && object.type === 'mention') {
      const data = object.data as { ref: ContentRef; label?: string; text?: string };
      if (data.text !== undefined) return object;
      const page = (data.ref.kind === 'page' || data.ref.kind === 'anchor') && !data.ref.space ? data.ref.page : undefined;
      const title = page ? titleOfPage(page) : undefined;
      return title === undefined ? object : { ...object, data: { ...data, label: title } };
    }
    if (object.object === 'leaf') return value;
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, walk(v)]));
  };
  return walk(document) as Document;
}
