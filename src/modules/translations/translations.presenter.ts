import type { Config } from '../../config.ts';
import { apiUrl } from '../../lib/urls.ts';
import type { Page } from '../../lib/pagination/index.ts';
import { durationSeconds, type TranslationPermissions, type TranslationResult } from './translations.model.ts';
import type { GlossaryEntryRow, TranslationRow } from './translations.repository.ts';
import type { TranslationLanguageName } from './translations.schemas.ts';

type Urls = Pick<Config, 'publicUrl'>;
const org = (organizationId: string) => `/orgs/${encodeURIComponent(organizationId)}`;

/** translations row -> Translation wire object. */
export function presentTranslation(config: Urls, row: TranslationRow, permissions: TranslationPermissions) {
  const language = row.language as TranslationLanguageName;
  return {
    object: 'translation' as const,
    id: row.id,
    status: row.status,
    source: { space: row.source_space_id, language: row.source_language as TranslationLanguageName },
    language,
    instructions: JSON.parse(row.instructions),
    ...(row.result_space_id && row.result_revision_id ? { result: { space: row.result_space_id, revision: row.result_revision_id, language } } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    stats: {
      runs: row.runs,
      totalWords: row.total_words,
      totalPages: row.total_pages,
      totalDuration: durationSeconds(row.total_duration_ms),
      latestRunDuration: durationSeconds(row.latest_run_duration_ms),
      latestPages: row.latest_pages,
      latestWords: row.latest_words,
    },
    ...(row.last_run_state && row.last_run_at
      ? { lastRun: { state: row.last_run_state, ...(row.last_run_error ? { error: row.last_run_error } : {}), finishedAt: row.last_run_at } }
      : {}),
    permissions,
    urls: { location: apiUrl(config, `${org(row.organization_id)}/translations/${row.id}`) },
  };
}

/** A translation as the caller sees it -> Translation wire object. */
export function presentTranslationResult(config: Urls, result: TranslationResult) {
  return presentTranslation(config, result.translation, result.permissions);
}

/** A page of translations -> the TranslationList wire object. */
export function presentTranslations(config: Urls, page: Page<TranslationResult>) {
  return { ...page, items: page.items.map((result) => presentTranslationResult(config, result)) };
}

/** glossary_entries row -> GlossaryEntry wire object. */
export function presentGlossaryEntry(config: Urls, row: GlossaryEntryRow) {
  return {
    object: 'glossary-entry' as const,
    id: row.id,
    translations: JSON.parse(row.translations) as Record<string, string>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: { location: apiUrl(config, `${org(row.organization_id)}/translations-glossary/${row.id}`) },
  };
}

/** A page of glossary entries -> the GlossaryEntryList wire object. */
export function presentGlossaryEntries(config: Urls, page: Page<GlossaryEntryRow>) {
  return { ...page, items: page.items.map((row) => presentGlossaryEntry(config, row)) };
}
