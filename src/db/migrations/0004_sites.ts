import type { Kysely } from 'kysely';

/*
 * Frozen: docs sites, their section groups, sections and site spaces, and share links.
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull().defaultTo('basic'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('visibility', 'varchar(16)', (c) => c.notNull().defaultTo('public'))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    // Published sites are served at PUBLIC_URL/sites/<basename>/: unique across the server.
    .addColumn('basename', 'varchar(100)', (c) => c.unique())
    .addColumn('hostname', 'varchar(255)', (c) => c.unique())
    .addColumn('proxy', 'varchar(512)')
    .addColumn('adaptive_content', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('agents_context', 'varchar(16)', (c) => c.notNull().defaultTo('included'))
    .addColumn('default_site_space_id', 'varchar(64)')
    .addColumn('default_site_section_id', 'varchar(64)')
    // JSON: the site's customization object (spec 2.9), `{}` until set.
    .addColumn('customization', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON: the adaptive schema (JSON Schema draft-07), null when none is set.
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'varchar(32)')
    // Secret for visitor-auth JWTs (HS256), made at creation.
    .addColumn('visitor_auth_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sites_org').on('sites').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('icon', 'varchar(64)')
    .addColumn('parent_group_id', 'varchar(64)')
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id', 'position']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'varchar(256)')
    .addColumn('icon', 'varchar(64)')
    .addColumn('path', 'varchar(100)', (c) => c.notNull())
    .addColumn('condition', 'varchar(1024)')
    .addColumn('section_group_id', 'varchar(64)')
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_sections_site').on('site_sections').columns(['site_id', 'position']).execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    // Null: at the site root (a site without sections).
    .addColumn('section_id', 'varchar(64)')
    .addColumn('space_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(100)', (c) => c.notNull())
    .addColumn('title', 'varchar(255)')
    .addColumn('condition', 'varchar(1024)')
    // JSON: customization overrides of this site space, `{}` until set.
    .addColumn('customization', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('position', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_spaces_site').on('site_spaces').columns(['site_id', 'section_id', 'position']).execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').column('space_id').execute();

  // Share links of `share-link` sites: each is a key a visitor presents.
  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('site_id', 'varchar(64)', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)')
    .addColumn('key', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_share_links_site').on('site_share_links').columns(['site_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['site_share_links', 'site_spaces', 'site_sections', 'site_section_groups', 'sites']) {
    await db.schema.dropTable(table).execute();
  }
}
