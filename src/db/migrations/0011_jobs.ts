import { PostgresAdapter, sql, type Kysely } from 'kysely';

/*
 * Frozen: the durable job queue (docs/decisions/jobs.md).
 *
 * - jobs: one row per job. `id` grows with every enqueue (a per-key lane runs in id
 *   order). `state`: queued, running, done, failed or cancelled. A running job holds a
 *   lease (`locked_by`, `lock_token`, `locked_until`); a lease that runs out makes the job
 *   claimable again. `dedupe_key` is unique among jobs not finished (queued or running).
 * - job_periods: one row per recurring job and period; the process that inserts it is
 *   the one that enqueues that period's run.
 *
 * Times are ISO 8601 UTC strings like every other table. Never import application code here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('jobs')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('kind', 'varchar(100)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('lane_key', 'varchar(300)')
    .addColumn('dedupe_key', 'varchar(300)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('locked_by', 'varchar(100)')
    .addColumn('lock_token', 'varchar(64)')
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('last_error', 'text')
    .addColumn('result', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('finished_at', 'varchar(32)')
    .execute();
  // What workers claim: due queued jobs, and running ones whose lease ran out.
  await db.schema.createIndex('jobs_claimable').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_lane').on('jobs').columns(['lane_key', 'id']).where(sql.ref('lane_key'), 'is not', null).execute();
  await db.schema
    .createIndex('jobs_dedupe')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql<boolean>`dedupe_key is not null and state in ('queued', 'running')`)
    .execute();
  await db.schema.createIndex('jobs_finished').on('jobs').columns(['finished_at']).execute();

  await db.schema
    .createTable('job_periods')
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('period', 'bigint', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(100)', (c) => c.notNull())
    .addColumn('claimed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('job_periods_pk', ['name', 'period'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_periods').execute();
  await db.schema.dropTable('jobs').execute();
}
