/*
 * The live documents of a change request that was merged or closed: their unsaved live edits
 * can no longer be saved into it, so their rows go (docs/decisions/editor.md, "Deleting
 * rows"). A document no process holds is deleted at once, under its lock (collab.repository
 * withDocLock, as opening and letting go of it); one still open somewhere is deleted by the
 * process holding it, which ends its room and lets it go (collab.service.ts). Loaded with the
 * routes: no Yjs here.
 */
import type { Db, DialectName } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { changeRequestsRepository } from '../change-requests/change-requests.repository.ts';
import { collabRepository } from './collab.repository.ts';
import { HOLD_EXPIRE_MS } from './collab.limits.ts';

/** A change request still edited (open or a draft); merged or closed, its live documents end. */
export const isPending = (status: string) => status === 'open' || status === 'draft';

/** Deletes the rows of the change request's live documents no process holds, if it is merged or closed; answers how many documents. */
export async function clearSettledDocs(db: Db, dialect: DialectName, clock: Clock, changeRequestId: string): Promise<number> {
  const [head] = await changeRequestsRepository.heads(db, [changeRequestId]);
  if (head && isPending(head.status)) return 0;
  const since = new Date(clock.now().getTime() - HOLD_EXPIRE_MS).toISOString();
  let cleared = 0;
  for (const pageId of await collabRepository.pagesOf(db, changeRequestId)) {
    const key = { changeRequestId, pageId };
    await collabRepository.withDocLock(db, dialect, key, async (trx) => {
      if ((await collabRepository.otherHolders(trx, key, '', since)) > 0) return;
      await collabRepository.clearDoc(trx, key);
      cleared += 1;
    });
  }
  return cleared;
}
