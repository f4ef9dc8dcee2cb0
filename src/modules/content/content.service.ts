import { createHash } from 'node:crypto';
import type { AppDeps, Context } from '../../context.ts';
import { computedDocument } from '../../content/openapi/computed.ts';
import { specsForPage } from '../openapi-specs/openapi-specs.references.ts';
import { decodePageCursor, pageWith, type PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { HeadMoved, retryingTransaction } from '../../db/retry.ts';
import { isoNow } from '../../lib/clock.ts';
import { reuseUnlessChanged, type Depend } from '../../db/read-cache.ts';
import { writePageMarkdown, resolveVariables, type Document } from '../../content/markdown/index.ts';
import { labelMentions, relativeDocumentPaths, type SpacePaths } from '../../content/markdown/paths.ts';
import { snapshotLayout } from '../../content/store/layout.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import { BLOB_AREA } from '../../content/store/blobs.ts';
import type { DownloadTarget, FileStream } from '../../files/types.ts';
import { RevisionEditor } from '../../content/store/editor.ts';
import { derivedCache, loadDocuments, loadSnapshot } from '../../content/store/snapshot.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { fileUrlSigner } from './content.file-urls.ts';
import { findTemplate, SPACE_TEMPLATES } from '../../content/templates.ts';
import { spacePolicy } from '../../access/index.ts';
import { loadChangeRequest, loadSpace } from '../../access/index.ts';
import { spacesRepository } from '../spaces/spaces.repository.ts';
import type { FileResult, PageBodies, PageBody, PageResult, PagesResult, RevisionRead, RevisionResult } from './content.model.ts';
import { contentRepository } from './content.repository.ts';
import { changeRequestsRepository } from '../change-requests/change-requests.repository.ts';

/** How a read was asked for (query parameters shared by every content read). */
export interface ReadOptions {
  revisionId?: string;
  shareKey?: string;
  metadata?: boolean;
  computed?: boolean;
}

export interface PageReadOptions extends ReadOptions {
  format?: 'document' | 'markdown';
  evaluated?: boolean | 'deterministic-only';
}

/**
 * Applies edits to a space's current revision as one new revision and moves the space to
 * it (the content service: tests build content with it; change requests will too).
 * Compare-and-set on the space's revision: a concurrent edit makes this one retry on top
 * of it, so no edit is lost.
 */
export async function editSpaceContent(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>,
  spaceId: string,
  userId: string | null,
  edit: (editor: RevisionEditor) => unknown,
): Promise<string> {
  return retryingTransaction(deps.db, async (trx) => {
    const space = await spacesRepository.findActive(trx, spaceId);
    if (!space) throw notFound('Space');
    const editor = await RevisionEditor.open(trx, spaceId, space.revision_id, deps.clock, deps.files);
    await edit(editor);
    const next = await editor.commit(trx, { createdBy: userId });
    if (!(await spacesRepository.advanceRevision(trx, spaceId, space.revision_id, next, isoNow(deps.clock)))) throw new HeadMoved();
    return next;
  });
}

/** The space (access checked) and the revision a read is about: the current one, or the one named. */
async function revisionFor(ctx: Context, spaceId: string, options: ReadOptions, depend?: Depend): Promise<RevisionSnapshot> {
  const { space } = await loadSpace(ctx, spaceId, options.shareKey, depend);
  // Evaluated computed pages are made from the organization's specs (readPage).
  depend?.(`openapi:${space.organization_id}`);
  const revisionId = options.revisionId ?? (space.revision_id as string);
  return loadSnapshot(ctx.db, spaceId, revisionId);
}

const EMPTY_DOCUMENT: Document = { object: 'document', data: {}, nodes: [] };

/** Every page of a subtree (or of the whole revision). */
function subtree(nodes: PageNode[]): PageNode[] {
  const all: PageNode[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop() as PageNode;
    all.push(node);
    stack.push(...node.children);
  }
  return all;
}

/** The document pages a page's wire object shows a body for: it and its subpages, through groups, not under links. */
function documentPages(nodes: readonly PageNode[], into: PageNode[] = []): PageNode[] {
  for (const node of nodes) {
    if (node.entry.type === 'link') continue;
    if (node.entry.type !== 'group') into.push(node);
    documentPages(node.children, into);
  }
  return into;
}

/**
 * The bodies of these pages (and their subpages) in one format, by page id: documents
 * loaded in a few queries, variables resolved when asked, markdown written when asked.
 */
async function pageBodies(
  ctx: Context,
  snapshot: RevisionSnapshot,
  nodes: PageNode[],
  format: 'document' | 'markdown',
  evaluated: boolean,
): Promise<PageBodies> {
  const all = subtree(nodes);
  const hashes = all.map((n) => n.entry.document).filter((h): h is string => h !== undefined);
  const documents = await loadDocuments<Document>(ctx.db, snapshot.revision.spaceId, hashes);
  // Computed pages (builtin:openapi) are expanded from their spec's latest version when evaluated.
  const computedSpecs = evaluated ? all.flatMap((n) => (n.entry.computed ? [n.entry.computed.dependencies.spec.ref.spec] : [])) : [];
  const specs = computedSpecs.length > 0 ? await specsForPage(ctx.db, snapshot.revision.spaceId, computedSpecs) : undefined;
  // Links to an old path `.gitbook.yaml` redirects are written as they were (git sync stored the redirects).
  const redirects = format === 'markdown' ? await storeRepository.gitRedirects(ctx.db, snapshot.revision.spaceId) : {};
  const bodyOf = (node: PageNode): PageBody => {
    let doc = (node.entry.document && documents.get(node.entry.document)) || EMPTY_DOCUMENT;
    const computed = node.entry.computed;
    if (computed && specs) doc = computedDocument(specs.model(computed.dependencies.spec.ref.spec), computed.dependencies.spec.ref.spec, computed.props);
    if (evaluated) doc = resolveVariables(doc, variablesOf(snapshot, node));
    if (format === 'document') return { document: doc };
    // GitBook's page markdown: links to pages and files of the space as paths relative to the page's own file.
    const paths = revisionPaths(snapshot, redirects);
    const pageFile = paths.fileOfPage(node.entry.id);
    doc = labelMentions(doc, (id) => snapshot.byId.get(id)?.entry.title);
    return { markdown: writePageMarkdown(pageFile ? relativeDocumentPaths(doc, pageFile, node.entry.id, paths) : doc) };
  };
  return new Map(documentPages(nodes).map((node) => [node.entry.id, bodyOf(node)]));
}

/**
 * Every page's and file's path in a revision (a walk of all its pages), with the space's
 * `.gitbook.yaml` redirects: once per revision and redirects (an import may change only them).
 */
function revisionPaths(snapshot: RevisionSnapshot, redirects: Readonly<Record<string, string>>): SpacePaths {
  // The redirects go in the key as a digest: `.gitbook.yaml` may hold many.
  const digest = createHash('sha256').update(JSON.stringify(redirects)).digest('base64url');
  const key = `paths\u0000${snapshot.revision.spaceId}\u0000${snapshot.revision.id}\u0000${digest}`;
  let paths = derivedCache.get(key) as SpacePaths | undefined;
  if (!paths) derivedCache.set(key, (paths = snapshotLayout(snapshot, redirects)));
  return paths;
}

/** Content reads of a change request: of its head revision, once the caller may see it. */
export async function readChangeRequest<T>(
  ctx: Context,
  spaceId: string,
  idOrNumber: string,
  read: (revisionId: string) => T | Promise<T>,
): Promise<T> {
  const { cr } = await loadChangeRequest(ctx, spaceId, idOrNumber);
  return read(cr.revision_id);
}

/**
 * GET {S}/content and GET {S}/revisions/{revisionId}: cached per revision (it never
 * changes); a merge revision carries the change request it merged, as that is now.
 */
export async function getRevision(ctx: Context, spaceId: string, options: ReadOptions): Promise<RevisionRead> {
  const snapshot = await revisionFor(ctx, spaceId, options);
  const revision = await cachedRevision(ctx, snapshot, options);
  const cr = snapshot.revision.mergedFrom ? await changeRequestsRepository.find(ctx.db, spaceId, snapshot.revision.mergedFrom) : undefined;
  if (!cr) return { revision };
  const users = await changeRequestsRepository.usersById(ctx.db, [cr.created_by, cr.merged_by]);
  return { revision, mergedFrom: { changeRequest: cr, users } };
}

async function cachedRevision(ctx: Context, snapshot: RevisionSnapshot, options: ReadOptions): Promise<RevisionResult> {
  const spaceId = snapshot.revision.spaceId;
  const metadata = options.metadata !== false;
  const key = `revision\u0000${ctx.config.publicUrl}\u0000${snapshot.revision.id}\u0000${metadata}`;
  const cached = derivedCache.get(key) as RevisionResult | undefined;
  if (cached) return cached;
  const url = await fileUrlSigner(ctx, spaceId);
  const bodies = await pageBodies(ctx, snapshot, snapshot.pages, 'document', false);
  const files = snapshot.files.map((file): FileResult => ({ file, downloadURL: url(file), metadata }));
  const revision: RevisionResult = { snapshot, files, bodies, metadata };
  derivedCache.set(key, revision);
  return revision;
}

/** GET {S}/content/pages and GET {S}/revisions/{revisionId}/pages: cached per revision. */
export async function listPages(ctx: Context, spaceId: string, options: ReadOptions): Promise<PagesResult> {
  const snapshot = await revisionFor(ctx, spaceId, options);
  const metadata = options.metadata !== false;
  const key = `pages\u0000${ctx.config.publicUrl}\u0000${snapshot.revision.id}\u0000${metadata}`;
  const cached = derivedCache.get(key) as PagesResult | undefined;
  if (cached) return cached;
  const bodies = await pageBodies(ctx, snapshot, snapshot.pages, 'document', false);
  const pages: PagesResult = { spaceId, pages: snapshot.pages, bodies, metadata };
  derivedCache.set(key, pages);
  return pages;
}

/** GET {S}/content/files: the revision's files by id, in pages (keyset on the id). */
export async function listFiles(ctx: Context, spaceId: string, options: ReadOptions, page: PageRequest) {
  const snapshot = await revisionFor(ctx, spaceId, options);
  const url = await fileUrlSigner(ctx, spaceId);
  const ordered = [...snapshot.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let start = 0;
  if (page.page) {
    const after = decodeFileCursor(page.page);
    start = ordered.findIndex((f) => f.id > after);
    if (start < 0) start = ordered.length;
  }
  const items = ordered.slice(start, start + page.limit);
  const more = start + page.limit < ordered.length;
  const metadata = options.metadata !== false;
  return pageWith(
    items.map((file): FileResult => ({ file, downloadURL: url(file), metadata })),
    ordered.length,
    more ? { f: items[items.length - 1].id } : undefined,
  );
}

function decodeFileCursor(page: string): string {
  return decodePageCursor(page, (c): c is { f: string } => typeof c.f === 'string').f;
}

/** GET {S}/content/files/{fileId} */
export async function getFile(ctx: Context, spaceId: string, fileId: string, options: ReadOptions): Promise<FileResult> {
  const snapshot = await revisionFor(ctx, spaceId, options);
  const file = snapshot.filesById.get(fileId);
  if (!file) throw notFound('File');
  const url = await fileUrlSigner(ctx, spaceId);
  return { file, downloadURL: url(file), metadata: options.metadata !== false };
}

/** The variables a page's expressions may use: the space's, then the page's own. */
function variablesOf(snapshot: RevisionSnapshot, node: PageNode): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.revision.variables)) values[`space.vars.${name}`] = String(value);
  for (const [name, value] of Object.entries(node.entry.variables ?? {})) values[`page.vars.${name}`] = String(value);
  return values;
}

/**
 * One page with its body (and its subpages with theirs). What is built from a revision
 * never changes, so the result (with its bodies, the expensive part) is cached by revision,
 * page and options: the route presents and serializes it once (presentReused).
 */
async function readPage(ctx: Context, snapshot: RevisionSnapshot, node: PageNode, options: PageReadOptions): Promise<PageResult> {
  const format = options.format ?? 'document';
  // Plain variable references are deterministic: `deterministic-only` evaluates them all.
  const evaluated = options.evaluated === true || options.evaluated === 'deterministic-only';
  // An evaluated computed page is made from its spec's latest version: that is in the key too.
  const computedSlugs = evaluated ? subtree([node]).flatMap((n) => (n.entry.computed ? [n.entry.computed.dependencies.spec.ref.spec] : [])) : [];
  const specsKey = computedSlugs.length > 0 ? (await specsForPage(ctx.db, snapshot.revision.spaceId, computedSlugs)).key : '';
  const metadata = options.metadata !== false;
  const key = `page\u0000${ctx.config.publicUrl}\u0000${snapshot.revision.id}\u0000${node.entry.id}\u0000${format}\u0000${evaluated}\u0000${specsKey}\u0000${metadata}`;
  const cached = derivedCache.get(key) as PageResult | undefined;
  if (cached) return cached;
  const bodies = await pageBodies(ctx, snapshot, [node], format, evaluated);
  const page: PageResult = { spaceId: snapshot.revision.spaceId, node, bodies, metadata };
  derivedCache.set(key, page);
  return page;
}

/**
 * GET {S}/content/page/{pageId} and GET {S}/revisions/{revisionId}/page/{pageId}. The
 * hottest read: while the space and its permissions are unchanged (loadSpace) the same caller
 * asking for the same page gets the same object back without a single await.
 */
export function getPage(ctx: Context, spaceId: string, pageId: string, options: PageReadOptions): PageResult | Promise<PageResult> {
  // The rare options go in the key only when given: it is built and hashed on every read.
  const rare = options.shareKey !== undefined || options.revisionId !== undefined || options.evaluated !== undefined || options.metadata !== undefined;
  const key =
    `page-read\u0000${spaceId}\u0000${pageId}\u0000${ctx.actor.userId}\u0000${options.format ?? ''}` +
    (rare ? `\u0000${options.shareKey ?? ''}\u0000${options.revisionId ?? ''}\u0000${options.evaluated ?? ''}\u0000${options.metadata ?? ''}` : '');
  return reuseUnlessChanged(ctx.db, ctx.caches.listings, key, async (depend) => {
    const snapshot = await revisionFor(ctx, spaceId, options, depend);
    const node = snapshot.byId.get(pageId);
    if (!node) throw notFound('Page');
    return readPage(ctx, snapshot, node, options);
  });
}

/** GET {S}/content/path/{pagePath}: a page by its path of slugs (leading and trailing slashes ignored). */
export async function getPageByPath(ctx: Context, spaceId: string, pagePath: string, options: PageReadOptions) {
  const snapshot = await revisionFor(ctx, spaceId, options);
  const node = snapshot.byPath.get(pagePath.replace(/^\/+|\/+$/g, ''));
  if (!node) throw notFound('Page');
  return readPage(ctx, snapshot, node, options);
}

/**
 * GET /downloads/blobs/{spaceId}/{hash}/{name}: a file's bytes, for a download URL whose
 * signature is valid, while a live space references the blob (a deleted space's files
 * are not served).
 */
export async function openFileDownload(
  deps: Pick<AppDeps, 'db' | 'files'>,
  params: { area: string; scope: string; hash: string; name: string },
  query: Record<string, unknown>,
): Promise<{ target: DownloadTarget; file: FileStream }> {
  const target = await deps.files.verifyDownload(params, query);
  if (!target || target.area !== BLOB_AREA) throw notFound('File');
  if (!(await contentRepository.liveSpaceHoldsBlob(deps.db, target.scope, target.hash))) throw notFound('File');
  const file = await deps.files.get(BLOB_AREA, target.hash);
  if (!file) throw notFound('File');
  return { target, file };
}


/**
 * POST {S}/content/template: adds a built-in template's pages (src/content/templates.ts)
 * after the space's pages, as one revision. Needs the edit role. Change requests do not
 * exist yet, so a `changeRequestId` names none (404).
 */
export async function applyTemplate(ctx: Context, spaceId: string, input: { id: string; changeRequestId?: string }) {
  const { access } = await loadSpace(ctx, spaceId);
  spacePolicy.authorize('edit', access, 'Applying a template needs the edit role on an unlocked space');
  if (input.changeRequestId !== undefined) throw notFound(`Change request "${input.changeRequestId}"`);
  const template = findTemplate(input.id);
  if (!template) throw badRequest(`body/id: unknown template "${input.id}"; known: ${SPACE_TEMPLATES.map((t) => t.id).join(', ')}`);
  await editSpaceContent(ctx, spaceId, ctx.actor.userId, (editor) => {
    for (const page of template.pages) editor.insertPage(page);
  });
}
