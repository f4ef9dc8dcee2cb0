/*
 * Row types of what spaces and organizations are connected to: git sync, translations, the glossary,
 * OpenAPI specs, support conversations.
 * Conventions and the table map: ../types.ts.
 */

/** Git sync of a space (migration 0014): the remote without credentials and what is in step. */
export interface GitSyncsTable {
  space_id: string;
  remote: string;
  ref: string;
  repo_cache_id: string | null;
  project_directory: string;
  last_timestamp: string | null;
  last_commit: string | null;
  last_revision_id: string | null;
  summary_sig: string | null;
  /** The content object (kind `source`) holding SUMMARY.md as the last import read it (migration 0028). */
  summary_source?: string | null;
  /** `.gitbook.yaml` redirects, JSON: old URL path -> page id (resolved at the last import). */
  redirects?: string | null;
  created_at: string;
  updated_at: string;
}

/** One git sync run of a space (import or export) and how it ended. */
export interface GitSyncRunsTable {
  id: string;
  space_id: string;
  direction: 'import' | 'export';
  status: 'success' | 'failure' | 'skipped' | 'change-request' | 'unchanged';
  commit: string | null;
  revision_id: string | null;
  change_request_id: string | null;
  pages_changed: number;
  duration_ms: number;
  error: string | null;
  timestamp: string | null;
  started_at: string;
}

/** A space kept translated into another language (migration 0017). */
export interface TranslationsTable {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: string;
  status: 'pending' | 'running' | 'completed';
  result_space_id: string | null;
  result_revision_id: string | null;
  last_run_state: 'completed' | 'failed' | null;
  last_run_error: string | null;
  last_run_at: string | null;
  runs: number;
  total_words: number;
  total_pages: number;
  total_duration_ms: number;
  latest_run_duration_ms: number;
  latest_pages: number;
  latest_words: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Source page -> translated page of one translation, with the hash of what was translated. */
export interface TranslationPagesTable {
  translation_id: string;
  source_page_id: string;
  page_id: string;
  source_hash: string;
  translated_at: string;
}

/** A term of an organization's translation glossary: its form per language. */
export interface GlossaryEntriesTable {
  id: string;
  organization_id: string;
  translations: string;
  created_at: string;
  updated_at: string;
}

export interface OpenAPISpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  visibility: 'private' | 'public';
  processing_state: 'pending' | 'progress' | 'complete';
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: string | null;
  last_errors: string | null;
  last_error_count: number;
  created_at: string;
  updated_at: string;
}

export interface OpenAPISpecVersionsTable {
  id: string;
  spec_id: string;
  created_at: string;
  content_hash: string;
  source_url: string | null;
  format: 'json' | 'yaml';
  raw: string;
  filesystem: string;
}

export interface ConversationsTable {
  organization_id: string;
  id: string;
  subject: string;
  source: string;
  metadata: string; // JSON { url?, attributes?, createdAt? }
  parts: string; // JSON [{ type: 'message', role, body }]
  digest: string;
  created_at: string;
  ingested_at: string;
  processed_at: string | null;
  processed_digest: string | null;
}

export interface ConversationIssuesTable {
  id: string;
  organization_id: string;
  conversation_id: string;
  position: number;
  title: string;
  summary: string;
  created_at: string;
  ingested_at: string;
  cluster_id: string | null;
  terms: string; // JSON { stem: weight }
  words: string; // JSON { stem: word }
  embedding: string | null; // JSON number[]
}

export interface ConversationClustersTable {
  id: string;
  organization_id: string;
  label: string;
  summary: string;
  icon: string;
  created_at: string;
  updated_at: string;
  centroid_terms: string;
  centroid_embedding: string | null;
  words: string;
  issues: number;
  conversations: number;
  sources: string; // JSON { source: conversations }
  weeks: string; // JSON { weekStart: issues }
  labeled_issues: number;
}
