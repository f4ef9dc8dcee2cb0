import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { HeadMoved, retryingTransaction } from '../../db/retry.ts';
import { ContentNotFound, InvalidContentEdit } from '../../content/errors.ts';
import type { Document } from '../../content/markdown/types.ts';
import { RevisionEditor, type NewPage } from '../../content/store/editor.ts';
import { loadDocuments, loadSnapshot, revisionRecord } from '../../content/store/snapshot.ts';
import { storeRepository } from '../../content/store/store.repository.ts';
import type { FileEntry, PageEntry, PageMeta, PageNode } from '../../content/store/types.ts';
import { countWords, extractDocument, htmlToPlain, plainToHtml, type ExtractedDocument, type GlossaryTerm } from '../../content/translate/index.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { spacesRepository, type SpaceRow } from '../spaces/spaces.repository.ts';
import { durationSeconds } from './translations.model.ts';
import { LANGUAGE_NAMES, providerFromConfig, TranslationFailure, type ProviderOptions } from './translations.providers.ts';
import { translationsRepository as repo, type TranslationRow } from './translations.repository.ts';

/*
 * One run of a translation (docs/decisions/translations.md):
 * 1. read the source's current revision and the page mapping of earlier runs; the pages
 *    to send are those whose translated text (title, description, document) changed, by
 *    hash, or that the result lacks;
 * 2. send their segments to the provider (outside any transaction);
 * 3. in one transaction, write one new revision of the result space (created on the
 *    first run): the source's tree, with the same page ids, moved and removed pages
 *    followed, changed pages replaced by their translation, every other page left as it
 *    was; then the mapping and the stats.
 * A failure at any step leaves the result and mapping as they were and says why.
 */

/** Retries and backoff of provider calls (tests shorten them). */
export const providerSettings: ProviderOptions = { attempts: 5, backoffMs: 1000 };

/** Time spent waiting for the provider in this process (the bench subtracts it from a run's time). */
export const runMetrics = { providerMs: 0 };

type RunDeps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>;
type Logger = Pick<FastifyBaseLogger, 'warn' | 'error' | 'info'>;

/** What translating one page produced. */
interface TranslatedPage {
  hash: string;
  title: string;
  description?: string;
  /** undefined: the page has no document. */
  document?: Document;
}

/** Fields copied from the source page as they are (only title, description and document are translated). */
const COPIED = ['emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex', 'layout', 'cover', 'variables'] as const;

/** What decides whether a page is sent again: its translated parts as the source has them. */
export function pageHash(entry: PageEntry): string {
  return createHash('sha256')
    .update(JSON.stringify([entry.type, entry.title, entry.description ?? '', entry.document ?? '']))
    .digest('hex');
}

/** Plain text of a rich-text document (the instructions given to a chat model). */
function plainText(node: unknown): string {
  const out: string[] = [];
  const walk = (n: any) => {
    if (!n || typeof n !== 'object') return;
    if (n.object === 'leaf' && typeof n.text === 'string') out.push(n.text);
    for (const child of Array.isArray(n.leaves) ? n.leaves : []) walk(child);
    for (const child of Array.isArray(n.nodes) ? n.nodes : []) walk(child);
    if (n.object === 'block') out.push('\n');
  };
  walk(node);
  return out.join('').replace(/\n{3,}/g, '\n\n').trim();
}

function preorder(nodes: PageNode[]): PageNode[] {
  const all: PageNode[] = [];
  const visit = (list: PageNode[]) => {
    for (const node of list) {
      all.push(node);
      visit(node.children);
    }
  };
  visit(nodes);
  return all;
}

class Gone extends Error {}

export async function runTranslation(deps: RunDeps, translationId: string, log: Logger): Promise<void> {
  const started = Date.now();
  const row = await repo.findById(deps.db, translationId);
  if (!row) return;
  await repo.update(deps.db, row.id, { status: 'running' });
  try {
    const outcome = await translateAndWrite(deps, row);
    if (!outcome) return;
    const ms = Date.now() - started;
    const rounded = durationSeconds(ms) * 1000;
    await repo.update(deps.db, row.id, {
      status: 'completed',
      result_space_id: outcome.spaceId,
      result_revision_id: outcome.revisionId,
      last_run_state: 'completed',
      last_run_error: null,
      last_run_at: isoNow(deps.clock),
      runs: row.runs + 1,
      total_words: row.total_words + outcome.words,
      total_pages: row.total_pages + outcome.newPages,
      total_duration_ms: row.total_duration_ms + rounded,
      latest_run_duration_ms: ms,
      latest_pages: outcome.pages,
      latest_words: outcome.words,
    });
  } catch (error) {
    if (error instanceof Gone) return;
    const known = error instanceof TranslationFailure || error instanceof ContentNotFound || error instanceof InvalidContentEdit;
    if (!known) log.error({ err: error, translationId }, 'translation run failed');
    else log.warn({ translationId, reason: (error as Error).message }, 'translation run failed');
    const current = await repo.findById(deps.db, row.id);
    if (!current) return;
    // The last good result stays; status says what the result is (completed) or that none exists yet (pending).
    await repo.update(deps.db, row.id, {
      status: current.result_revision_id ? 'completed' : 'pending',
      last_run_state: 'failed',
      last_run_error: known ? (error as Error).message : 'an internal error ended the run (see the server log)',
      last_run_at: isoNow(deps.clock),
    });
  }
}

interface Outcome {
  spaceId: string;
  revisionId: string;
  words: number;
  pages: number;
  newPages: number;
}

async function translateAndWrite(deps: RunDeps, row: TranslationRow): Promise<Outcome | undefined> {
  const provider = providerFromConfig(deps.config, providerSettings);
  if (!provider) throw new TranslationFailure('no translation provider is configured (set TRANSLATION_PROVIDER and TRANSLATION_API_URL)');
  try {
    const source = await spacesRepository.findActive(deps.db, row.source_space_id);
    if (!source?.revision_id) throw new TranslationFailure(`the source space "${row.source_space_id}" no longer exists`);
    const snapshot = await loadSnapshot(deps.db, source.id, source.revision_id);
    const sourcePages = preorder(snapshot.pages);

    const result = row.result_space_id ? await spacesRepository.findActive(deps.db, row.result_space_id) : undefined;
    const resultPages = result?.revision_id ? (await loadSnapshot(deps.db, result.id, result.revision_id)).byId : new Map<string, PageNode>();
    // A result space deleted by its members: the next run starts a new one from scratch.
    const mapping = result ? new Map((await repo.pages(deps.db, row.id)).map((p) => [p.source_page_id, p])) : new Map();

    const changed = sourcePages.filter((node) => {
      const known = mapping.get(node.entry.id);
      return !known || known.source_hash !== pageHash(node.entry) || !resultPages.has(known.page_id);
    });

    // Segments of every changed page: title, description, then its document's.
    const hashes = changed.map((n) => n.entry.document).filter((h): h is string => h !== undefined);
    const documents = await loadDocuments<Document>(deps.db, source.id, hashes);
    const segments: string[] = [];
    const plans: { node: PageNode; title: number; description?: number; extracted?: ExtractedDocument; from: number }[] = [];
    for (const node of changed) {
      const title = segments.push(plainToHtml(node.entry.title)) - 1;
      const description = node.entry.description ? segments.push(plainToHtml(node.entry.description)) - 1 : undefined;
      const document = node.entry.document && node.entry.type === 'document' ? documents.get(node.entry.document) : undefined;
      const extracted = document ? extractDocument(document) : undefined;
      const from = segments.length;
      if (extracted) segments.push(...extracted.segments);
      plans.push({ node, title, description, extracted, from });
    }

    const glossary = glossaryTerms(await repo.glossary(deps.db, row.organization_id), row.source_language, row.language);
    const asked = performance.now();
    const translated = segments.length
      ? await provider.translate({ segments, source: row.source_language, target: row.language, instructions: plainText(JSON.parse(row.instructions)), glossary })
      : [];
    runMetrics.providerMs += performance.now() - asked;
    if (translated.length !== segments.length) throw new TranslationFailure('the provider answered a different number of segments than it was sent');

    const pages = new Map<string, TranslatedPage>();
    for (const plan of plans) {
      const { node, extracted } = plan;
      pages.set(node.entry.id, {
        hash: pageHash(node.entry),
        title: htmlToPlain(translated[plan.title]) || node.entry.title,
        ...(plan.description !== undefined ? { description: htmlToPlain(translated[plan.description]) || node.entry.description } : {}),
        ...(extracted ? { document: extracted.rebuild(translated.slice(plan.from, plan.from + extracted.segments.length)) } : {}),
      });
    }
    const words = segments.reduce((sum, s) => sum + countWords(s), 0);
    const written = await writeResult(deps, row, source, snapshot.pages, snapshot.files, snapshot.revision.variables, pages);
    return { ...written, words, pages: pages.size, newPages: changed.filter((n) => !mapping.has(n.entry.id)).length };
  } finally {
    await provider.close();
  }
}

function glossaryTerms(rows: { translations: string }[], from: string, to: string): GlossaryTerm[] {
  const terms: GlossaryTerm[] = [];
  for (const row of rows) {
    const forms = JSON.parse(row.translations) as Record<string, string>;
    const source = forms[from];
    if (source) terms.push({ source, target: forms[to] ?? source });
  }
  return terms;
}

/** The result space's title: the source's, naming the language (at most 50 characters, as space titles). */
function resultTitle(source: SpaceRow, language: string): string {
  const suffix = ` (${LANGUAGE_NAMES[language] ?? language})`;
  return `${source.title.slice(0, Math.max(1, 50 - suffix.length)).trim()}${suffix}`;
}

async function writeResult(
  deps: RunDeps,
  row: TranslationRow,
  source: SpaceRow,
  sourceTop: PageNode[],
  files: readonly FileEntry[],
  variables: Record<string, string | number | boolean>,
  translated: Map<string, TranslatedPage>,
): Promise<{ spaceId: string; revisionId: string }> {
  const sourcePages = preorder(sourceTop);
  return retryingTransaction(deps.db, async (trx) => {
    const current = await repo.findById(trx, row.id);
    if (!current) throw new Gone();
    const now = isoNow(deps.clock);
    let space = current.result_space_id ? await spacesRepository.findActive(trx, current.result_space_id) : undefined;
    if (!space) {
      space = await createResultSpace(trx, current, source, now);
      await repo.clearPages(trx, row.id);
    }
    const editor = await RevisionEditor.open(trx, space.id, space.revision_id, deps.clock, deps.files);
    const mappingRows: { source_page_id: string; page_id: string; source_hash: string; translation_id: string; translated_at: string }[] = [];
    const keep = new Set<string>();
    const lost: string[] = [];

    const indexOf = new Map<string, number>();
    sourceTop.forEach((n, i) => indexOf.set(n.entry.id, i));
    for (const node of sourcePages) node.children.forEach((n, i) => indexOf.set(n.entry.id, i));
    for (const node of sourcePages) {
      const entry = node.entry;
      const id = entry.id; // Stable: a translated page has its source page's id (page references stay valid).
      const parent = node.parentId;
      if (parent !== null && !keep.has(parent)) continue; // under a page that could not be placed
      const siblings = editor.childrenOf(parent);
      const index = indexOf.get(id) as number;
      const page = translated.get(id);
      if (editor.hasPage(id)) {
        if (editor.parentOf(id) !== parent || siblings[index]?.id !== id) editor.movePage(id, { parent, index: Math.min(index, siblings.length - (editor.parentOf(id) === parent ? 1 : 0)) });
        syncPage(editor, id, entry, page);
      } else if (page) {
        editor.insertPage(newPage(entry, page), { parent, index: Math.min(index, siblings.length) });
      } else {
        lost.push(id); // seen translated when the run started, removed from the result since: next run
        continue;
      }
      keep.add(id);
      if (page) mappingRows.push({ translation_id: row.id, source_page_id: id, page_id: id, source_hash: page.hash, translated_at: now });
    }
    // Pages no longer in the source (or under a page no longer there) go.
    const removed: string[] = [];
    const sweep = (parent: string | null) => {
      for (const child of [...editor.childrenOf(parent)]) {
        if (!keep.has(child.id)) {
          removed.push(child.id);
          editor.deletePage(child.id);
        } else sweep(child.id);
      }
    };
    sweep(null);

    // Files and variables as the source has them: file references and expressions resolve alike.
    const resultFiles = new Map(editor.fileEntries().map((f) => [f.id, f]));
    for (const file of files) {
      const had = resultFiles.get(file.id);
      if (!had || JSON.stringify(had) !== JSON.stringify(file)) editor.putFileEntry(file);
      resultFiles.delete(file.id);
    }
    for (const id of resultFiles.keys()) editor.removeFile(id);
    if (JSON.stringify(variables ?? {}) !== JSON.stringify((await currentVariables(trx, space)) ?? {})) editor.setVariables(variables ?? {});

    let revisionId = space.revision_id as string;
    // A new result space always gets its first revision, even from an empty source.
    if (!editor.unchanged || !space.revision_id) {
      revisionId = await editor.commit(trx, { createdBy: null });
      if (!(await spacesRepository.advanceRevision(trx, space.id, space.revision_id, revisionId, now))) throw new HeadMoved();
    }
    await repo.upsertPages(trx, mappingRows);
    await repo.deletePages(trx, row.id, [...removed, ...lost]);
    await repo.update(trx, row.id, { result_space_id: space.id, result_revision_id: revisionId });
    return { spaceId: space.id, revisionId };
  });
}

async function currentVariables(db: RunDeps['db'], space: SpaceRow) {
  if (!space.revision_id) return {};
  const row = await storeRepository.findRevision(db, space.id, space.revision_id);
  return row ? revisionRecord(row).variables : {};
}

function copiedFields(entry: PageEntry): Partial<PageMeta> {
  const out: Record<string, unknown> = {};
  for (const field of COPIED) if (entry[field] !== undefined) out[field] = entry[field];
  return out as Partial<PageMeta>;
}

function newPage(entry: PageEntry, page: TranslatedPage): NewPage {
  return {
    id: entry.id,
    type: entry.type,
    title: page.title,
    slug: entry.slug,
    ...(page.description ? { description: page.description } : {}),
    ...copiedFields(entry),
    ...(entry.target ? { target: entry.target } : {}),
    ...(page.document ? { document: page.document } : {}),
  };
}

/** Brings a translated page up to its source: new translation when it changed, copied fields and slug always. */
function syncPage(editor: RevisionEditor, id: string, entry: PageEntry, page: TranslatedPage | undefined): void {
  const current = editor.page(id);
  const patch: Parameters<RevisionEditor['updatePage']>[1] = {};
  if (page) {
    patch.title = page.title;
    patch.description = page.description ?? null;
    patch.document = page.document ?? null;
  }
  for (const field of COPIED) {
    if (JSON.stringify(current[field]) !== JSON.stringify(entry[field])) (patch as Record<string, unknown>)[field] = entry[field] ?? (field === 'hidden' || field === 'noIndex' || field === 'noRobotsIndex' ? false : null);
  }
  if (current.slug !== entry.slug) patch.slug = entry.slug;
  if (Object.keys(patch).length === 0) return;
  try {
    editor.updatePage(id, patch);
  } catch (error) {
    // A slug still held by a sibling about to move or go: keep the page's own.
    if (!(error instanceof InvalidContentEdit) || patch.slug === undefined) throw error;
    delete patch.slug;
    editor.updatePage(id, patch);
  }
}

async function createResultSpace(trx: RunDeps['db'], row: TranslationRow, source: SpaceRow, now: string): Promise<SpaceRow> {
  await spacesRepository.lockPlacements(trx, row.organization_id);
  const siblings = await spacesRepository.siblings(trx, row.organization_id, source.parent_id);
  const space: SpaceRow = {
    id: newId(),
    organization_id: row.organization_id,
    title: resultTitle(source, row.language),
    emoji: source.emoji,
    visibility: source.visibility,
    edit_mode: source.edit_mode,
    default_level: 'inherit',
    language: row.language,
    merge_rules: JSON.stringify({ type: 'inherit' }),
    parent_id: source.parent_id,
    position: siblings.length === 0 ? 0 : Math.max(...siblings.map((s) => s.position)) + 1,
    revision_id: null,
    share_key: newId(32),
    created_by: row.created_by ?? source.created_by,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  // Its first revision is the run's: the caller's editor starts from no revision.
  await spacesRepository.insert(trx, space);
  return space;
}
