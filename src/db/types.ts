

/*
 * Row types of every table. Conventions shared by both dialects (see docs/architecture.md):
 * timestamps are ISO 8601 UTC strings with milliseconds (they sort as text), booleans are
 * integers 0/1, structured values are JSON text. Ids are opaque strings made by the app.
 */

import type { Generated } from 'kysely';

export type RoleName = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';

export interface OrganizationsTable {
  id: string;
  title: string;
  created_at: string;
  email_domains: string; // JSON string[]
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: RoleName | null;
  default_content: string | null; // JSON { type, site|space|collection }
  sso: number;
  ai: number;
  invite_links: number;
  logo_url: string | null;
  merge_rules: string; // JSON
  custom_hostname: string | null;
  /** Moves (by trigger) whenever what member listings show changes; see migration 0002. */
}

export interface UsersTable {
  id: string;
  display_name: string;
  email: string; // lower-cased
  email_verified: number;
  photo_url: string | null;
  created_at: string;
  /** 1 for the installation's operators (bootstrap admin, `cli users admin`); 0 by default, so rows written without it also fit a database not yet past migration 0023. */
  installation_admin: Generated<number>;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  /** sha256 of the token; the token itself is never stored. */
  token_hash: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The one organization the token may act on (minted from a scoped session); null: unscoped. */
  organization_id: string | null;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  role: RoleName | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  organization_id: string;
  user_id: string;
  role: 'owner' | 'member';
  added_at: string;
}

export interface InviteLinksTable {
  id: string;
  organization_id: string;
  role: RoleName | null;
  created_by: string;
  created_at: string;
}

export interface AgentInstructionsTable {
  organization_id: string;
  instructions: string; // JSON rich-text document
  updated_at: string;
  updated_by: string;
}

export interface BootstrapTable {
  id: number;
  organization_id: string;
  user_id: string;
  created_at: string;
}


export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

/** A space's or collection's `defaultLevel`: a role, null (no access by default) or `inherit`. */
export type DefaultLevel = RoleName | 'inherit' | null;

export type ContentVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface CollectionsTable {
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
  parent_id: string | null;
  position: number;
  default_level: DefaultLevel;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  title: string;
  emoji: string;
  visibility: ContentVisibility;
  edit_mode: 'live' | 'locked';
  default_level: DefaultLevel;
  language: string | null;
  merge_rules: string; // JSON
  parent_id: string | null;
  position: number;
  revision_id: string | null;
  share_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** JSON: the space's gitSync object once a git sync was set up (migration 0014). */
  git_sync?: string | null;
}

export interface ContentPermissionsTable {
  target_type: 'space' | 'collection';
  target_id: string;
  organization_id: string;
  principal_type: 'user' | 'team';
  principal_id: string;
  role: RoleName;
  created_at: string;
}

export interface RevisionsTable {
  id: string;
  space_id: string;
  parents: string; // JSON string[]
  type: string;
  tree_hash: string;
  files_hash: string;
  reusables_hash: string;
  variables: string; // JSON
  git: string | null; // JSON
  merged_from: string | null;
  created_by: string | null;
  created_at: string;
}

export interface ContentObjectsTable {
  space_id: string;
  hash: string;
  /** `source`: a file's text as git sync read it (a JSON string), written back while its page is unchanged. */
  kind: 'document' | 'tree' | 'files' | 'reusables' | 'source';
  body: string; // JSON
}

export interface SpaceBlobsTable {
  space_id: string;
  hash: string;
  size: number;
}

export interface SitesTable {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: 'public' | 'unlisted' | 'share-link' | 'visitor-auth';
  published: number;
  basename: string | null;
  /** A custom hostname proven to be the site's (served). */
  hostname: string | null;
  /** A custom hostname set but not yet proven (not served; docs/security.md). */
  pending_hostname: string | null;
  proxy: string | null;
  adaptive_content: number;
  agents_context: 'included' | 'excluded';
  default_site_space_id: string | null;
  default_site_section_id: string | null;
  customization: string; // JSON
  adaptive_schema: string | null; // JSON
  adaptive_schema_updated_at: string | null;
  visitor_auth_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  parent_group_id: string | null;
  position: number;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  title: string;
  description: string | null;
  icon: string | null;
  path: string;
  condition: string | null;
  section_group_id: string | null;
  position: number;
  created_at: string;
  /** Migration 0006: the section's default site space. */
  default_site_space_id: string | null;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  title: string | null;
  condition: string | null;
  customization: string; // JSON
  position: number;
  created_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string | null;
  key: string;
  active: number;
  created_at: string;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestCountersTable {
  space_id: string;
  last_number: number;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  description: string | null; // JSON rich-text document
  created_by: string;
  created_at: string;
  updated_at: string;
  revision_id: string;
  revision_initial: string;
  revision_merged_ancestor: string;
  revision_merged: string | null;
  merged_by: string | null;
  merged_at: string | null;
  /** The conversations issues cluster it was opened against (migration 0018). */
  conversations_issues_cluster?: string | null;
}

export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: 'approved' | 'changes-requested';
  revision_id: string;
  comment: string | null; // markdown
  created_at: string;
  updated_at: string;
}

export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision_id: string;
  created_at: string;
}

export interface ChangeRequestContributorsTable {
  change_request_id: string;
  user_id: string;
  first_contributed_at: string;
  last_contributed_at: string;
  count: number;
}

export type CommentStatus = 'open' | 'resolved';

export interface CommentsTable {
  id: string;
  space_id: string;
  change_request_id: string | null; // null: a comment on the space itself
  revision_id: string;
  page_id: string | null;
  node_id: string | null;
  table_record: string | null;
  table_definition: string | null;
  body: string; // markdown as written
  mentions: string; // JSON array of mentioned member ids
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
  status: CommentStatus;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  space_id: string;
  body: string;
  mentions: string;
  posted_by: string;
  posted_at: string;
  edited_at: string | null;
}

export interface CommentReactionsTable {
  comment_id: string;
  reply_id: string; // '' for a reaction on the comment itself
  emoji: string;
  user_id: string;
  reacted_at: string;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** A background job (migration 0011; src/jobs/queue.ts). */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** JSON. */
  payload: string;
  state: JobState;
  /** Jobs with the same lane key run one at a time, in id order. */
  lane_key: string | null;
  /** At most one queued or running job has a given dedupe key. */
  dedupe_key: string | null;
  /** How many times a worker started it. */
  attempts: number;
  max_attempts: number;
  /** Not claimed before this time (a retry's backoff). */
  run_at: string;
  locked_by: string | null;
  /** Names one claim: a worker whose lease was taken over finishes nothing. */
  lock_token: string | null;
  locked_until: string | null;
  last_error: string | null;
  /** JSON of what the handler returned, when done. */
  result: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** One recurring job's period, claimed by the one process that runs it. */
export interface JobPeriodsTable {
  name: string;
  period: number;
  claimed_by: string;
  claimed_at: string;
}

export interface PdfExportsTable {
  /** The random 256-bit id of the download URL. */
  id: string;
  space_id: string;
  revision_id: string;
  /** '' (every page), 'page:<id>' (a page and its subpages) or 'only:<id>'. */
  selection: string;
  file_name: string;
  size: number;
  created_at: string;
  expires_at: string;
  /** The export's bytes in the file store (area `exports`); null for exports made before 0012. */
  file_hash: string | null;
}

/** A file kept in the database (FILE_STORE=database): one row per file, bytes in file_chunks. */
export interface FileObjectsTable {
  area: string;
  hash: string;
  size: number | string;
  created_at: string;
}

export interface FileChunksTable {
  key: string;
  seq: number;
  data: Buffer;
}

/** One heading section of a page in the full-text index (migration 0008). */
export interface SearchSectionsTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  position: number;
  /** The heading's anchor; '' for the text before the first heading. */
  section_id: string;
  page_title: string;
  section_title: string;
  body: string;
  /** The revision this row was written from. */
  revision_id: string;
}

/** Which revision of a space the full-text index reflects. */
export interface SearchIndexStateTable {
  space_id: string;
  revision_id: string;
  updated_at: string;
}

/**
 * SQLite only (migrations 0008, 0010): the index of one page. `body` is its sections laid
 * end to end (`title\nbody\n` each); `outline` a JSON array of `[sectionId, titleLength,
 * bodyLength]`, one per section in order, to cut it back into sections.
 */
export interface SearchPagesTable {
  id: Generated<number>;
  space_id: string;
  page_id: string;
  page_title: string;
  body: string;
  outline: string;
  /** The revision this row was written from. */
  revision_id: string;
}

/**
 * PostgreSQL only (migration 0015): one page's stored tsvector (`english`: title A,
 * headings B, text D) and its title's, each with a GIN index; its sections' text stays in
 * search_sections.
 */
export interface SearchPageVectorsTable {
  space_id: string;
  page_id: string;
  /** The revision this row was written from. */
  revision_id: string;
  /** Written by SQL only (searchRepository); read only inside queries. */
  tsv: string;
  /** The title's tsvector alone (GIN index): which pages' titles match. */
  title_tsv: string;
}

export interface Database {
  collab_updates: CollabUpdatesTable;
  collab_rooms: CollabRoomsTable;
  collab_awareness: CollabAwarenessTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  invite_links: InviteLinksTable;
  agent_instructions: AgentInstructionsTable;
  bootstrap: BootstrapTable;
  server_secrets: ServerSecretsTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  content_permissions: ContentPermissionsTable;
  revisions: RevisionsTable;
  content_objects: ContentObjectsTable;
  space_blobs: SpaceBlobsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  change_request_counters: ChangeRequestCountersTable;
  change_requests: ChangeRequestsTable;
  change_request_reviews: ChangeRequestReviewsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  change_request_contributors: ChangeRequestContributorsTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  pdf_exports: PdfExportsTable;
  file_objects: FileObjectsTable;
  file_chunks: FileChunksTable;
  search_sections: SearchSectionsTable;
  search_pages: SearchPagesTable;
  search_page_vectors: SearchPageVectorsTable;
  search_index_state: SearchIndexStateTable;
  jobs: JobsTable;
  job_periods: JobPeriodsTable;
  conversations: ConversationsTable;
  conversation_issues: ConversationIssuesTable;
  conversation_clusters: ConversationClustersTable;
  saml_providers: SamlProvidersTable;
  saml_requests: SamlRequestsTable;
  saml_assertions: SamlAssertionsTable;
  sessions: SessionsTable;
  verified_domains: VerifiedDomainsTable;
  login_links: LoginLinksTable;
  git_syncs: GitSyncsTable;
  git_sync_runs: GitSyncRunsTable;
  translations: TranslationsTable;
  translation_pages: TranslationPagesTable;
  glossary_entries: GlossaryEntriesTable;
  openapi_specs: OpenAPISpecsTable;
  openapi_spec_versions: OpenAPISpecVersionsTable;
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

/** An organization's SAML identity provider (migration 0016). */
export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string;
  sso_url: string;
  certificate: string;
  default_team_id: string | null;
  default_role: RoleName | null;
  created_at: string;
}

/** An AuthnRequest Quire sent and not yet seen answered. */
export interface SamlRequestsTable {
  id: string;
  provider_id: string;
  created_at: string;
  expires_at: string;
  /** sha256 of the nonce cookie of the browser that started the sign-in. */
  browser_hash: string | null;
}

/** An email domain an organization has proven it owns (docs/security.md, "Tenant model"). */
export interface VerifiedDomainsTable {
  domain: string;
  organization_id: string;
  verified_at: string;
  verified_by: string | null;
}

/** An assertion already accepted (replay refusal). */
export interface SamlAssertionsTable {
  provider_id: string;
  assertion_id: string;
  accepted_at: string;
  expires_at: string;
}

/** A browser session of the app; only the hash of its id is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: string;
  method: 'saml' | 'link';
  provider_id: string | null;
  organization_id: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A one-time sign-in link made by the CLI; only the hash of its secret is stored. */
export interface LoginLinksTable {
  secret_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

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

/** A Yjs update of a page edited together in a change request (modules/collab). */
export interface CollabUpdatesTable {
  id: Generated<number>;
  change_request_id: string;
  page_id: string;
  process_id: string;
  /** The update, base64. */
  data: string;
  size: number;
  created_at: string;
}

/** A server process that has a live document open, renewed while it is (modules/collab). */
export interface CollabRoomsTable {
  change_request_id: string;
  page_id: string;
  process_id: string;
  seen_at: string;
}

/** One editor client's last awareness state in a live document (modules/collab). */
export interface CollabAwarenessTable {
  change_request_id: string;
  page_id: string;
  client_id: number;
  process_id: string;
  /** The member whose editor this client is. */
  user_id: string;
  /** The y-protocols awareness update of this client alone, base64. */
  data: string;
  updated_at: string;
}
