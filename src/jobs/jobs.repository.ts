import type { Executor, JobRow } from './queue.ts';
import type { JobState } from '../db/types.ts';

/** Operators' queries on the jobs table (cli -- jobs ...) and its housekeeping. */
export const jobsRepository = {
  async list(db: Executor, state: JobState | undefined, limit: number): Promise<JobRow[]> {
    let query = db.selectFrom('jobs').selectAll().orderBy('id', 'desc').limit(limit);
    if (state) query = query.where('state', '=', state);
    return query.execute();
  },

  /** A failed or cancelled job queued again, due now, with its attempts reset; false if it is neither. */
  async retry(db: Executor, id: number, now: string): Promise<boolean> {
    const result = await db
      .updateTable('jobs')
      .set({ state: 'queued', attempts: 0, run_at: now, finished_at: null, updated_at: now })
      .where('id', '=', id)
      .where('state', 'in', ['failed', 'cancelled'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** A queued or failed job will not run (again); false if it is running or finished otherwise. */
  async cancel(db: Executor, id: number, now: string): Promise<boolean> {
    const result = await db
      .updateTable('jobs')
      .set({ state: 'cancelled', finished_at: now, updated_at: now })
      .where('id', '=', id)
      .where('state', 'in', ['queued', 'failed'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Deletes done and cancelled jobs finished before `finishedBefore`, failed ones before `failedBefore`. */
  async deleteFinished(db: Executor, finishedBefore: string, failedBefore: string): Promise<number> {
    const result = await db
      .deleteFrom('jobs')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', 'in', ['done', 'cancelled']), eb('finished_at', '<', finishedBefore)]),
          eb.and([eb('state', '=', 'failed'), eb('finished_at', '<', failedBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },

  /** How many jobs are in each state (the queue's depth and failures, for GET /metrics). */
  async countByState(db: Executor): Promise<Array<{ state: JobState; count: number }>> {
    const rows = await db.selectFrom('jobs').select(['state', (eb) => eb.fn.countAll<number | string>().as('count')]).groupBy('state').execute();
    return rows.map((row) => ({ state: row.state as JobState, count: Number(row.count) }));
  },

  async deletePeriodsBefore(db: Executor, before: string): Promise<number> {
    const result = await db.deleteFrom('job_periods').where('claimed_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
