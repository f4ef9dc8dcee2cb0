/*
 * Who may open a live document (collab.service.ts runs the rooms): checked before the socket
 * is upgraded, and what the connection then carries.
 */
import type { AppDeps, Context } from '../../context.ts';
import { HttpError, forbidden, notFound } from '../../errors.ts';
import type { Document } from '../../content/markdown/types.ts';
import { loadDocument, loadSnapshot } from '../../content/store/snapshot.ts';
import { EMPTY_DOCUMENT } from './collab.merge.ts';
import { changeRequestPolicy } from '../change-requests/change-requests.policy.ts';
import { loadChangeRequest, findSession, sessionIdOf } from '../../access/index.ts';
import { sessionContext } from '../../context.ts';
import { sessionMayCreateTokens } from '../app-area/app-area.policy.ts';
import { appAreaRepository } from '../app-area/app-area.repository.ts';
import type { CollabDocKey } from './collab.repository.ts';
import { isPending } from './collab.settled.ts';

/** Who a connection is, what it opened and whether it may write. */
export interface CollabAccess {
  sessionId: string;
  ctx: Context;
  spaceId: string;
  key: CollabDocKey;
  canWrite: boolean;
  document: Document;
  /** The revision store's hash of `document` (null for a page without one): the base of a later merge. */
  documentHash: string | null;
  /** The change request's head revision the page was read at, and whether it is open (or a draft). */
  revisionId: string;
  pending: boolean;
}

/**
 * Checks a connection's request before it is upgraded: same origin, a live session that may
 * use the API (SSO as for the API's session cookie), a change request the member can see and
 * a page in it. Writing needs the change request's `edit` right and an open change request.
 */
export async function authorizeCollab(
  deps: AppDeps,
  request: { cookie: string | undefined; origin: string | undefined; spaceId: string; changeRequestId: string; pageId: string; requestId: string; log: Context['log'] },
): Promise<CollabAccess> {
  if (request.origin !== new URL(deps.config.publicUrl).origin) throw forbidden('Live editing is open to this site’s own pages only');
  const session = await findSession(deps, request.cookie);
  if (!session) throw new HttpError(401, 'Sign in to edit');
  const memberships = await appAreaRepository.memberships(deps.db, session.row.user_id);
  if (!sessionMayCreateTokens(session.row, memberships)) throw forbidden('This organization requires signing in through its identity provider');
  const ctx = sessionContext(deps, session, request.requestId, request.log);
  const { cr, access } = await loadChangeRequest(ctx, request.spaceId, request.changeRequestId);
  if (cr.id !== request.changeRequestId) throw notFound('Change request');
  // The page as the content API reads it (a document page; one without a stored document is empty).
  const entry = (await loadSnapshot(ctx.db, request.spaceId, cr.revision_id)).byId.get(request.pageId)?.entry;
  if (!entry || entry.type !== 'document') throw notFound('Page');
  const documentHash = entry.document ?? null;
  const document = documentHash ? await loadDocument<Document>(ctx.db, request.spaceId, documentHash) : EMPTY_DOCUMENT;
  if (!document) throw notFound('Page');
  const pending = isPending(cr.status);
  const canWrite = changeRequestPolicy.can('edit', access) && pending;
  return { sessionId: sessionIdOf(request.cookie)!, ctx, spaceId: request.spaceId, key: { changeRequestId: cr.id, pageId: entry.id }, canWrite, document, documentHash, revisionId: cr.revision_id, pending };
}

/** The revision store's hash of a page's document at a revision (null for none). */
export async function documentHashOf(ctx: Context, spaceId: string, revisionId: string, pageId: string): Promise<string | null> {
  return (await loadSnapshot(ctx.db, spaceId, revisionId)).byId.get(pageId)?.entry.document ?? null;
}
