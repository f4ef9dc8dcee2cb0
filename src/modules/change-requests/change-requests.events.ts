/*
 * In-process word that a change request's head or status moved (its content written, main
 * merged into it, merged, closed), given after the write committed to what listens on the same
 * database handle: live editing (src/modules/collab) follows it at once in the documents open
 * on this process. A hint, never the data: a listener reads the database, and other processes
 * (or a write this hint missed) are seen by live editing's poll of the change requests' heads.
 * Keyed by the handle, so two apps in one Node process (tests) hear only their own writes.
 */
/** `content`: its head revision moved; `status`: merged, closed or reopened. */
export type ChangeRequestMove = 'content' | 'status';
type Listener = (changeRequestId: string, what: ChangeRequestMove) => void;

const listeners = new WeakMap<object, Set<Listener>>();

/** Listens to the change requests moved through `db` (the app's handle); answers the unsubscribe. */
export function onChangeRequestMoved(db: object, listener: Listener): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Says that a change request moved (after its transaction committed); listeners run on the next turn. */
export function changeRequestMoved(db: object, changeRequestId: string, what: ChangeRequestMove): void {
  const set = listeners.get(db);
  if (!set || set.size === 0) return;
  setImmediate(() => {
    for (const listener of set) listener(changeRequestId, what);
  });
}
