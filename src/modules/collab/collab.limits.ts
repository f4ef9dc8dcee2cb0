/** Budgets: one message, one document's stored updates, connections per session and per document. */
export const COLLAB_LIMITS = {
  messageBytes: 512 * 1024,
  docBytes: 8 * 1024 * 1024,
  connectionsPerSession: 8,
  connectionsPerDoc: 32,
};
