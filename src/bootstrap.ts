import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { isoNow, type Clock } from './lib/clock.ts';
import { newId } from './lib/ids.ts';
import { organizationsRepository } from './modules/organizations/organizations.repository.ts';
import { createOrganizationWithAdmin } from './modules/organizations/organizations.service.ts';
import { usersRepository } from './modules/users/users.repository.ts';
import { buildUserRow } from './modules/users/users.service.ts';
import { issueGivenToken, issueToken } from './modules/users/users.tokens.ts';

export const ADMIN_TOKEN_FILE = 'admin-token';

export interface BootstrapResult {
  created: boolean;
  organizationId: string;
  userId: string;
  /** Where the generated token was written, when it was generated. */
  tokenFile?: string;
}

/**
 * First start on an empty database: exactly one organization and one admin user, whose
 * token is BOOTSTRAP_ADMIN_TOKEN or a generated one written to DATA_DIR/admin-token (0600).
 * Several processes may start at once on one PostgreSQL: the bootstrap row's primary key
 * lets exactly one of them do it.
 */
export async function bootstrap(db: Db, clock: Clock, config: Config, log: FastifyBaseLogger): Promise<BootstrapResult> {
  const existing = await organizationsRepository.findBootstrap(db);
  if (existing) return { created: false, organizationId: existing.organization_id, userId: existing.user_id };

  return db.transaction().execute(async (trx) => {
    const admin = buildUserRow(clock, {
      email: config.bootstrapAdminEmail,
      displayName: config.bootstrapAdminName,
      emailVerified: true,
    });
    const organizationId = newId();
    // Claim first: a concurrent bootstrap blocks here, then finds the row taken and stops,
    // before it could collide on anything else.
    const claimed = await organizationsRepository.claimBootstrap(trx, {
      id: 1,
      organization_id: organizationId,
      user_id: admin.id,
      created_at: isoNow(clock),
    });
    if (!claimed) throw new BootstrapLost();
    // The operator's account: an installation admin (docs/security.md).
    await usersRepository.insert(trx, { ...admin, installation_admin: 1 });
    const organization = await createOrganizationWithAdmin(
      trx,
      clock,
      { id: organizationId, title: config.bootstrapOrganizationTitle },
      admin.id,
    );
    let tokenFile: string | undefined;
    if (config.bootstrapAdminToken) {
      await issueGivenToken(trx, clock, admin.id, config.bootstrapAdminToken, 'bootstrap');
    } else {
      const { token } = await issueToken(trx, clock, admin.id, 'bootstrap');
      // Written before commit: if the file cannot be written, nothing is created.
      fs.mkdirSync(config.dataDir, { recursive: true });
      tokenFile = path.join(config.dataDir, ADMIN_TOKEN_FILE);
      fs.writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
      fs.chmodSync(tokenFile, 0o600);
    }
    log.info({ organizationId: organization.id, userId: admin.id, tokenFile }, 'bootstrapped the first organization and admin');
    return { created: true, organizationId: organization.id, userId: admin.id, tokenFile };
  }).catch(async (error: unknown) => {
    if (!(error instanceof BootstrapLost)) throw error;
    const row = await organizationsRepository.findBootstrap(db);
    if (!row) throw new Error('bootstrap lost a race but no bootstrap row exists');
    return { created: false, organizationId: row.organization_id, userId: row.user_id };
  });
}

class BootstrapLost extends Error {}
