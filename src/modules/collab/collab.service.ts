/*
 * Editing together (issue 32, item 4): one Y.Doc per (change request, page) in memory while
 * anyone has it open, spoken to over y-protocols' sync and awareness messages. Every update a
 * member sends is written to collab_updates before it is applied, passed on and acknowledged,
 * so a restart loses nothing acknowledged; a document is first seeded from the page's GitBook
 * document in the change request. Other server processes' updates and cursors are read by
 * polling the tables (PostgreSQL with several processes); a saved document left by every
 * process has its rows deleted (docs/decisions/editor.md, "Deleting rows"). Saving writes the merged document (the Y.Doc,
 * converted to GitBook JSON) through the change request's content path as the member who saved.
 */
import * as Y from 'yjs';
import * as syncProtocol from 'y-protocols/sync';
import * as awarenessProtocol from 'y-protocols/awareness';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';
import { prosemirrorJSONToYXmlFragment } from 'y-prosemirror';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { HttpError, toHttpError } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { schema } from '../../editor/schema.ts';
import { toProseMirrorJSON } from '../../editor/convert.ts';
import { writeDocumentAttrs } from '../../editor/live-doc.ts';
import type { Document } from '../../content/markdown/types.ts';
import { loadChangeRequest } from '../../access/index.ts';
import { applyContentChanges } from '../content/content.batch.ts';
import { getPage } from '../content/content.service.ts';
import { pageOf } from '../content/content.model.ts';
import { findSession, SESSION_COOKIE, type BrowserSession } from '../../access/index.ts';
import { collabRepository, type CollabUpdateRow } from './collab.repository.ts';
import { COLLAB_LIMITS, HOLD_EXPIRE_MS } from './collab.limits.ts';
import { isPending } from './collab.settled.ts';
import { changeRequestsRepository } from '../change-requests/change-requests.repository.ts';
import { onChangeRequestMoved } from '../change-requests/change-requests.events.ts';
import { Member, Room, applyRemoteAwareness, receiveAwareness, storeAwareness, type CollabTransport } from './collab.room.ts';
import { BASE, NOTICE, digest, documentOfYDoc, FRAGMENT, isInStepWithPage, markBase, message, MESSAGE, seedUpdate, viewOfDocument, type StoredPage } from './collab.ydoc.ts';
import { EMPTY_DOCUMENT, mergeLiveDocument, mergeNotice, type BlockConflict } from './collab.merge.ts';
import { documentHashOf, type CollabAccess } from './collab.access.ts';
import { loadDocument } from '../../content/store/snapshot.ts';

export { COLLAB_LIMITS };

export { FRAGMENT, MESSAGE, documentOfYDoc, seedUpdate } from './collab.ydoc.ts';
/** How often other processes' updates are looked for. */
const POLL_MS = 250;
/** Rows younger than this are read again at each poll (ids may commit out of order on PostgreSQL). */
const POLL_OVERLAP_MS = 5_000;
/** A document with more rows than this is compacted into one while open. */
const COMPACT_ROWS = 500;
/** How often a process renews its hold of the documents it has open. */
const HOLD_RENEW_MS = 5_000;
/** A hold or awareness state not renewed for this long is a stopped process's or a quiet client's. */
const EXPIRE_MS = HOLD_EXPIRE_MS;
/** The close code of a member's connection when its change request was merged or closed (the editor shows the reason). */
export const ENDED_CLOSE = 4001;

export { authorizeCollab, type CollabAccess } from './collab.access.ts';

export type { CollabTransport } from './collab.room.ts';

export class CollabHub {
  readonly processId = newId(16);
  private readonly rooms = new Map<string, Room>();
  private readonly opening = new Map<string, Promise<Room>>();
  private readonly perSession = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: AppDeps,
    private readonly log: FastifyBaseLogger,
  ) {
    // A change request written on this process: its open documents follow at once (the poll
    // sees other processes' writes).
    this.unsubscribe = onChangeRequestMoved(deps.db, (id) => void this.changeRequestMoved(id));
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Joins a connection to its document; answers the connection's message handler and its leave. */
  async join(access: CollabAccess, transport: CollabTransport): Promise<{ receive(data: Uint8Array): void; leave(): void }> {
    let room = await this.room(access);
    let notice: string | undefined;
    for (;;) {
      // The last member's leave may have closed this room while it was being fetched: a closed
      // room's document is destroyed, so join the one that replaces it.
      while (this.rooms.get(room.name) !== room) room = await this.room(access);
      // A page changed outside live editing while its room stayed open (a member reloading
      // opens the new connection before the old one closes) is followed at each join, not only
      // when the room loads. Read in the room's queue, after any save in flight, so what is
      // followed is never older than what the room last saved. With unsaved live edits the
      // change is merged into them.
      const followed = room.queue.then(async () => {
        const stored = await this.storedPage({ access });
        if (stored) notice = await this.followPage(room, access, stored);
      });
      room.queue = followed.catch(() => undefined);
      await followed;
      if (this.rooms.get(room.name) === room) break;
    }
    // Counted after the last await: connections opening at once each see the others.
    const sessionCount = this.perSession.get(access.sessionId) ?? 0;
    if (sessionCount >= COLLAB_LIMITS.connectionsPerSession) throw new HttpError(429, `At most ${COLLAB_LIMITS.connectionsPerSession} live editing connections per session`);
    if (room.members.size >= COLLAB_LIMITS.connectionsPerDoc) throw new HttpError(429, `At most ${COLLAB_LIMITS.connectionsPerDoc} people edit one page together`);
    this.perSession.set(access.sessionId, sessionCount + 1);
    const member = new Member(access, transport);
    room.members.add(member);
    // First, so a browser that held an ended generation's document never merges it into this one.
    transport.send(message(MESSAGE.generation, (e) => encoding.writeVarString(e, room.doc.getMap<string>(BASE).get('generation') ?? '')));
    transport.send(message(MESSAGE.sync, (e) => syncProtocol.writeSyncStep1(e, room.doc)));
    const states = [...room.awareness.getStates().keys()];
    if (states.length > 0) transport.send(message(MESSAGE.awareness, (e) => encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(room.awareness, states))));
    if (notice !== undefined) this.tell(room, notice);
    let left = false;
    return {
      receive: (data) => {
        if (left) return;
        room.queue = room.queue.then(() => this.receive(room, member, data)).catch((error: unknown) => {
          this.log.warn({ err: error }, 'live editing message failed');
          transport.close(1011, 'The message could not be handled');
        });
      },
      leave: () => {
        if (left) return;
        left = true;
        const count = (this.perSession.get(access.sessionId) ?? 1) - 1;
        if (count > 0) this.perSession.set(access.sessionId, count);
        else this.perSession.delete(access.sessionId);
        room.members.delete(member);
        const clients = [...member.awarenessClients];
        for (const id of clients) room.awarenessChanged.delete(id);
        awarenessProtocol.removeAwarenessStates(room.awareness, clients, null);
        room.queue = room.queue.then(() => collabRepository.deleteAwareness(this.deps.db, room.key, clients)).catch((error: unknown) => this.log.warn({ err: error }, 'live editing could not delete awareness states'));
        if (room.members.size === 0) room.queue = room.queue.then(() => this.closeRoom(room)).catch(() => undefined);
      },
    };
  }

  private async room(access: CollabAccess): Promise<Room> {
    const name = `${access.spaceId}/${access.key.changeRequestId}/${access.key.pageId}`;
    const open = this.rooms.get(name);
    if (open) return open;
    let loading = this.opening.get(name);
    if (!loading) {
      loading = this.load(name, access).finally(() => this.opening.delete(name));
      this.opening.set(name, loading);
    }
    return loading;
  }

  private async load(name: string, access: CollabAccess): Promise<Room> {
    const room = new Room(name, access.key);
    room.revision = access.revisionId;
    room.pending = access.pending;
    // Held before the rows are read, under the lock: a process closing the document either
    // deleted its rows before (this one seeds a new generation) or sees this hold and keeps them.
    const rows = await collabRepository.withDocLock(this.deps.db, this.deps.dialect, access.key, async (trx) => {
      await collabRepository.holdRoom(trx, access.key, this.processId, this.now());
      const stored = await collabRepository.after(trx, access.key, 0);
      if (stored.length > 0) return stored;
      await collabRepository.insert(trx, access.key, this.processId, seedUpdate(access.document, access.documentHash), this.now());
      return collabRepository.after(trx, access.key, 0);
    });
    room.heldAt = Date.now();
    this.applyRows(room, rows, true);
    room.doc.on('update', (update: Uint8Array, origin: unknown) => {
      const data = message(MESSAGE.sync, (e) => syncProtocol.writeUpdate(e, update));
      for (const member of room.members) if (member !== origin) member.transport.send(data);
    });
    room.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
      const changed = [...added, ...updated, ...removed];
      if (origin instanceof Member) for (const id of added) origin.awarenessClients.add(id);
      const data = message(MESSAGE.awareness, (e) => encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(room.awareness, changed)));
      for (const member of room.members) if (member !== origin) member.transport.send(data);
    });
    this.rooms.set(name, room);
    this.timer ??= setInterval(() => void this.poll(), POLL_MS).unref();
    return room;
  }

  /**
   * Brings a stored live document in step with its page when the page changed outside live
   * editing and nothing was typed since the last save (see BASE). With unsaved live edits the
   * change is merged into them (acknowledged edits are never dropped); answers what the
   * members are to be told of that merge. Decided and stored under the document's lock after
   * reading the other processes' latest rows, so two processes (each told of the change) never
   * follow or merge one change twice.
   */
  private async followPage(room: Room, access: CollabAccess, stored: StoredPage): Promise<string | undefined> {
    const baseMap = room.doc.getMap<string>(BASE);
    if (baseMap.get('page') === digest(stored.document)) return undefined;
    const base = await this.mergeBase(room, access);
    const outcome = await collabRepository.withDocLock(this.deps.db, this.deps.dialect, room.key, async (trx) => {
      this.applyRows(room, await collabRepository.after(trx, room.key, room.pollMark), false);
      if (baseMap.get('page') === digest(stored.document)) return { notice: undefined };
      if (!baseMap.has('view') || isInStepWithPage(room.doc)) {
        await this.followStored(room, stored, trx);
        return { notice: undefined };
      }
      return base ? this.mergeLocked(room, base, stored, trx) : undefined;
    });
    if (!outcome) this.log.warn({ changeRequestId: room.key.changeRequestId, pageId: room.key.pageId }, 'the page changed outside live editing while live edits were unsaved, with no known base to merge from; the live edits are kept');
    return outcome?.notice;
  }

  /** Makes the live document the page's stored document (the smallest change y-prosemirror finds). */
  private async followStored(room: Room, stored: StoredPage, db = this.deps.db): Promise<void> {
    await this.storeChange(
      room,
      () => {
        const json = toProseMirrorJSON(stored.document);
        prosemirrorJSONToYXmlFragment(schema, json, room.doc.getXmlFragment(FRAGMENT));
        writeDocumentAttrs(room.doc, json);
        markBase(room.doc, stored);
      },
      db,
    );
  }

  /**
   * The page the live document was last in step with, read back from the revision store by
   * the hash BASE recorded: the base of a merge. Undefined when it is not known (a live
   * document seeded before bases were recorded).
   */
  private async mergeBase(room: Room, access: CollabAccess): Promise<Document | undefined> {
    const baseMap = room.doc.getMap<string>(BASE);
    const known = baseMap.get('document');
    if (known === undefined) return undefined;
    const base = known === '' ? EMPTY_DOCUMENT : await loadDocument<Document>(this.deps.db, access.spaceId, known).catch(() => undefined);
    return base && digest(base) === baseMap.get('page') ? base : undefined;
  }

  /**
   * Merges a change made to the page outside live editing into the live document's unsaved
   * edits, by block (collab.merge.ts), from `base`. Applied to the Y.Doc, so every member's
   * editor follows; the live document is then in step with the stored page and still holds its
   * own edits. Undefined when the base is not known: the caller keeps the live edits as they
   * are. Under the document's lock (mergeLocked), after the other processes' latest rows.
   */
  private async mergeOutside(room: Room, access: CollabAccess, stored: StoredPage): Promise<{ conflicts: BlockConflict[]; notice?: string } | undefined> {
    const base = await this.mergeBase(room, access);
    if (!base) return undefined;
    return collabRepository.withDocLock(this.deps.db, this.deps.dialect, room.key, async (trx) => {
      this.applyRows(room, await collabRepository.after(trx, room.key, room.pollMark), false);
      return this.mergeLocked(room, base, stored, trx);
    });
  }

  /** The merge itself, in the caller's locked transaction; no notice when another process merged it meanwhile. */
  private async mergeLocked(room: Room, base: Document, stored: StoredPage, trx: typeof this.deps.db): Promise<{ conflicts: BlockConflict[]; notice?: string } | undefined> {
    const baseMap = room.doc.getMap<string>(BASE);
    // Another process merged it meanwhile, or its base moved on: nothing more to do here.
    if (baseMap.get('page') === digest(stored.document)) return { conflicts: [] };
    if (baseMap.get('page') !== digest(base)) return undefined;
    const view = viewOfDocument(stored.document);
    const { document, conflicts } = mergeLiveDocument(base, documentOfYDoc(room.doc), stored.document);
    const notice = mergeNotice(conflicts);
    await this.storeChange(
      room,
      () => {
        const json = toProseMirrorJSON(document);
        prosemirrorJSONToYXmlFragment(schema, json, room.doc.getXmlFragment(FRAGMENT));
        writeDocumentAttrs(room.doc, json);
        markBase(room.doc, stored, view);
        // With the merge itself, so members on every process are told (collab.ts shows it).
        room.doc.getMap<string>(NOTICE).set('merge', JSON.stringify({ id: newId(8), text: notice }));
      },
      trx,
    );
    this.log.info({ changeRequestId: room.key.changeRequestId, pageId: room.key.pageId, conflicts: conflicts.length }, 'merged a change made outside live editing into unsaved live edits');
    return { conflicts, notice };
  }

  /** A change request written on this process: its open documents check their page now. */
  private async changeRequestMoved(changeRequestId: string): Promise<void> {
    const rooms = [...this.rooms.values()].filter((room) => room.key.changeRequestId === changeRequestId);
    if (rooms.length === 0) return;
    try {
      const [head] = await changeRequestsRepository.heads(this.deps.db, [changeRequestId]);
      for (const room of rooms) if (head) this.followHead(room, head);
    } catch (error) {
      this.log.warn({ err: error }, 'live editing could not read a change request that moved');
    }
  }

  /**
   * A change request of an open document moved: its page is read again in the room's queue
   * (after any save in flight) and followed when nothing was typed since the last save, or
   * merged into the unsaved live edits, every member told which blocks both changed
   * (followPage, as at a join). Merged or closed since the room opened: the room ends.
   */
  private followHead(room: Room, head: { revision_id: string; status: string }): void {
    if (room.ended || this.rooms.get(room.name) !== room) return;
    if (room.pending && !isPending(head.status)) return this.endRoom(room, head.status);
    if (room.revision === head.revision_id) return;
    room.revision = head.revision_id;
    // Read as a member who may write (any member sees the page); a room without members is
    // followed by the next join.
    const member = [...room.members].find((m) => m.access.canWrite) ?? [...room.members][0];
    if (!member) return;
    room.queue = room.queue
      .then(async () => {
        if (this.rooms.get(room.name) !== room) return;
        const stored = await this.storedPage(member);
        const notice = stored ? await this.followPage(room, member.access, stored) : undefined;
        if (notice !== undefined) this.tell(room, notice);
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'live editing could not follow a change of its page'));
  }

  /**
   * The change request was merged or closed: its unsaved live edits can no longer be saved.
   * Every member is told and let go; the last to leave deletes the rows (release).
   */
  private endRoom(room: Room, status: string): void {
    room.ended = true;
    const reason = `This change request was ${status === 'merged' ? 'merged' : 'closed'}: live editing of it has ended`;
    for (const member of room.members) member.transport.close(ENDED_CLOSE, reason);
  }

  /** Sends every member of a document a notice (shown in their editor's status). */
  private tell(room: Room, text: string): void {
    const data = message(MESSAGE.notice, (e) => encoding.writeVarString(e, text));
    for (const member of room.members) member.transport.send(data);
  }

  /** A change the server makes to a live document, stored like a member's update. */
  private async storeChange(room: Room, change: () => void, db = this.deps.db): Promise<void> {
    const before = Y.encodeStateVector(room.doc);
    room.doc.transact(change, 'server');
    const update = Y.encodeStateAsUpdate(room.doc, before);
    await collabRepository.insert(db, room.key, this.processId, update, this.now());
    room.rows += 1;
    room.bytes += update.length;
  }

  private applyRows(room: Room, rows: CollabUpdateRow[], all: boolean): void {
    const settled = Date.parse(this.now()) - POLL_OVERLAP_MS;
    for (const row of rows) {
      if (all || row.process_id !== this.processId) Y.applyUpdate(room.doc, Buffer.from(row.data, 'base64'), 'store');
      if (all) {
        room.rows += 1;
        room.bytes += row.size;
      }
      if (all || Date.parse(row.created_at) < settled) room.pollMark = Math.max(room.pollMark, row.id);
    }
  }

  /** Other processes' updates of the open documents. */
  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      // The heads of the open documents' change requests: a change made outside live editing by
      // any process (or a merge, a close) is followed within a poll.
      const heads = new Map((await changeRequestsRepository.heads(this.deps.db, [...new Set([...this.rooms.values()].map((r) => r.key.changeRequestId))])).map((h) => [h.id, h]));
      for (const room of this.rooms.values()) {
        const head = heads.get(room.key.changeRequestId);
        if (head) this.followHead(room, head);
        if (Date.now() - room.heldAt >= HOLD_RENEW_MS) {
          await collabRepository.holdRoom(this.deps.db, room.key, this.processId, this.now());
          await collabRepository.expire(this.deps.db, room.key, this.expiredBefore());
          room.heldAt = Date.now();
        }
        const rows = await collabRepository.after(this.deps.db, room.key, room.pollMark);
        const states = await collabRepository.othersAwareness(this.deps.db, room.key, this.processId, this.expiredBefore());
        room.queue = room.queue.then(async () => {
          this.applyRows(room, rows, false);
          applyRemoteAwareness(room, states);
          await storeAwareness(this.deps.db, room, this.processId, this.now());
        });
        await room.queue;
      }
    } catch (error) {
      this.log.warn({ err: error }, 'live editing poll failed');
    } finally {
      this.polling = false;
    }
  }

  private expiredBefore(): string {
    return new Date(Date.parse(this.now()) - EXPIRE_MS).toISOString();
  }

  private async receive(room: Room, member: Member, data: Uint8Array): Promise<void> {
    const decoder = decoding.createDecoder(data);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE.sync) {
      const kind = decoding.readVarUint(decoder);
      if (kind === syncProtocol.messageYjsSyncStep1) {
        const vector = decoding.readVarUint8Array(decoder);
        member.transport.send(message(MESSAGE.sync, (e) => syncProtocol.writeSyncStep2(e, room.doc, vector)));
        return;
      }
      if (kind !== syncProtocol.messageYjsSyncStep2 && kind !== syncProtocol.messageYjsUpdate) return member.transport.close(1008, 'Unknown sync message');
      const update = decoding.readVarUint8Array(decoder);
      // A read-only member's updates are dropped (its first step-2 answer is normally empty).
      if (!member.access.canWrite) return;
      if (room.bytes + update.length > COLLAB_LIMITS.docBytes) {
        member.transport.send(message(MESSAGE.error, (e) => encoding.writeVarString(e, 'The page is larger than live editing accepts')));
        return member.transport.close(1009, 'Document budget exceeded');
      }
      // Stored first: what is passed on and acknowledged survives a restart.
      await collabRepository.insert(this.deps.db, room.key, this.processId, update, this.now());
      room.rows += 1;
      room.bytes += update.length;
      Y.applyUpdate(room.doc, update, member);
      member.transport.send(message(MESSAGE.ack, (e) => encoding.writeVarUint(e, 1)));
      if (room.rows > COMPACT_ROWS) await this.compact(room);
      return;
    }
    if (type === MESSAGE.awareness) return receiveAwareness(room, member, decoding.readVarUint8Array(decoder));
    if (type === MESSAGE.save) {
      // `{"replace":true}` after the member was told the page changed outside live editing.
      const options = decoding.hasContent(decoder) ? (JSON.parse(decoding.readVarString(decoder)) as { replace?: unknown }) : {};
      const { notice, ...result } = await this.save(room, member, options.replace === true);
      member.transport.send(message(MESSAGE.saved, (e) => encoding.writeVarString(e, JSON.stringify(result))));
      // After the answer: the editor shows "Saved" on it, then this.
      if (notice !== undefined) this.tell(room, notice);
      return;
    }
    if (type === MESSAGE.reload) {
      const result = await this.reload(room, member);
      member.transport.send(message(MESSAGE.saved, (e) => encoding.writeVarString(e, JSON.stringify(result))));
      return;
    }
    member.transport.close(1008, 'Unknown message');
  }

  /** The page as the change request stores it now. */
  private async storedPage(member: Pick<Member, 'access'>): Promise<StoredPage | undefined> {
    const { ctx, spaceId, key } = member.access;
    const { cr } = await loadChangeRequest(ctx, spaceId, key.changeRequestId);
    const document = (pageOf(await getPage(ctx, spaceId, key.pageId, { revisionId: cr.revision_id, format: 'document' })) as { document?: Document }).document;
    return document ? { document, hash: await documentHashOf(ctx, spaceId, cr.revision_id, key.pageId) } : undefined;
  }

  /**
   * Writes the merged document to the change request as the member who asked. When the page
   * changed outside live editing (the API, git sync, the tree forms) since the live document
   * was last in step with it, that change is first merged into the live document (by block,
   * the live side kept where both changed a block: `conflicts` names them, and `notice` is
   * what every member is told). Where it cannot be merged (no known base), saving would
   * replace it: refused with `stale` unless the member, told so, asks to `replace` it (or
   * reloads the page's version instead).
   */
  private async save(
    room: Room,
    member: Member,
    replace = false,
  ): Promise<{ ok: boolean; stale?: true; message?: string; merged?: true; conflicts?: BlockConflict[]; notice?: string }> {
    if (!member.access.canWrite) return { ok: false, message: 'Editing needs the edit role on this space' };
    try {
      const session: BrowserSession | null = await findSession(this.deps, `${SESSION_COOKIE}=${member.access.sessionId}`);
      if (!session) return { ok: false, message: 'The session has ended: sign in again' };
      let merged: { conflicts: BlockConflict[]; notice?: string } | undefined;
      if (!replace) {
        const current = await this.storedPage(member);
        if (current && digest(current.document) !== room.doc.getMap<string>(BASE).get('page')) {
          merged = await this.mergeOutside(room, member.access, current);
          if (!merged) return { ok: false, stale: true, message: 'This page was changed outside live editing since your unsaved edits: saving replaces that change' };
        }
      }
      const write = async (db = this.deps.db) => {
        const document = documentOfYDoc(room.doc);
        const { ctx, spaceId } = member.access;
        await applyContentChanges(ctx, spaceId, room.key.changeRequestId, [{ operation: 'update_page', page: room.key.pageId, document: { document } } as never], true);
        // The live document takes what the change request now stores: the server gives new
        // blocks their keys (comments anchor to them) and normalizes the rest. Messages wait
        // for the save (one queue per document), so nothing was typed in between.
        const stored = await this.storedPage(member);
        if (stored) await this.followStored(room, stored, db);
      };
      // On PostgreSQL the write and its follow are made under the document's lock: another
      // process that sees the change request's head move (its poll) then finds the write
      // already followed, and never merges it as a change made outside. SQLite's lock is the
      // one connection's transaction, which the write's own transaction would wait for.
      if (this.deps.dialect === 'postgres') {
        await collabRepository.withDocLock(this.deps.db, this.deps.dialect, room.key, async (trx) => {
          this.applyRows(room, await collabRepository.after(trx, room.key, room.pollMark), false);
          await write(trx);
        });
      } else await write();
      return merged ? { ok: true, merged: true, conflicts: merged.conflicts, notice: merged.notice } : { ok: true };
    } catch (error) {
      const refused = toHttpError(error);
      if (refused) return { ok: false, message: refused.message };
      throw error;
    }
  }

  /**
   * The member chose the page's stored version over the unsaved live edits (told the page
   * changed outside live editing): the live document becomes the page, for everyone in it.
   */
  private async reload(room: Room, member: Member): Promise<{ ok: boolean; message?: string }> {
    if (!member.access.canWrite) return { ok: false, message: 'Editing needs the edit role on this space' };
    try {
      const stored = await this.storedPage(member);
      if (!stored) return { ok: false, message: 'The page is no longer in this change request' };
      await this.followStored(room, stored);
      return { ok: true };
    } catch (error) {
      const refused = toHttpError(error);
      if (refused) return { ok: false, message: refused.message };
      throw error;
    }
  }

  /** One merged row in place of the document's rows (read and replaced in one transaction). */
  private async compact(room: Room): Promise<void> {
    const rows = await collabRepository.after(this.deps.db, room.key, 0);
    if (rows.length < 2) return;
    // Other processes' rows this room has not polled yet go into the merged row, which is this
    // process's own (never applied here again): applied now, or this room would never see them.
    this.applyRows(room, rows.filter((row) => row.process_id !== this.processId), false);
    const merged = Y.mergeUpdates(rows.map((row) => Buffer.from(row.data, 'base64')));
    await collabRepository.compact(this.deps.db, room.key, rows.map((row) => row.id), this.processId, merged, this.now());
    room.rows = 1;
    room.bytes = merged.length;
  }

  /**
   * The last member on this process left. Under the document's lock: this process lets the
   * document go; if no other process holds it and the stored rows hold nothing the page does
   * not (saved, or nothing typed), every row of it is deleted and the next opening seeds a
   * new generation from the page; otherwise the rows are merged into one. Decided on the
   * stored rows, not on this process's copy, which may not have read another's last update.
   */
  private async release(room: Room): Promise<'cleared' | 'kept'> {
    return collabRepository.withDocLock(this.deps.db, this.deps.dialect, room.key, async (trx) => {
      await collabRepository.releaseRoom(trx, room.key, this.processId);
      const rows = await collabRepository.after(trx, room.key, 0);
      const held = await collabRepository.otherHolders(trx, room.key, this.processId, this.expiredBefore());
      if (rows.length === 0) return 'cleared';
      const merged = Y.mergeUpdates(rows.map((row) => Buffer.from(row.data, 'base64')));
      if (held === 0) {
        // Merged or closed: unsaved edits can no longer be saved into it (collab.settled.ts).
        const [head] = await changeRequestsRepository.heads(trx, [room.key.changeRequestId]);
        const stored = new Y.Doc();
        Y.applyUpdate(stored, merged);
        const done = isInStepWithPage(stored) || !head || !isPending(head.status);
        stored.destroy();
        if (done) {
          await collabRepository.clearDoc(trx, room.key);
          return 'cleared';
        }
      }
      if (rows.length > 1) await collabRepository.compact(trx, room.key, rows.map((row) => row.id), this.processId, merged, this.now());
      return 'kept';
    });
  }

  private async closeRoom(room: Room): Promise<void> {
    if (room.members.size > 0 || this.rooms.get(room.name) !== room) return;
    this.rooms.delete(room.name);
    await this.release(room).catch((error: unknown) => this.log.warn({ err: error }, 'live editing could not release a document'));
    room.awareness.destroy();
    room.doc.destroy();
    if (this.rooms.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stops polling and drops every document (the connections are closed by the routes). */
  async stop(): Promise<void> {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.rooms.values()].map((room) => room.queue.catch(() => undefined)));
    // Only the holds are given up: the rows stay as they are, for the next process to open.
    await Promise.all([...this.rooms.values()].map((room) => collabRepository.releaseRoom(this.deps.db, room.key, this.processId).catch(() => undefined)));
    this.rooms.clear();
  }
}
