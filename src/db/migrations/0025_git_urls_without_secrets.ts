import type { Kysely } from 'kysely';

/*
 * Frozen. Issue 30: git URLs were stored with what users put in them. repoCommitURL (with
 * any user:password@ or token parameter) went into every imported revision's `git.url`,
 * served to every reader, and repoTreeURL / repoCommitURL stayed in clear in the job
 * rows; the space's gitSync kept "redacted@" and "token=redacted" placeholders. From now
 * on the app strips them before storing (git-sync.remote.ts, storedUrl); this removes
 * them from what was stored before, with a copy of that rule as it is today.
 *
 * A queued or running job keeps its `remote`: its token parameter (if any) is what git
 * needs, and the job runs once and is removed by housekeeping.
 */

const SECRET_PARAMS = new Set([
  'sig', 'signature', 'token', 'access_token', 'sharekey', 'share', 'jwt_token', 'key', 'password', 'secret',
  'x-amz-signature', 'x-amz-credential', 'x-amz-security-token',
]);

function stripped(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return input;
  }
  const secret = [...url.searchParams.keys()].filter((name) => SECRET_PARAMS.has(name.toLowerCase()));
  if (!url.username && !url.password && secret.length === 0) return input;
  url.username = '';
  url.password = '';
  for (const name of secret) url.searchParams.delete(name);
  return url.toString();
}

/** The JSON text with these fields' URLs stripped, or undefined when nothing changed. */
function rewrite(text: string | null, fields: readonly string[]): string | undefined {
  if (!text) return undefined;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  let changed = false;
  for (const field of fields) {
    const next = stripped(value[field]);
    if (next !== value[field]) {
      value[field] = next;
      changed = true;
    }
  }
  return changed ? JSON.stringify(value) : undefined;
}

/** Only rows whose text could hold a secret are read (an `@` or a query). */
const suspicious = (column: string) => (eb: any) => eb.or([eb(column, 'like', '%@%'), eb(column, 'like', '%?%')]);

export async function up(db: Kysely<any>): Promise<void> {
  const revisions = await db.selectFrom('revisions').select(['id', 'git']).where('git', 'is not', null).where(suspicious('git')).execute();
  for (const row of revisions) {
    const git = rewrite(row.git, ['url']);
    if (git) await db.updateTable('revisions').set({ git }).where('id', '=', row.id).execute();
  }

  const jobs = await db.selectFrom('jobs').select(['id', 'payload', 'state']).where('kind', 'in', ['git-sync.import', 'git-sync.export']).where(suspicious('payload')).execute();
  for (const row of jobs) {
    const pending = row.state === 'queued' || row.state === 'running';
    const payload = rewrite(row.payload, pending ? ['repoTreeURL', 'repoCommitURL'] : ['repoTreeURL', 'repoCommitURL', 'remote']);
    if (payload) await db.updateTable('jobs').set({ payload }).where('id', '=', row.id).execute();
  }

  const syncs = await db.selectFrom('git_syncs').select(['space_id', 'remote']).where(suspicious('remote')).execute();
  for (const row of syncs) {
    const remote = stripped(row.remote) as string;
    if (remote !== row.remote) await db.updateTable('git_syncs').set({ remote }).where('space_id', '=', row.space_id).execute();
  }

  const spaces = await db.selectFrom('spaces').select(['id', 'git_sync']).where('git_sync', 'is not', null).where(suspicious('git_sync')).execute();
  for (const row of spaces) {
    const gitSync = rewrite(row.git_sync, ['url']);
    if (gitSync) await db.updateTable('spaces').set({ git_sync: gitSync }).where('id', '=', row.id).execute();
  }
}
