/*
 * Reading a repository laid out the way GitBook's Git Sync lays out a space
 * (docs/decisions/git-sync.md): `.gitbook.yaml` (root, structure.readme,
 * structure.summary, redirects), SUMMARY.md as the table of contents or, without one,
 * the folder tree; README.md as a folder's page; front matter as page metadata; files
 * pages point at (and everything under `.gitbook/assets/`) as space files; relative
 * links as references. No I/O of its own: the caller lists the tree and reads blobs.
 */
import { posix } from 'node:path';
import { loadOnUse } from '../../lib/load-on-use.ts';
import { readPageMarkdown, type PageMarkdown } from '../markdown/page.ts';
import { bindRelativePaths, caseInsensitiveIndex, mapRefs, readmeIndex, redirectKey, relativeFilePath, resolveRelative, type PathLookup } from '../markdown/paths.ts';
import { settleTables } from '../markdown/html-table.ts';
import { markupOf, type ContentRef, type Document } from '../markdown/types.ts';
import { decodeEntities, mapUrlAttributes } from '../markdown/syntax.ts';
import { slugFromTitle } from '../store/editor.ts';
import type { PageCover, PageMeta } from '../store/types.ts';
import { metaFromFrontMatter, otherFrontMatter, splitPageFile } from './front-matter.ts';
import { parseSummary, type SummaryEntry } from './summary.ts';

/** YAML is parsed only by some requests: loaded on first use (lib/load-on-use.ts). */
const yaml = loadOnUse<typeof import('yaml')>('yaml');

export interface RepositoryFile {
  /** Path from the repository's top. */
  path: string;
  oid: string;
}

export interface ReadLayoutInput {
  files: RepositoryFile[];
  /** repoProjectDirectory: where `.gitbook.yaml` (and by default the content) is. */
  projectDirectory?: string;
  /** Blob bytes by repository path (the text files: configuration, SUMMARY.md, pages). */
  read(paths: string[]): Promise<Map<string, Buffer>>;
  /** Reads a page's body (front matter split off); `path` names it in errors. Default: here, on this thread. */
  readPage?(body: string, path: string): Promise<PageMarkdown>;
}

/** Page references in documents read from git use this prefix before ids are known. */
export const GIT_REF = 'git:';

export interface LayoutPage {
  /** What identifies the page across imports: its file path, or a group's / link's title. */
  key: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  meta: Partial<PageMeta>;
  git?: { oid: string; path: string; frontMatter?: Record<string, unknown> };
  /** References to pages are `git:<path>`, to files `git:<path>` (see bindLayout). */
  document?: Document;
  target?: ContentRef;
  children: LayoutPage[];
}

export interface LayoutAsset {
  path: string;
  oid: string;
  name: string;
  contentType: string;
}

export interface GitLayout {
  /** Content root (repository path, '' for the top, else ending without a slash). */
  root: string;
  summaryPath: string;
  readmePath: string;
  /** SUMMARY.md as found, when there was one. */
  summary?: { oid: string; path: string; text: string };
  pages: LayoutPage[];
  assets: LayoutAsset[];
  redirects: Record<string, string>;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;
const MARKDOWN = /\.md$/i;

const clean = (p: string) => posix.normalize(p).replace(/^\.\/?$/, '').replace(/^\.\//, '').replace(/\/+$/, '');
const join = (...parts: string[]) => clean(posix.join(...parts.filter((p) => p !== '')));

/** Where `.gitbook.yaml` is for a project directory. */
export function gitbookConfigPath(projectDirectory: string | undefined): string {
  return join(clean(projectDirectory ?? ''), '.gitbook.yaml');
}

/**
 * Budgets of `.gitbook.yaml`, a configuration file: past MAX_CONFIG_BYTES it is not parsed
 * (read as a broken one: defaults), and redirects past MAX_REDIRECTS are ignored, so a
 * repository cannot make every import, and every page read through the redirects, costly.
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;
export const MAX_REDIRECTS = 10_000;

/** The content root, README and SUMMARY paths and redirects that `.gitbook.yaml` (if any) sets. */
export function layoutConfig(configText: string | undefined, projectDirectory: string | undefined) {
  const project = clean(projectDirectory ?? '');
  let config: Record<string, unknown> = {};
  if (configText !== undefined && Buffer.byteLength(configText) <= MAX_CONFIG_BYTES) {
    try {
      const parsed = yaml().parse(configText);
      if (parsed && typeof parsed === 'object') config = parsed as Record<string, unknown>;
    } catch {
      // A broken .gitbook.yaml is ignored, as GitBook does: defaults apply.
    }
  }
  const root = join(project, typeof config.root === 'string' ? config.root : '');
  const structure = (config.structure && typeof config.structure === 'object' ? config.structure : {}) as Record<string, unknown>;
  const readmePath = join(root, typeof structure.readme === 'string' ? structure.readme : 'README.md');
  const summaryPath = join(root, typeof structure.summary === 'string' ? structure.summary : 'SUMMARY.md');
  const redirects: Record<string, string> = {};
  if (config.redirects && typeof config.redirects === 'object') {
    let count = 0;
    for (const [from, to] of Object.entries(config.redirects as Record<string, unknown>)) {
      if (count >= MAX_REDIRECTS) break;
      const key = redirectKey(from);
      if (typeof to === 'string' && key !== '' && !Object.hasOwn(redirects, key)) {
        redirects[key] = to;
        count++;
      }
    }
  }
  return { root, readmePath, summaryPath, redirects };
}

/** Reads the repository's layout into a page tree, documents, assets and redirects. */
export async function readGitLayout(input: ReadLayoutInput): Promise<GitLayout> {
  const byPath = new Map(input.files.map((f) => [f.path, f]));
  const configPath = gitbookConfigPath(input.projectDirectory);
  const configText = byPath.has(configPath) ? ((await input.read([configPath])).get(configPath)?.toString('utf8') ?? '') : undefined;
  const { root, readmePath, summaryPath, redirects } = layoutConfig(configText, input.projectDirectory);

  const inRoot = (p: string) => root === '' || p.startsWith(root + '/');
  const markdownFiles = input.files.filter((f) => MARKDOWN.test(f.path) && inRoot(f.path) && f.path !== summaryPath && !f.path.startsWith(join(root, '.gitbook') + '/'));
  const texts = new Map<string, string>();
  const wanted = [...markdownFiles.map((f) => f.path), ...(byPath.has(summaryPath) ? [summaryPath] : [])];
  for (const [p, bytes] of await input.read(wanted)) texts.set(p, bytes.toString('utf8'));

  // The tree of files: from SUMMARY.md, else from the folders.
  interface Slot {
    kind: 'page' | 'group' | 'link';
    title?: string;
    /** A group's slug as its SUMMARY.md heading anchors it (made a slug as any title is: it is the repository's text). */
    slug?: string;
    path?: string;
    href?: string;
    children: Slot[];
  }
  let slots: Slot[];
  let summary: GitLayout['summary'];
  const summaryText = texts.get(summaryPath);
  if (summaryText !== undefined) {
    summary = { oid: byPath.get(summaryPath)!.oid, path: summaryPath, text: summaryText };
    const dir = posix.dirname(summaryPath) === '.' ? '' : posix.dirname(summaryPath);
    // An entry written on a case-insensitive file system (`readme.md` for README.md) is the
    // one file whose path matches it in any case; with two such files it names none.
    const fileNamed = caseInsensitiveIndex(input.files.map((f) => [f.path, f.path] as const));
    const toSlot = (e: SummaryEntry): Slot => {
      if (e.kind === 'page' && e.href) {
        const target = join(dir, e.href);
        const path = target.endsWith('/') || !MARKDOWN.test(target) ? join(target, 'README.md') : target;
        return { kind: 'page', title: e.title, path: fileNamed(path), children: e.children.map(toSlot) };
      }
      return { kind: e.kind, title: e.title, href: e.href, slug: e.slug, children: e.children.map(toSlot) };
    };
    const entries = parseSummary(summaryText);
    // A SUMMARY.md that gives no table of contents (no item, no group: a file some tool
    // overwrote, say) is read as none: the folders give the tree, rather than no page at all.
    // Its text is kept (`summary`), so an untouched export writes it back as it was.
    slots = entries.length > 0 ? entries.map(toSlot) : folderSlots(root, readmePath, markdownFiles.map((f) => f.path));
  } else {
    slots = folderSlots(root, readmePath, markdownFiles.map((f) => f.path));
  }

  // Pages by file path, so relative links can find them.
  const pagePaths = new Set<string>();
  const collect = (list: Slot[]) => list.forEach((s) => (s.path && pagePaths.add(s.path), collect(s.children)));
  collect(slots);
  // The root README is reached as `README.md` and as the content root's folder.
  const assets = new Map<string, RepositoryFile>();
  const assetsDir = join(root, '.gitbook/assets');
  for (const f of input.files) if (f.path.startsWith(assetsDir + '/')) assets.set(f.path, f);

  // Relative links are bound by the one rule (paths.ts resolveRelative) against the repository's pages and files.
  // A page moved by a `.gitbook.yaml` redirect (`old/path: new/file.md`) is found under its old path too.
  const redirected = (path: string): string | undefined => {
    const key = redirectKey(path, root);
    const to = Object.hasOwn(redirects, key) ? join(root, redirects[key]) : undefined;
    return to && pagePaths.has(to) ? to : undefined;
  };
  const readmeFile = readmeIndex([...pagePaths].map((p) => [p, p] as const));
  const lookup: PathLookup = {
    pageAt: (path) => {
      const found = pagePaths.has(path) ? path : (redirected(path) ?? readmeFile(path));
      return found ? GIT_REF + found : undefined;
    },
    fileAt: (path) => {
      const file = byPath.get(path);
      if (!file || MARKDOWN.test(path)) return undefined;
      assets.set(path, file);
      return GIT_REF + path;
    },
  };
  const resolve = (href: string, fromFile: string): ContentRef | null => resolveRelative(href, fromFile, lookup, root);

  // Every page's markdown is read first (by input.readPage: off the event loop, for an import job).
  const readPage = input.readPage ?? (async (body: string) => readPageMarkdown(body));
  const pageFiles = new Map<string, { data: Record<string, unknown>; page: PageMarkdown }>();
  for (const path of pagePaths) {
    const { data, body } = splitPageFile(texts.get(path) ?? '');
    pageFiles.set(path, { data, page: await readPage(body, path) });
  }
  const taken = new Set<string>();
  /** A page file's front matter and reading; the reading a copy when a SUMMARY lists the file twice, so the two pages share nothing. */
  const takeFile = (path: string) => {
    const file = pageFiles.get(path)!;
    if (!taken.has(path)) return (taken.add(path), file);
    return { data: file.data, page: structuredClone(file.page) };
  };

  const slugs = (list: LayoutPage[]) => {
    const taken = new Set<string>();
    for (const page of list) {
      let slug = page.slug || 'page';
      for (let n = 2; taken.has(slug); n++) slug = `${page.slug}-${n}`;
      taken.add(slug);
      page.slug = slug;
    }
  };

  const toPage = (slot: Slot, parentDir: string, isRoot: boolean): LayoutPage => {
    const children = slot.children.map((c) => toPage(c, parentDir, false));
    slugs(children);
    if (slot.kind === 'group') {
      return { key: `group:${slot.title ?? ''}`, type: 'group', title: slot.title || 'Group', slug: slugFromTitle(slot.slug ?? (slot.title || 'group')), meta: {}, children };
    }
    if (slot.kind === 'link') {
      return { key: `link:${slot.href}`, type: 'link', title: slot.title || slot.href || 'Link', slug: slugFromTitle(slot.title || 'link'), meta: {}, target: { kind: 'url', url: slot.href ?? '' }, children: [] };
    }
    if (!slot.path) {
      // A folder without README.md, or a SUMMARY item pointing at nothing: an empty page.
      const title = slot.title || 'Untitled';
      return { key: `empty:${title}`, type: 'document', title, slug: slugFromTitle(title), meta: {}, children };
    }
    const path = slot.path;
    const { data, page: { title: heading, document } } = takeFile(path);
    const coverRef = (value: string): PageCover['ref'] => {
      if (EXTERNAL.test(value)) return { kind: 'url', url: value };
      const ref = resolve(value, path);
      return ref?.kind === 'file' ? { kind: 'file', file: ref.file } : undefined;
    };
    const meta = metaFromFrontMatter(data, coverRef);
    // Each link keeps its href as written beside the reference it is bound to (bound-hrefs.ts).
    const resolved = bindRelativePaths(document, (href) => resolve(href, path), (ref) => gitHref(ref, path));
    // Files named only inside markup kept verbatim (HTML, unknown `{% tags %}`) are assets too: the published page links them.
    for (const markup of markupTexts(document.nodes)) for (const url of urlsInMarkup(markup)) resolve(url, path);
    const title = heading || slot.title || titleFromPath(path);
    const base = posix.basename(path).replace(MARKDOWN, '');
    const slugSource = /^readme$/i.test(base) ? (isRoot && path === readmePath ? title : posix.basename(posix.dirname(path))) : base;
    return {
      key: path,
      type: 'document',
      title,
      slug: slugFromTitle(slugSource === '.' ? title : slugSource),
      meta,
      git: { oid: byPath.get(path)!.oid, path, ...(otherFrontMatter(data) ? { frontMatter: otherFrontMatter(data) } : {}) },
      document: resolved,
      children,
    };
  };
  const pages = slots.map((s) => toPage(s, root, true));
  slugs(pages);

  // Assets are listed, not read: the caller streams their bytes to where they go.
  const assetList: LayoutAsset[] = [...assets.keys()].map((p) => ({
    path: p,
    oid: assets.get(p)!.oid,
    name: posix.basename(p),
    contentType: contentTypeOf(p),
  }));
  return { root, summaryPath, readmePath, summary, pages, assets: assetList, redirects };
}

/** The markup of every verbatim block of a document. */
function markupTexts(nodes: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    if (!node || typeof node !== 'object') continue;
    const block = node as { type?: string; data?: { integration?: string; url?: string }; nodes?: unknown[] };
    if (block.type === 'integration' && block.data) {
      const markup = markupOf(block as { data: { integration?: string; url?: string } });
      if (markup !== null) out.push(markup);
    }
    if (Array.isArray(block.nodes)) out.push(...markupTexts(block.nodes));
  }
  return out;
}

/** URLs of `href`/`src` attributes and markdown links in verbatim markup. */
export function urlsInMarkup(markup: string): string[] {
  const urls: string[] = [];
  mapUrlAttributes(markup, ({ whole, value }) => (urls.push(value), whole));
  for (const m of markup.matchAll(/\]\(\s*(?:<([^>]*)>|([^)\s]+))/g)) urls.push(decodeEntities(m[1] ?? m[2] ?? ''));
  return urls.filter(Boolean);
}

/** The page tree of a folder tree (no SUMMARY.md): README.md is a folder's page, files and folders by name. */
function folderSlots(root: string, readmePath: string, paths: string[]) {
  type Slot = { kind: 'page'; title?: string; path?: string; children: Slot[] };
  interface Folder {
    files: string[];
    folders: Map<string, Folder>;
  }
  const top: Folder = { files: [], folders: new Map() };
  for (const p of [...paths].sort()) {
    const rel = root === '' ? p : p.slice(root.length + 1);
    const parts = rel.split('/');
    let folder = top;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { files: [], folders: new Map() }));
      folder = next;
    }
    folder.files.push(p);
  }
  const isReadme = (p: string) => /(^|\/)readme\.md$/i.test(p);
  const childrenOf = (folder: Folder, dir: string): Slot[] => [
    ...folder.files.filter((p) => !isReadme(p)).map((p): Slot => ({ kind: 'page', path: p, children: [] })),
    ...[...folder.folders].map(([name, sub]): Slot => {
      const subDir = join(dir, name);
      const readme = sub.files.find(isReadme);
      return { kind: 'page', title: name, path: readme, children: childrenOf(sub, subDir) };
    }),
  ];
  const slots = childrenOf(top, root);
  const rootReadme = top.files.find((p) => p === readmePath) ?? top.files.find(isReadme);
  if (rootReadme) slots.unshift({ kind: 'page', path: rootReadme, children: [] });
  return slots;
}

function titleFromPath(path: string): string {
  const base = posix.basename(path).replace(MARKDOWN, '');
  const name = /^readme$/i.test(base) ? posix.basename(posix.dirname(path)) : base;
  const words = (name === '.' || name === '' ? 'Introduction' : name).replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  txt: 'text/plain',
  csv: 'text/csv',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
};

export function contentTypeOf(path: string): string {
  const ext = posix.extname(path).slice(1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

/** The href a `git:` reference is written with from the page in `fromFile` once bound (paths.ts relativeHref). */
function gitHref(ref: ContentRef, fromFile: string): string | null {
  if ((ref.kind === 'page' || ref.kind === 'anchor') && ref.page?.startsWith(GIT_REF)) {
    const target = ref.page.slice(GIT_REF.length);
    if (ref.kind === 'anchor' && target === fromFile) return `#${ref.anchor}`;
    return relativeFilePath(fromFile, target) + (ref.kind === 'anchor' ? `#${ref.anchor}` : '');
  }
  return ref.kind === 'file' && ref.file.startsWith(GIT_REF) ? relativeFilePath(fromFile, ref.file.slice(GIT_REF.length)) : null;
}

/** Replaces `git:` page and file references with ids; what has none becomes the relative path again. */
export function bindDocument(document: Document, pageIdOf: (path: string) => string | undefined, fileIdOf: (path: string) => string | undefined): Document {
  // A table link cell left as a URL cannot be held by GitBook's schema: that table stays verbatim.
  return settleTables(mapRefs(document, (ref) => {
    if ((ref.kind === 'page' || ref.kind === 'anchor') && ref.page?.startsWith(GIT_REF)) {
      const id = pageIdOf(ref.page.slice(GIT_REF.length));
      return id ? { ...ref, page: id } : { kind: 'url', url: ref.page.slice(GIT_REF.length) };
    }
    if (ref.kind === 'file' && ref.file.startsWith(GIT_REF)) {
      const id = fileIdOf(ref.file.slice(GIT_REF.length));
      return id ? { kind: 'file', file: id } : { kind: 'url', url: ref.file.slice(GIT_REF.length) };
    }
    return ref;
  }));
}
