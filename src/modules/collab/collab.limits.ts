/**
 * Budgets: one message, one document's stored updates, connections per session and per
 * document; awareness (cursors): client ids one connection may speak for, clients shown in
 * one document (all processes), and one client's state (its JSON).
 */
export const COLLAB_LIMITS = {
  messageBytes: 512 * 1024,
  docBytes: 8 * 1024 * 1024,
  connectionsPerSession: 8,
  connectionsPerDoc: 32,
  awarenessClientsPerConnection: 2,
  awarenessClientsPerDoc: 64,
  awarenessStateBytes: 2048,
};

/**
 * A hold of a document or an awareness state not renewed for this long belongs to a process
 * that stopped without leaving, or to a client gone quiet (browsers renew their awareness
 * every 15 s).
 */
export const HOLD_EXPIRE_MS = 45_000;
