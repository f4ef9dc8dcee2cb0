import type { Kysely } from 'kysely';

// Frozen: organizations, users, API tokens, members, teams, invite links, agent
// instructions and the first-start bootstrap marker. Never import application code here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('title', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('email_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('hostname', 'varchar(64)', (c) => c.unique())
    .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('business'))
    .addColumn('use_case', 'varchar(64)')
    .addColumn('community_type', 'varchar(64)')
    .addColumn('default_role', 'varchar(16)')
    .addColumn('default_content', 'text')
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ai', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invite_links', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('logo_url', 'text')
    .addColumn('merge_rules', 'text', (c) => c.notNull().defaultTo('{"type":"none"}'))
    .addColumn('custom_hostname', 'varchar(255)')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('photo_url', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('label', 'varchar(255)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();

  await db.schema
    .createTable('members')
    .addColumn('organization_id', 'varchar(64)', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)')
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('joined_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)')
    .addPrimaryKeyConstraint('members_pk', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user').on('members').column('user_id').execute();
  await db.schema
    .createIndex('members_joined')
    .on('members')
    .columns(['organization_id', 'joined_at', 'user_id'])
    .execute();
  await db.schema
    .createIndex('members_last_seen')
    .on('members')
    .columns(['organization_id', 'last_seen_at', 'user_id'])
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('title', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('teams_org').on('teams').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'varchar(64)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo('member'))
    .addColumn('added_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    // Leaving the organization leaves its teams.
    .addForeignKeyConstraint('team_members_member_fk', ['organization_id', 'user_id'], 'members', [
      'organization_id',
      'user_id',
    ], (c) => c.onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('team_members_member')
    .on('team_members')
    .columns(['organization_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('invite_links')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('role', 'varchar(16)')
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invite_links_org')
    .on('invite_links')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('agent_instructions')
    .addColumn('organization_id', 'varchar(64)', (c) =>
      c.primaryKey().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('instructions', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)', (c) => c.notNull())
    .execute();

  // Server-held secrets (signing keys), made on first use and shared by every process.
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  // One row, ever: concurrent first starts race on this primary key, and one wins.
  await db.schema
    .createTable('bootstrap')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('organization_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'bootstrap',
    'server_secrets',
    'agent_instructions',
    'invite_links',
    'team_members',
    'teams',
    'members',
    'api_tokens',
    'users',
    'organizations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
