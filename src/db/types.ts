/*
 * Row types of every table. Conventions shared by both dialects (see docs/architecture.md):
 * timestamps are ISO 8601 UTC strings with milliseconds (they sort as text), booleans are
 * integers 0/1, structured values are JSON text. Ids are opaque strings made by the app.
 *
 * The row types live in tables/, one file per part of the model; this file is the table
 * map Kysely is typed with, and re-exports them so the app imports row types from here.
 */

import type { AgentInstructionsTable, ApiTokensTable, BootstrapTable, InviteLinksTable, LoginLinksTable, MembersTable, OrganizationsTable, SamlAssertionsTable, SamlProvidersTable, SamlRequestsTable, ServerSecretsTable, SessionsTable, TeamMembersTable, TeamsTable, UsersTable, VerifiedDomainsTable } from './tables/accounts.ts';
import type { ChangeRequestContributorsTable, ChangeRequestCountersTable, ChangeRequestReviewersTable, ChangeRequestReviewsTable, ChangeRequestsTable, CollabAwarenessTable, CollabRoomsTable, CollabUpdatesTable, CollectionsTable, CommentReactionsTable, CommentRepliesTable, CommentsTable, ContentObjectsTable, ContentPermissionsTable, RevisionsTable, SpaceBlobsTable, SpacesTable } from './tables/content.ts';
import type { SiteSectionGroupsTable, SiteSectionsTable, SiteShareLinksTable, SiteSpacesTable, SitesTable } from './tables/sites.ts';
import type { ConversationClustersTable, ConversationIssuesTable, ConversationsTable, GitSyncRunsTable, GitSyncsTable, GlossaryEntriesTable, OpenAPISpecVersionsTable, OpenAPISpecsTable, TranslationPagesTable, TranslationsTable } from './tables/integrations.ts';
import type { FileChunksTable, FileObjectsTable, JobPeriodsTable, JobsTable, PdfExportsTable, SearchIndexStateTable, SearchPageVectorsTable, SearchPagesTable, SearchSectionsTable } from './tables/system.ts';

export type * from './tables/accounts.ts';
export type * from './tables/content.ts';
export type * from './tables/sites.ts';
export type * from './tables/integrations.ts';
export type * from './tables/system.ts';

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
