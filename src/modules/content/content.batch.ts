import { splitFrontMatter } from '../../content/markdown/front-matter.ts';
import type { Context } from '../../context.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { completeDocument, InvalidDocument } from '../../content/markdown/complete.ts';
import { changeRequestMoved } from '../change-requests/change-requests.events.ts';
import { sentKeys, stableKeys } from '../../content/markdown/keys.ts';
import type { Document } from '../../content/markdown/index.ts';
import type { MarkdownReading } from '../../content/markdown/page-reader.ts';
import { holdsRelativePaths, resolveDocumentPaths, type SpacePaths } from '../../content/markdown/paths.ts';
import { settleTables } from '../../content/markdown/html-table.ts';
import { RevisionEditor, type NewPage, type PagePatch } from '../../content/store/editor.ts';
import { loadDocuments, loadTrees } from '../../content/store/snapshot.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import type { FileEntry, PageEntry } from '../../content/store/types.ts';
import { fileUrlSigner } from './content.file-urls.ts';
import type { ContentUpdate, PageOutcome } from './content.model.ts';
import { fetchFile } from '../change-requests/change-requests.fetch.ts';
import { BLOB_AREA } from '../../content/store/blobs.ts';
import { changeRequestPolicy } from '../change-requests/change-requests.policy.ts';
import { changeRequestsRepository } from '../change-requests/change-requests.repository.ts';
import type { ContentChangeInput } from '../change-requests/change-requests.schemas.ts';
import { HeadMoved } from '../../db/retry.ts';
import { loadChangeRequest } from '../../access/index.ts';

type DocumentInput = { markdown: string } | { document: { object: 'document'; nodes: unknown[] } };
type PageFields = { title?: string; slug?: string; emoji?: string; icon?: string; description?: string; hidden?: boolean; noIndex?: boolean; noRobotsIndex?: boolean };

/** Page metadata a markdown front matter may set (Git Sync's names). */
const FRONT_MATTER_FIELDS = ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/** Splits the front matter off a page's markdown (markdown/front-matter.ts); 400 when its YAML does not parse. */
function frontMatter(markdown: string, where: string): { fields: PageFields; body: string } {
  const { data, body, invalid } = splitFrontMatter(markdown);
  if (invalid !== undefined) throw badRequest(`${where}/document/markdown: the front matter is not valid YAML (${invalid})`);
  const fields: Record<string, unknown> = {};
  for (const name of FRONT_MATTER_FIELDS) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    const boolean = name === 'hidden' || name === 'noIndex' || name === 'noRobotsIndex';
    if (boolean ? typeof value !== 'boolean' : typeof value !== 'string') {
      throw badRequest(`${where}/document/markdown: front matter "${name}" must be a ${boolean ? 'boolean' : 'string'}`);
    }
    fields[name] = value;
  }
  return { fields: fields as PageFields, body };
}

interface ParsedDocument {
  document: Document;
  fields: PageFields;
  /** The title of a leading `# heading` (Git Sync: it titles the page and leaves the body). */
  heading?: string;
  /** The top-level keys a JSON document named (keys.ts sentKeys): who a moved, edited block is. */
  sent?: (string | undefined)[];
}

/** A caller's JSON document, completed (content/markdown/complete.ts); 400 naming the field when it is none. */
function acceptJsonDocument(input: unknown, where: string): Document {
  try {
    return completeDocument(input, { keepWrittenForm: true });
  } catch (error) {
    if (error instanceof InvalidDocument) throw badRequest(`${where}/document/document is not a document Quire can read (${error.message})`);
    throw error;
  }
}

/**
 * A change's document. Markdown is GitBook's page markdown: a leading `# Title` titles the
 * page (insert_page and update_page alike, so a re-sync never duplicates it) and `##` is heading-1.
 */
async function parseDocument(input: DocumentInput, where: string, reading: MarkdownReading): Promise<ParsedDocument> {
  if ('document' in input) return { document: acceptJsonDocument(input.document, where), fields: {}, sent: sentKeys(input.document) };
  const { fields, body } = frontMatter(input.markdown, where);
  const { title, document } = await reading.page(body, `${where}/document/markdown`);
  return { document, fields, heading: title };
}

/**
 * Every change's document, read before the transaction: markdown is read off the request
 * thread under one budget for the batch (page-reader.ts), and no reading holds the write lock.
 */
async function parseDocuments(ctx: Context, changes: ContentChangeInput[], organizationId: string | undefined): Promise<Map<number, ParsedDocument>> {
  const reading = ctx.markdown.begin({ tenant: organizationId });
  const parsed = new Map<number, ParsedDocument>();
  for (const [i, change] of changes.entries()) {
    const document = pageDocumentOf(change);
    if (document !== undefined) parsed.set(i, await parseDocument(document, `body/changes/${i}`, reading));
  }
  return parsed;
}

/** The document a change gives a page, to be read (a group's is refused in the transaction, never read). */
function pageDocumentOf(change: ContentChangeInput): DocumentInput | undefined {
  return change.operation === 'update_page' || (change.operation === 'insert_page' && change.type !== 'group') ? change.document : undefined;
}

/**
 * Rewrites links to batch refs into page and file references: GitBook's ref semantics, the
 * link names the ref whatever the page's eventual path (`./<ref>.md`, `<ref>.md`, `./<ref>`,
 * each with an optional `#anchor` on a page; `./<ref>` or `<ref>` for a file).
 */
function resolveRefs(value: unknown, pages: Map<string, string>, files: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, pages, files));
  if (!value || typeof value !== 'object') return value;
  const ref = value as { kind?: string; url?: string };
  if (ref.kind === 'url' && typeof ref.url === 'string') {
    const hash = ref.url.indexOf('#');
    const path = hash >= 0 ? ref.url.slice(0, hash) : ref.url;
    const anchor = hash >= 0 ? ref.url.slice(hash + 1) : '';
    const name = path.replace(/^\.\//, '');
    const page = pages.get(name.replace(/\.md$/, ''));
    if (page && (name.endsWith('.md') || path.startsWith('./'))) return anchor ? { kind: 'anchor', page, anchor } : { kind: 'page', page };
    const file = hash >= 0 ? undefined : files.get(name);
    if (file) return { kind: 'file', file };
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, pages, files)]));
}


/**
 * POST {CR}/content: applies a batch of up to 50 changes to the change request as one new
 * revision, or nothing at all (any failure rolls the whole batch back). Refs given to
 * inserted pages and files resolve in every document of the batch, whatever the order.
 */
export async function applyContentChanges(ctx: Context, spaceId: string, idOrNumber: string, changes: ContentChangeInput[], compat: boolean): Promise<ContentUpdate> {
  const hasFiles = changes.some((c) => c.operation === 'insert_files');
  const hasMarkdown = changes.some((c) => { const document = pageDocumentOf(c); return document !== undefined && 'markdown' in document; });
  let organizationId: string | undefined;
  if (hasFiles || hasMarkdown) {
    // Checked before any URL is fetched, any byte stored or any markdown read (and again in the transaction).
    const { access, space } = await loadChangeRequest(ctx, spaceId, idOrNumber);
    organizationId = space.organization_id;
    changeRequestPolicy.authorize('edit', access, 'Editing a change request needs the edit role on an unlocked space');
  }
  // Files are fetched and stored before the transaction: network time never holds the
  // write lock, and the file store is never part of a transaction.
  const fetched = new Map<string, { bytes: Buffer; contentType: string; stored: { hash: string; size: number } }>();
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [j, file] of change.files.entries()) {
      const where = `body/changes/${i}/files/${j}`;
      if ((file.url === undefined) === (file.base64 === undefined)) throw badRequest(`${where}: give exactly one of url and base64`);
      if (file.base64 !== undefined) {
        if (!file.contentType) throw badRequest(`${where}/contentType is required with base64`);
        const bytes = Buffer.from(file.base64, 'base64');
        if (bytes.length > 1024 * 1024) throw badRequest(`${where}/base64 holds more than 1 MB`);
        fetched.set(where, { bytes, contentType: file.contentType, stored: await ctx.files.put(BLOB_AREA, bytes) });
      } else {
        const got = await fetchFile(ctx.outbound, file.url as string, where);
        fetched.set(where, { bytes: got.bytes, contentType: file.contentType ?? got.contentType, stored: await ctx.files.put(BLOB_AREA, got.bytes) });
      }
    }
  }
  const refs = new Set<string>();
  for (const [i, change] of changes.entries()) {
    const names = change.operation === 'insert_page' ? [change.ref] : change.operation === 'insert_files' ? change.files.map((f) => f.ref) : [];
    for (const ref of names) {
      if (ref === undefined) continue;
      if (refs.has(ref)) throw badRequest(`body/changes/${i}: ref "${ref}" is used twice in the batch`);
      refs.add(ref);
    }
  }

  const parsedDocuments = await parseDocuments(ctx, changes, organizationId);
  // A fresh copy on each attempt: a retried transaction never sees what the last one changed.
  const parsedDocument = (i: number) => structuredClone(parsedDocuments.get(i)!);

  const result = await ctx.retryingTransaction(async (tctx) => {
    const { cr, access } = await loadChangeRequest(tctx, spaceId, idOrNumber);
    changeRequestPolicy.authorize('edit', access, 'Editing a change request needs the edit role on an unlocked space');
    if (cr.status !== 'open' && cr.status !== 'draft') throw badRequest(`The change request is ${cr.status}: its content cannot change`);
    const editor = await RevisionEditor.open(tctx.db, spaceId, cr.revision_id, ctx.clock, ctx.files);
    const pageRefs = new Map<string, string>();
    const fileRefs = new Map<string, string>();
    const insertedFiles: FileEntry[] = [];
    const touched: string[] = [];
    const existedBefore = new Set<string>();
    const documentsToResolve = new Set<string>();
    const touch = (id: string) => {
      if (!touched.includes(id)) {
        touched.push(id);
        if (editor.hasPage(id)) existedBefore.add(id);
      }
    };

    for (const [i, change] of changes.entries()) {
      const where = `body/changes/${i}`;
      switch (change.operation) {
        case 'insert_page': {
          if (change.into !== undefined && !editor.hasPage(change.into)) throw notFound(`Page "${change.into}" (${where}/into)`);
          const { operation: _op, type, into, at, ref, document, ...fields } = change;
          let page: NewPage;
          if (type === 'group') {
            // A group only titles the pages under it: it has no content of its own to take.
            if (document !== undefined) throw badRequest(`${where}/document: a group has no content`);
            if (fields.computed !== undefined) throw badRequest(`${where}/computed: a group has no content`);
            if (fields.title === undefined) throw badRequest(`${where}/title: a group needs a title`);
            page = { ...fields, type: 'group', title: fields.title };
          } else {
            if (document === undefined) throw badRequest(`${where}/document: a page needs its content ({ markdown } or { document })`);
            const parsed = parsedDocument(i);
            const title = parsed.fields.title ?? parsed.heading ?? fields.title ?? 'Untitled';
            page = { ...fields, ...parsed.fields, title, document: parsed.document };
          }
          const id = editor.insertPage(page, { parent: into ?? null, index: at === undefined ? undefined : Math.min(at, editor.childrenOf(into ?? null).length) });
          // A new page: touched, never "existed before" (touch() would see it already inserted).
          if (!touched.includes(id)) touched.push(id);
          if (ref) pageRefs.set(ref, id);
          if (type !== 'group') documentsToResolve.add(id);
          break;
        }
        case 'update_page': {
          touch(change.page);
          if (!editor.hasPage(change.page)) throw notFound(`Page "${change.page}" (${where}/page)`);
          const { operation: _op, page, into, at, document, ...fields } = change;
          const patch: PagePatch = { ...fields };
          if (document) {
            const parsed = parsedDocument(i);
            const previous = (await editor.documents(tctx.db, [page])).get(page);
            if (parsed.heading !== undefined && fields.title === undefined) patch.title = parsed.heading;
            Object.assign(patch, parsed.fields, { document: stableKeys(parsed.document, previous, -1, parsed.sent) });
            documentsToResolve.add(page);
          }
          if (patch.emoji === '') patch.emoji = null;
          if (patch.icon === '') patch.icon = null;
          editor.updatePage(page, patch);
          if (into !== undefined || at !== undefined) {
            const parent = into === undefined ? undefined : into;
            const siblings = editor.childrenOf(parent === undefined ? editor.parentOf(page) : parent).filter((e) => e.id !== page).length;
            editor.movePage(page, { parent, index: at === undefined ? undefined : Math.min(at, siblings) });
          }
          break;
        }
        case 'delete_page': {
          touch(change.page);
          editor.deletePage(change.page);
          break;
        }
        case 'revert_page': {
          touch(change.page);
          await revertPage(tctx.db, spaceId, editor, change.page, change.revision ?? cr.revision_merged_ancestor, change.block, where);
          break;
        }
        case 'insert_files': {
          for (const [j, file] of change.files.entries()) {
            const got = fetched.get(`${where}/files/${j}`)!;
            const entry = editor.addFile({ name: file.name, contentType: got.contentType, bytes: got.bytes, stored: got.stored });
            insertedFiles.push(entry);
            if (file.ref) fileRefs.set(file.ref, entry.id);
          }
          break;
        }
      }
    }

    // Links resolve once every page and ref of the batch is known: batch refs, then paths
    // relative to the page's own markdown file (GitBook's `../a/b.md`, `.gitbook/assets/x.png`)
    // and `/pages/<path>` from the top.
    if (documentsToResolve.size > 0) {
      // The space's paths cost a walk of every page: built only for documents that hold a path.
      let paths: SpacePaths | undefined;
      const current = await editor.documents(tctx.db, [...documentsToResolve]);
      for (const [pageId, document] of current) {
        let resolved = resolveRefs(document, pageRefs, fileRefs) as Document;
        const hasPage = (id: string) => editor.hasPage(id);
        if (holdsRelativePaths(resolved, hasPage)) paths ??= editor.spacePaths(await storeRepository.gitRedirects(tctx.db, spaceId));
        const pageFile = paths?.fileOfPage(pageId);
        resolved = paths && pageFile ? resolveDocumentPaths(resolved, pageFile, paths, hasPage) : settleTables(resolved);
        if (JSON.stringify(resolved) !== JSON.stringify(document)) editor.updatePage(pageId, { document: resolved });
      }
    }

    const now = isoNow(ctx.clock);
    const revision = editor.unchanged ? cr.revision_id : await editor.commit(tctx.db, { createdBy: ctx.actor.userId });
    if (revision !== cr.revision_id) {
      const moved = await changeRequestsRepository.advanceRevision(tctx.db, cr.id, cr.revision_id, { revision_id: revision, updated_at: now });
      if (!moved) throw new HeadMoved();
      await changeRequestsRepository.addContribution(tctx.db, cr.id, ctx.actor.userId, now);
    }
    const updated = { ...cr, revision_id: revision, updated_at: revision !== cr.revision_id ? now : cr.updated_at };
    const users = await changeRequestsRepository.usersById(tctx.db, [updated.created_by, updated.merged_by]);
    const changeRequest = { changeRequest: updated, users };
    if (compat) return { changeRequest };
    const outcomes: PageOutcome[] = touched.map((id) => {
      if (!editor.hasPage(id)) return { object: 'deleted_page', id };
      if (!existedBefore.has(id)) {
        const ref = [...pageRefs].find(([, pageId]) => pageId === id)?.[0];
        return { object: 'created_page', id, ...(ref ? { ref } : {}) };
      }
      return { object: 'updated_page', id };
    });
    const url = await fileUrlSigner(tctx, spaceId);
    return {
      changeRequest,
      changes: { outcomes, insertedFiles: insertedFiles.map((file) => ({ file, downloadURL: url(file), metadata: true })) },
    };
  });
  // Committed: live editing follows the change in the documents open on this process.
  changeRequestMoved(ctx.db, result.changeRequest.changeRequest.id, 'content');
  return result;
}

/**
 * revert_page: the whole page back to its state in `revisionId` (added: removed; deleted:
 * restored with its subpages; changed: its document and metadata reset), or only the
 * listed blocks of its document (each removed, restored or reset by its key).
 */
async function revertPage(
  db: Context['db'],
  spaceId: string,
  editor: RevisionEditor,
  pageId: string,
  revisionId: string,
  blocks: string[] | undefined,
  where: string,
) {
  const target = await loadTrees(db, spaceId, revisionId).catch(() => {
    throw notFound(`Revision "${revisionId}" (${where}/revision)`);
  });
  const parentKey = target.parentOf.get(pageId);
  const before = parentKey === undefined ? undefined : target.trees.get(parentKey)?.entries.find((e) => e.id === pageId);
  const now = editor.hasPage(pageId);
  if (!before && !now) throw notFound(`Page "${pageId}" (${where}/page)`);

  if (blocks) {
    if (!before || !now) throw badRequest(`${where}/block: blocks can be reverted only on a page present in both revisions`);
    const [documents, current] = await Promise.all([
      loadDocuments<Document>(db, spaceId, before.document ? [before.document] : []),
      editor.documents(db, [pageId]),
    ]);
    const old: unknown[] = before.document ? [...(documents.get(before.document) as Document).nodes] : [];
    const nodes: unknown[] = [...((current.get(pageId) ?? { nodes: [] }) as Document).nodes];
    // Keys are stable across revisions (content/markdown/keys.ts): a key names one block.
    const keyOf = (n: unknown) => (n as { key?: string }).key;
    for (const key of blocks) {
      const at = nodes.findIndex((n) => keyOf(n) === key);
      const was = old.findIndex((n) => keyOf(n) === key);
      if (at < 0 && was < 0) throw badRequest(`${where}/block: no block "${key}" in the page or in the revision`);
      if (at >= 0 && was >= 0) nodes[at] = old[was];
      else if (at >= 0) nodes.splice(at, 1);
      else {
        // Restored after the nearest block before it (in the revision) that the page still has.
        let after = -1;
        for (let i = was - 1; i >= 0 && after < 0; i--) after = nodes.findIndex((n) => keyOf(n) === keyOf(old[i]));
        nodes.splice(after + 1, 0, old[was]);
      }
    }
    editor.updatePage(pageId, { document: { object: 'document', data: {}, nodes } as Document });
    return;
  }

  if (!before) {
    editor.deletePage(pageId);
    return;
  }
  const docs = await loadDocuments<Document>(db, spaceId, collectDocuments(target, before));
  if (now) {
    editor.updatePage(pageId, {
      ...metaPatch(before),
      document: before.document ? (docs.get(before.document) as Document) : null,
    });
    return;
  }
  const parent = parentKey && parentKey !== '' && editor.hasPage(parentKey) ? parentKey : null;
  const siblings = target.trees.get(parentKey ?? '')?.entries ?? [];
  const index = Math.min(siblings.findIndex((e) => e.id === pageId), editor.childrenOf(parent).length);
  editor.insertPage(restored(target, before, docs), { parent, index });
}

function metaPatch(entry: PageEntry): PagePatch {
  return {
    title: entry.title,
    slug: entry.slug,
    emoji: entry.emoji ?? null,
    icon: entry.icon ?? null,
    description: entry.description ?? null,
    hidden: entry.hidden ?? false,
    noIndex: entry.noIndex ?? false,
    noRobotsIndex: entry.noRobotsIndex ?? false,
    layout: entry.layout ?? null,
    cover: entry.cover ?? null,
    variables: entry.variables ?? null,
  };
}

function collectDocuments(trees: Awaited<ReturnType<typeof loadTrees>>, entry: PageEntry): string[] {
  const hashes: string[] = [];
  const walk = (e: PageEntry) => {
    if (e.document) hashes.push(e.document);
    for (const child of trees.trees.get(e.id)?.entries ?? []) walk(child);
  };
  walk(entry);
  return hashes;
}

/** A page of an older revision, with its subpages, ready to insert again under the same ids. */
function restored(trees: Awaited<ReturnType<typeof loadTrees>>, entry: PageEntry, docs: Map<string, Document>): NewPage {
  const { id, type, title, slug, document, children: _children, createdAt: _c, updatedAt: _u, ...meta } = entry;
  return {
    ...meta,
    id,
    type,
    title,
    slug,
    ...(document ? { document: docs.get(document) } : {}),
    pages: (trees.trees.get(id)?.entries ?? []).map((child) => restored(trees, child, docs)),
  };
}
