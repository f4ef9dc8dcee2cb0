import type { Context } from '../../context.ts';
import { pageOfItems, type Page, type PageRequest } from '../../lib/pagination/index.ts';
import { badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { contentAccess, memberAccess } from '../../access/index.ts';
import type { OrganizationAccess } from '../organizations/organizations.policy.ts';
import { spacesRepository } from '../spaces/spaces.repository.ts';
import { requestTranslationRun } from './translations.job-kinds.ts';
import { translationPolicy } from './translations.policy.ts';
import type { TranslationResult } from './translations.model.ts';
import { translationsRepository as repo, type GlossaryEntryRow, type TranslationRow } from './translations.repository.ts';
import {
  MAX_GLOSSARY_ENTRIES,
  TRANSLATION_LANGUAGES,
  type CreateTranslationInput,
  type GlossaryOperation,
  type TranslationLanguageName,
  type UpdateTranslationInput,
} from './translations.schemas.ts';

const EMPTY_DOCUMENT = { object: 'document', data: {}, nodes: [] };

const permissionsOf = (access: OrganizationAccess) => ({ view: translationPolicy.can('view', access), edit: translationPolicy.can('edit', access) });

/** Members with a role read; 404 outside the organization, 403 for guests. */
async function viewAccess(ctx: Pick<Context, 'db' | 'actor' | 'caches'>, organizationId: string) {
  const access = await memberAccess(ctx, organizationId);
  translationPolicy.authorize('view', access, 'Guests cannot see the organization’s translations');
  return access;
}

async function editAccess(ctx: Pick<Context, 'db' | 'actor' | 'caches'>, organizationId: string) {
  const access = await memberAccess(ctx, organizationId);
  translationPolicy.authorize('edit', access, 'Translations are managed by members with the create role or above');
  return access;
}

/** A translation with the caller's permissions (translations.presenter.ts makes the wire object). */
function resultOf(row: TranslationRow, access: OrganizationAccess): TranslationResult {
  return { translation: row, permissions: permissionsOf(access) };
}

/** A translation as created: pending, never run, no result yet. */
export function newTranslationRow(fields: {
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  instructions: unknown;
  createdBy: string | null;
  now: string;
}): TranslationRow {
  return {
    id: newId(),
    organization_id: fields.organizationId,
    source_space_id: fields.sourceSpaceId,
    source_language: fields.sourceLanguage,
    language: fields.language,
    instructions: JSON.stringify(fields.instructions),
    status: 'pending',
    result_space_id: null,
    result_revision_id: null,
    last_run_state: null,
    last_run_error: null,
    last_run_at: null,
    runs: 0,
    total_words: 0,
    total_pages: 0,
    total_duration_ms: 0,
    latest_run_duration_ms: 0,
    latest_pages: 0,
    latest_words: 0,
    created_by: fields.createdBy,
    created_at: fields.now,
    updated_at: fields.now,
  };
}

/** POST {O}/translations: 201; the first run is queued at once. */
export async function createTranslation(ctx: Context, organizationId: string, input: CreateTranslationInput): Promise<TranslationResult> {
  return ctx.transaction(async (tctx) => {
    const access = await editAccess(tctx, organizationId);
    if (input.language === input.source.language) throw badRequest('body/language must differ from body/source/language');
    const space = await spacesRepository.findActive(tctx.db, input.source.space);
    // A space elsewhere or out of the caller's sight is not told apart from a missing one.
    if (!space || space.organization_id !== organizationId || (await contentAccess(tctx, space, 'space')).role === null) {
      throw badRequest(`body/source/space: no space "${input.source.space}" in this organization`);
    }
    const row = newTranslationRow({
      organizationId,
      sourceSpaceId: space.id,
      sourceLanguage: input.source.language,
      language: input.language,
      instructions: input.instructions ?? EMPTY_DOCUMENT,
      createdBy: ctx.actor.userId,
      now: isoNow(ctx.clock),
    });
    await repo.insert(tctx.db, row);
    await requestTranslationRun(tctx.db, row.id);
    return resultOf(row, access);
  });
}

/** GET {O}/translations */
export async function listTranslations(ctx: Context, organizationId: string, page: PageRequest): Promise<Page<TranslationResult>> {
  const access = await viewAccess(ctx, organizationId);
  const result = await repo.list(ctx.db, organizationId, page);
  return { ...result, items: result.items.map((row) => resultOf(row, access)) };
}

/** GET {O}/translations/{translationId} */
export async function getTranslation(ctx: Context, organizationId: string, translationId: string): Promise<TranslationResult> {
  const access = await viewAccess(ctx, organizationId);
  const row = await repo.find(ctx.db, organizationId, translationId);
  if (!row) throw notFound('Translation');
  return resultOf(row, access);
}

/** PUT {O}/translations/{translationId}: the instructions (used by the next run). */
export async function updateTranslation(ctx: Context, organizationId: string, translationId: string, input: UpdateTranslationInput): Promise<TranslationResult> {
  return ctx.transaction(async (tctx) => {
    const access = await editAccess(tctx, organizationId);
    const row = await repo.find(tctx.db, organizationId, translationId);
    if (!row) throw notFound('Translation');
    const changes = { instructions: JSON.stringify(input.instructions), updated_at: isoNow(ctx.clock) };
    await repo.update(tctx.db, row.id, changes);
    return resultOf({ ...row, ...changes }, access);
  });
}

/** DELETE {O}/translations/{translationId}: 204 also when absent. The result space stays (it is a space like any). */
export async function deleteTranslation(ctx: Context, organizationId: string, translationId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    await editAccess(tctx, organizationId);
    await repo.delete(tctx.db, organizationId, translationId);
  });
}

/** POST {O}/translations/{translationId}/run: queues a run (204); 404 for an unknown translation. */
export async function triggerRun(ctx: Context, organizationId: string, translationId: string): Promise<void> {
  await ctx.transaction(async (tctx) => {
    await editAccess(tctx, organizationId);
    const row = await repo.find(tctx.db, organizationId, translationId);
    if (!row) throw notFound('Translation');
    if (row.status !== 'running') await repo.update(tctx.db, row.id, { status: 'pending' });
    await requestTranslationRun(tctx.db, row.id);
  });
}

/* ------------------------------------------------------------------ glossary */

/** GET {O}/translations-glossary: ordered by creation, or by the term in `orderBy`'s language (entries without one last). */
export async function listGlossaryEntries(
  ctx: Context,
  organizationId: string,
  orderBy: TranslationLanguageName | undefined,
  page: PageRequest,
): Promise<Page<GlossaryEntryRow>> {
  await viewAccess(ctx, organizationId);
  const rows = await repo.glossary(ctx.db, organizationId);
  if (!orderBy) return pageOfItems(rows, page);
  const collator = new Intl.Collator(orderBy, { sensitivity: 'base' });
  const terms = rows.map((row) => ({ row, term: (JSON.parse(row.translations) as Record<string, string>)[orderBy] }));
  terms.sort((a, b) => {
    const x = a.term;
    const y = b.term;
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return collator.compare(x, y) || a.row.id.localeCompare(b.row.id);
  });
  return pageOfItems(terms.map((t) => t.row), page);
}

/** GET {O}/translations-glossary/{glossaryEntryId} */
export async function getGlossaryEntry(ctx: Context, organizationId: string, entryId: string): Promise<GlossaryEntryRow> {
  await viewAccess(ctx, organizationId);
  const row = await repo.findGlossaryEntry(ctx.db, organizationId, entryId);
  if (!row) throw notFound('Glossary entry');
  return row;
}

const LANGUAGE_SET = new Set<string>(TRANSLATION_LANGUAGES);

function checkTerms(translations: Record<string, string>, field: string): Record<string, string> {
  const entries = Object.entries(translations);
  if (entries.length === 0) throw badRequest(`${field} must name the term in at least one language`);
  const out: Record<string, string> = {};
  for (const [language, term] of entries) {
    if (!LANGUAGE_SET.has(language)) throw badRequest(`${field}/${language} is not a translation language`);
    const trimmed = term.trim();
    if (!trimmed) throw badRequest(`${field}/${language} is empty`);
    out[language] = trimmed;
  }
  return out;
}

/** PUT {O}/translations-glossary: inserts, updates and deletes in one transaction; any bad operation refuses them all (400). */
export async function updateGlossaryEntries(ctx: Context, organizationId: string, operations: GlossaryOperation[]): Promise<void> {
  await ctx.transaction(async (tctx) => {
    await editAccess(tctx, organizationId);
    const now = isoNow(ctx.clock);
    let count = await repo.countGlossary(tctx.db, organizationId);
    for (const [index, operation] of operations.entries()) {
      const field = `body/operations/${index}`;
      if (operation.type === 'insert') {
        const translations = checkTerms(operation.translations, `${field}/translations`);
        if (++count > MAX_GLOSSARY_ENTRIES) throw badRequest(`${field}: the glossary holds at most ${MAX_GLOSSARY_ENTRIES} entries`);
        await repo.insertGlossaryEntry(tctx.db, { id: newId(), organization_id: organizationId, translations: JSON.stringify(translations), created_at: now, updated_at: now });
      } else if (operation.type === 'update') {
        const translations = checkTerms(operation.translations, `${field}/translations`);
        if (!(await repo.findGlossaryEntry(tctx.db, organizationId, operation.id))) throw badRequest(`${field}/id: no glossary entry "${operation.id}"`);
        await repo.updateGlossaryEntry(tctx.db, organizationId, operation.id, JSON.stringify(translations), now);
      } else if (operation.type === 'delete') {
        if (!(await repo.findGlossaryEntry(tctx.db, organizationId, operation.id))) throw badRequest(`${field}/id: no glossary entry "${operation.id}"`);
        await repo.deleteGlossaryEntry(tctx.db, organizationId, operation.id);
        count--;
      } else {
        throw badRequest(`${field}/type must be insert, update or delete`);
      }
    }
  });
}
