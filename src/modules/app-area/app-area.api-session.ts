import type { FastifyRequest } from 'fastify';
import type { Actor, AppDeps } from '../../context.ts';
import { csrfTokenValid, findSession, sessionActor } from '../../access/index.ts';
import { sessionMayCreateTokens } from './app-area.policy.ts';
import { appAreaRepository } from './app-area.repository.ts';

/** The header the app's scripts send the session's CSRF token in when they call the API. */
export const API_CSRF_HEADER = 'x-quire-csrf';

/**
 * The actor of an API request made by the app's own scripts (the editor) with the session
 * cookie, or null. The cookie alone never authenticates: the request must carry the
 * session's CSRF token in `x-quire-csrf` (which another site cannot read or set without a
 * CORS preflight this server never grants) and come from this origin by the browser's own
 * word (`Sec-Fetch-Site: same-origin` or an `Origin` equal to PUBLIC_URL's, and neither
 * saying otherwise). It is a credential like an API token, so it is refused where a session
 * may not mint tokens (an organization enforcing SSO, reached by a login link).
 */
export async function browserSessionActor(deps: AppDeps, request: FastifyRequest): Promise<Actor | null> {
  const csrf = request.headers[API_CSRF_HEADER];
  if (typeof csrf !== 'string' || !request.headers.cookie) return null;
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const ownOrigin = new URL(deps.config.publicUrl).origin;
  if (site !== undefined && site !== 'same-origin') return null;
  if (origin !== undefined && origin !== ownOrigin) return null;
  if (site === undefined && origin === undefined) return null;
  const session = await findSession(deps, request.headers.cookie);
  if (!session || !csrfTokenValid(session, csrf)) return null;
  const memberships = await appAreaRepository.memberships(deps.db, session.row.user_id);
  if (!sessionMayCreateTokens(session.row, memberships)) return null;
  return sessionActor(session);
}
