import { parseArgs } from 'node:util';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import type { RoleName } from './db/types.ts';
import { systemClock } from './lib/clock.ts';
import { ROLES } from './policies/index.ts';
import { membersRepository } from './modules/members/members.repository.ts';
import { organizationsRepository } from './modules/organizations/organizations.repository.ts';
import { presentUser } from './modules/users/users.presenter.ts';
import { usersRepository } from './modules/users/users.repository.ts';
import { buildUserRow } from './modules/users/users.service.ts';
import { issueToken, revokeToken } from './modules/users/users.tokens.ts';
import { toHttpError } from './errors.ts';
import { PostgresAdapter, sql } from 'kysely';
import type { JobState } from './db/types.ts';
import { jobsRepository } from './jobs/jobs.repository.ts';
import { JOBS_CHANNEL } from './jobs/queue.ts';
import { appJobs } from './composition.ts';
import { runWorkerProcess } from './worker.ts';
import { appUrl } from './lib/urls.ts';
import { createLoginLink } from './modules/sessions/sessions.service.ts';
import { verifyDomain } from './modules/organizations/organizations.service.ts';
import { presentRunLine } from './modules/git-sync/git-sync.presenter.ts';
import { listRuns as gitSyncRuns } from './modules/git-sync/git-sync.service.ts';

const USAGE = `Usage: npm run --silent cli -- <command> [options]

Commands:
  users create --org ID --email E --name N --role ROLE [--json]
      Create a user (email counts as verified) in organization ID with ROLE
      (admin, create, review, edit, comment, read, or guest), and issue a token.
  tokens create --email E [--label L] [--json]
      Issue a new API token for the user with that email.
  tokens revoke TOKEN_ID
      Revoke a token; every server process refuses it from its next request.
  users login-link --email E [--json]
      Print a one-time link that signs the user in to the app (PUBLIC_URL/app);
      it works once, within 10 minutes. For installations without an identity provider.
  orgs list [--json]
      List organizations (id and title).
  users admin --email E [--revoke]
      Make the user an installation admin (or no longer one, with --revoke): may create
      organizations whatever ORG_CREATION says, and verify custom hostnames (docs/security.md).
  orgs verify-domain --org ID --domain D
      Mark an email domain as verified by organization ID, once you have checked it owns it:
      its identity providers may then create accounts on that domain (docs/security.md).
  migrate
      Apply pending database migrations.
  worker
      Run a process that only works background jobs (no HTTP); same as npm run worker.
  jobs list [--state queued|running|done|failed|cancelled] [--limit N] [--json]
      List background jobs, newest first, with attempts and the last error.
  jobs retry ID
      Queue a failed or cancelled job again (attempts start over), due now.
  jobs cancel ID
      Cancel a queued or failed job so it never runs (again).
  git-sync log SPACE [--limit N]
      The git sync runs of a space, newest first: direction, status, commit, pages changed, duration, error.

The database is the server's: DATA_DIR (SQLite) or DATABASE_URL (PostgreSQL).
`;

/** Wrong arguments: printed with the usage, exit 2. */
class UsageError extends Error {}
/** A command that could not be carried out: printed alone, exit 1. */
class CommandError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function print(json: boolean, data: unknown, text: string): void {
  process.stdout.write(json ? JSON.stringify(data) + '\n' : text + '\n');
}

async function usersCreate(db: Db, config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const organizationId = required(values, 'org');
  const roleName = required(values, 'role');
  if (roleName !== 'guest' && !ROLES.includes(roleName as RoleName)) {
    throw new UsageError(`--role must be one of ${ROLES.join(', ')}, guest`);
  }
  const role = roleName === 'guest' ? null : (roleName as RoleName);
  const row = buildUserRow(systemClock, {
    email: required(values, 'email'),
    displayName: required(values, 'name'),
    emailVerified: true,
  });
  const result = await db.transaction().execute(async (trx) => {
    if (!(await organizationsRepository.findById(trx, organizationId))) {
      throw new CommandError(`organization ${organizationId} does not exist (see: orgs list)`);
    }
    if (await usersRepository.findByEmail(trx, row.email)) {
      throw new CommandError(`a user with email ${row.email} already exists (issue a token with: tokens create)`);
    }
    await usersRepository.insert(trx, row);
    await membersRepository.insert(trx, {
      organization_id: organizationId,
      user_id: row.id,
      role,
      disabled: 0,
      sso: 0,
      joined_at: row.created_at,
      last_seen_at: null,
    });
    return issueToken(trx, systemClock, row.id, 'cli');
  });
  const user = presentUser(config, row);
  print(values.json ?? false, { user, token: result.token, tokenId: result.id }, `created user ${user.id} <${user.email}>\ntoken: ${result.token}`);
}

async function tokensCreate(db: Db, config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, label: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const email = required(values, 'email');
  const user = await usersRepository.findByEmail(db, email);
  if (!user) throw new CommandError(`no user has email ${email}`);
  const { id, token } = await issueToken(db, systemClock, user.id, values.label ?? 'cli');
  print(values.json ?? false, { token, id, user: presentUser(config, user) }, `token ${id}: ${token}`);
}

async function tokensRevoke(db: Db, args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const tokenId = positionals[0];
  if (!tokenId) throw new UsageError('tokens revoke needs a TOKEN_ID');
  if (!(await revokeToken(db, systemClock, tokenId))) throw new CommandError(`no active token has id ${tokenId}`);
  process.stdout.write(`revoked ${tokenId}\n`);
}

async function usersAdmin(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, revoke: { type: 'boolean', default: false } } });
  const email = required(values, 'email');
  const user = await usersRepository.findByEmail(db, email);
  if (!user) throw new CommandError(`no user has email ${email}`);
  await usersRepository.setInstallationAdmin(db, user.id, !values.revoke);
  process.stdout.write(`${user.email} is ${values.revoke ? 'no longer' : 'now'} an installation admin\n`);
}

async function orgsVerifyDomain(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, domain: { type: 'string' } } });
  const row = await verifyDomain(db, systemClock, required(values, 'org'), required(values, 'domain'), null);
  process.stdout.write(`${row.domain} is verified by organization ${row.organization_id}\n`);
}

/** One-time sign-in links live this long (docs/decisions/sso.md). */
const LOGIN_LINK_TTL_MS = 10 * 60 * 1000;

async function usersLoginLink(db: Db, config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, json: { type: 'boolean', default: false } } });
  const email = required(values, 'email');
  const user = await usersRepository.findByEmail(db, email);
  if (!user) throw new CommandError(`no user has email ${email}`);
  const secret = await createLoginLink(db, systemClock, user.id, LOGIN_LINK_TTL_MS);
  const url = `${appUrl(config, '/login')}?link=${secret}`;
  const expiresAt = new Date(Date.now() + LOGIN_LINK_TTL_MS).toISOString();
  print(values.json ?? false, { url, expiresAt }, `${url}
(one use, until ${expiresAt})`);
}

async function orgsList(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  const rows = await organizationsRepository.listAll(db);
  const items = rows.map((r) => ({ id: r.id, title: r.title, createdAt: r.created_at }));
  print(values.json ?? false, { items }, items.map((o) => `${o.id}\t${o.title}`).join('\n'));
}

const JOB_STATES: JobState[] = ['queued', 'running', 'done', 'failed', 'cancelled'];

async function jobsList(db: Db, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { state: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const state = values.state as JobState | undefined;
  if (state !== undefined && !JOB_STATES.includes(state)) throw new UsageError(`--state must be one of ${JOB_STATES.join(', ')}`);
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
  const rows = await jobsRepository.list(db, state, limit);
  const items = rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    state: r.state,
    key: r.lane_key,
    dedupeKey: r.dedupe_key,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: r.run_at,
    lockedBy: r.locked_by,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    lastError: r.last_error,
  }));
  const text = items
    .map((j) => {
      const line = `${j.id}\t${j.state}\t${j.kind}\tattempts ${j.attempts}/${j.maxAttempts}\t${j.state === 'queued' ? `due ${j.runAt}` : (j.finishedAt ?? j.createdAt)}`;
      return j.lastError && j.state !== 'done' ? `${line}\n\t${j.lastError.split('\n')[0]}` : line;
    })
    .join('\n');
  print(values.json ?? false, { items }, text || 'no jobs');
}

function jobId(args: string[], command: string): number {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const id = Number(positionals[0]);
  if (!positionals[0] || !Number.isInteger(id) || id < 1) throw new UsageError(`${command} needs a job ID (see: jobs list)`);
  return id;
}

async function jobsRetry(db: Db, args: string[]): Promise<void> {
  const id = jobId(args, 'jobs retry');
  if (!(await jobsRepository.retry(db, id, new Date().toISOString()))) throw new CommandError(`no failed or cancelled job has id ${id}`);
  // Wakes workers on PostgreSQL at once; elsewhere they see it at their next poll.
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(db);
  process.stdout.write(`queued ${id} again\n`);
}

async function jobsCancel(db: Db, args: string[]): Promise<void> {
  const id = jobId(args, 'jobs cancel');
  if (!(await jobsRepository.cancel(db, id, new Date().toISOString()))) throw new CommandError(`no queued or failed job has id ${id} (a running job cannot be cancelled)`);
  process.stdout.write(`cancelled ${id}\n`);
}

async function gitSyncLog(db: Db, args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { limit: { type: 'string' } } });
  if (positionals.length !== 1) throw new UsageError('git-sync log takes one space id');
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
  const lines = (await gitSyncRuns(db, positionals[0], limit)).map(presentRunLine);
  process.stdout.write(lines.length ? lines.join('\n') + '\n' : `no git sync runs for space ${positionals[0]}\n`);
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help') {
    process.stdout.write(USAGE);
    return group ? 0 : 2;
  }
  if (group === 'worker') {
    // Runs until SIGTERM/SIGINT, which exits the process.
    await runWorkerProcess(appJobs);
    return new Promise<number>(() => {});
  }
  const config = loadConfig();
  const handle = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrateToLatest(handle.db);
    if (group === 'migrate') {
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
      return 0;
    }
    const command = `${group} ${action ?? ''}`.trim();
    switch (command) {
      case 'users create':
        await usersCreate(handle.db, config, rest);
        return 0;
      case 'tokens create':
        await tokensCreate(handle.db, config, rest);
        return 0;
      case 'tokens revoke':
        await tokensRevoke(handle.db, rest);
        return 0;
      case 'users login-link':
        await usersLoginLink(handle.db, config, rest);
        return 0;
      case 'users admin':
        await usersAdmin(handle.db, rest);
        return 0;
      case 'orgs verify-domain':
        await orgsVerifyDomain(handle.db, rest);
        return 0;
      case 'orgs list':
        await orgsList(handle.db, rest);
        return 0;
      case 'jobs list':
        await jobsList(handle.db, rest);
        return 0;
      case 'jobs retry':
        await jobsRetry(handle.db, rest);
        return 0;
      case 'jobs cancel':
        await jobsCancel(handle.db, rest);
        return 0;
      case 'git-sync log':
        await gitSyncLog(handle.db, rest);
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof CommandError || toHttpError(error)) {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  } finally {
    await handle.close();
  }
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${String((error as Error)?.message ?? error)}\n`);
    process.exit(1);
  },
);
