import type { Kysely } from 'kysely';

/*
 * Frozen: SAML single sign-on and browser sessions (issue 17, docs/decisions/sso.md).
 * - saml_providers: an organization's identity providers (spec 2.13).
 * - saml_requests: AuthnRequests Quire sent; a response must answer one (InResponseTo),
 *   and answering consumes it. Shared by every server process through the database.
 * - saml_assertions: ids of assertions already accepted; the primary key refuses a
 *   replay on any process. Kept until the assertion would have expired anyway.
 * - sessions: browser sessions of the app; only sha256 of the session id is stored.
 * - login_links: one-time sign-in links made by the CLI; only sha256 of the secret.
 * No foreign keys: a deleted team or provider just stops being shown (the presenter joins).
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saml_providers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('label', 'varchar(100)', (c) => c.notNull())
    .addColumn('entity_id', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sso_url', 'varchar(2048)', (c) => c.notNull())
    // PEM, normalized (parsed with X509Certificate before it is stored).
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('default_team_id', 'varchar(64)')
    .addColumn('default_role', 'varchar(16)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_providers_organization').on('saml_providers').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('saml_requests')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saml_requests_expiry').on('saml_requests').columns(['expires_at']).execute();

  await db.schema
    .createTable('saml_assertions')
    .addColumn('provider_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('accepted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_pk', ['provider_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_assertions_expiry').on('saml_assertions').columns(['expires_at']).execute();

  await db.schema
    .createTable('sessions')
    // sha256 (hex) of the session id in the cookie; the id itself is never stored.
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    // 'saml' or 'link' (a CLI login link).
    .addColumn('method', 'varchar(16)', (c) => c.notNull())
    // The provider (and so the organization) a SAML session came through.
    .addColumn('provider_id', 'varchar(64)')
    .addColumn('organization_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id']).execute();

  await db.schema
    .createTable('login_links')
    .addColumn('secret_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['login_links', 'sessions', 'saml_assertions', 'saml_requests', 'saml_providers']) {
    await db.schema.dropTable(table).execute();
  }
}
