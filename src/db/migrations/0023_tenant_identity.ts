import type { Kysely } from 'kysely';

/*
 * Frozen: the identity model across organizations (issue 30, docs/security.md "Tenant model").
 * - users.installation_admin: the operator's role on the whole installation (1 or 0).
 * - api_tokens.organization_id: a token minted from a session scoped to one organization
 *   acts on that organization only; null for an unscoped token.
 * - verified_domains: an email domain an organization has proven it owns (marked by an
 *   installation admin); its identity providers may create accounts on it. One
 *   organization per domain.
 * - saml_requests.browser_hash: sha256 of the nonce in the cookie of the browser that
 *   started the sign-in; the answer is accepted from that browser only (login CSRF).
 * Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('installation_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('api_tokens').addColumn('organization_id', 'varchar(64)').execute();
  await db.schema.alterTable('saml_requests').addColumn('browser_hash', 'varchar(64)').execute();
  await db.schema
    .createTable('verified_domains')
    .addColumn('domain', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('verified_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('verified_by', 'varchar(64)')
    .execute();
  await db.schema.createIndex('verified_domains_organization').on('verified_domains').columns(['organization_id']).execute();
}
