import { ContentKeptChanging } from '../lib/domain-errors.ts';
import type { Db } from './database.ts';

/** Thrown inside a transaction to roll it back and try again: another write moved a head revision first. */
export class HeadMoved extends Error {}

/**
 * Runs `attempt` in a transaction, again (up to 5 times in all) when it throws HeadMoved:
 * compare-and-set writes of head revisions lose a race by rolling back, never by
 * committing half of their work. After 5 lost races the caller gets ContentKeptChanging (a 409).
 */
export async function retryingTransaction<T>(db: Db, attempt: (trx: Db) => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await db.transaction().execute(attempt);
    } catch (error) {
      if (!(error instanceof HeadMoved)) throw error;
      if (i >= 4) throw new ContentKeptChanging();
    }
  }
}
