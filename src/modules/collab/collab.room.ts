/*
 * One live document open on this process (a Room) and its members, with the awareness rules
 * (others' cursors: who may speak for which client, budgets, the states exchanged with other
 * processes); collab.service.ts runs the rooms.
 */
import * as Y from 'yjs';
import * as awarenessProtocol from 'y-protocols/awareness';
import type { Db } from '../../db/database.ts';
import { collabRepository, type CollabAwarenessRow, type CollabDocKey } from './collab.repository.ts';
import { COLLAB_LIMITS } from './collab.limits.ts';
import { awarenessEntries } from './collab.ydoc.ts';
import type { CollabAccess } from './collab.access.ts';

/** What the hub needs of a connection (a WebSocket in the routes, anything in tests). */
export interface CollabTransport {
  send(data: Uint8Array): void;
  close(code: number, reason: string): void;
}

export class Member {
  /** Awareness client ids this connection has announced (removed when it leaves). */
  readonly awarenessClients = new Set<number>();
  constructor(
    readonly access: CollabAccess,
    readonly transport: CollabTransport,
  ) {}
}

export class Room {
  readonly doc = new Y.Doc({ gc: true });
  readonly awareness = new awarenessProtocol.Awareness(this.doc);
  readonly members = new Set<Member>();
  /** Messages are handled one after another, so an update is stored before the next is read. */
  queue: Promise<void> = Promise.resolve();
  /** Rows after this id are read at each poll. */
  pollMark = 0;
  /** When this process last renewed its hold of the document (ms). */
  heldAt = 0;
  /** Awareness states read from other processes: client id -> the stored update and its member. */
  readonly remote = new Map<number, { data: string; userId: string }>();
  /**
   * This process's clients whose awareness changed since the last poll: client id -> member.
   * Stored at the poll, not at each message: a cursor moves with every keystroke, and the
   * other processes read it only at their own polls anyway.
   */
  readonly awarenessChanged = new Map<number, string>();
  rows = 0;
  bytes = 0;
  /**
   * The change request's head revision the page was last checked at: when its head moves
   * (this process wrote it, or the poll sees it), the page is read again and followed.
   */
  revision: string | null = null;
  /** Whether the change request was open (or a draft) when the room opened; merged or closed since: the room ends. */
  pending = false;
  ended = false;
  constructor(
    readonly name: string,
    readonly key: CollabDocKey,
  ) {
    this.awareness.setLocalState(null);
  }
}

/** Other processes' clients' cursors: new and changed states applied, states no longer stored removed. */
export function applyRemoteAwareness(room: Room, rows: CollabAwarenessRow[]): void {
  const seen = new Set<number>();
  for (const row of rows) {
    seen.add(row.client_id);
    if (room.remote.get(row.client_id)?.data === row.data) continue;
    room.remote.set(row.client_id, { data: row.data, userId: row.user_id });
    awarenessProtocol.applyAwarenessUpdate(room.awareness, Buffer.from(row.data, 'base64'), 'store');
  }
  const gone = [...room.remote.keys()].filter((id) => !seen.has(id));
  for (const id of gone) room.remote.delete(id);
  if (gone.length > 0) awarenessProtocol.removeAwarenessStates(room.awareness, gone, 'store');
}

/**
 * A member's awareness update, within budget: it may speak only for client ids it
 * announced, that nobody holds, or that the same member holds elsewhere (a tab
 * reconnecting, maybe to another process before its old row expired), so no member moves
 * or removes another's cursor; for a few
 * of them, with small states, and a document shows a bounded number of clients. Applied,
 * passed on (the awareness listener) and stored for the other processes.
 */
export async function receiveAwareness(room: Room, member: Member, update: Uint8Array): Promise<void> {
  const entries = awarenessEntries(update);
  const held = room.awareness.getStates();
  const userId = member.access.ctx.actor.userId;
  for (const { clientId, stateBytes, removed } of entries) {
    const own = member.awarenessClients.has(clientId);
    const heldByOther = (room.remote.get(clientId)?.userId ?? userId) !== userId || [...room.members].some((m) => m !== member && m.awarenessClients.has(clientId) && m.access.ctx.actor.userId !== userId);
    if (!own && heldByOther) return member.transport.close(1008, 'Awareness of another member’s client');
    if (!own && !removed && member.awarenessClients.size >= COLLAB_LIMITS.awarenessClientsPerConnection) return member.transport.close(1008, 'Too many awareness clients');
    if (!own && !removed && held.size >= COLLAB_LIMITS.awarenessClientsPerDoc) return;
    if (stateBytes > COLLAB_LIMITS.awarenessStateBytes) return member.transport.close(1009, 'Awareness state too large');
  }
  awarenessProtocol.applyAwarenessUpdate(room.awareness, update, member);
  for (const { clientId } of entries) {
    if (!member.awarenessClients.has(clientId)) continue;
    room.awarenessChanged.set(clientId, userId);
    if (!room.awareness.getStates().has(clientId)) member.awarenessClients.delete(clientId);
  }
}

/** Stores this process's changed awareness states for the other processes (run in the room's queue). */
export async function storeAwareness(db: Db, room: Room, processId: string, now: string): Promise<void> {
  const changed = [...room.awarenessChanged];
  room.awarenessChanged.clear();
  const gone: number[] = [];
  for (const [clientId, userId] of changed) {
    if (!room.awareness.getStates().has(clientId)) gone.push(clientId);
    else await collabRepository.putAwareness(db, room.key, { id: clientId, userId }, processId, awarenessProtocol.encodeAwarenessUpdate(room.awareness, [clientId]), now);
  }
  await collabRepository.deleteAwareness(db, room.key, gone);
}

