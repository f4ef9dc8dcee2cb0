/*
 * Row types of docs sites: sites, section groups, sections, site spaces, share links.
 * Conventions and the table map: ../types.ts.
 */

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
