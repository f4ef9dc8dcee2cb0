/*
 * Editing in the app (issue 32), its routes: the Edit button's target (the member's open
 * change request on the space, or a new one), the editor page for one page of a change
 * request (both decided in app-area.change-requests.service.ts), the editor's bundle under
 * /app/assets/, and the markdown reading the editor's paste uses.
 * The editor itself saves through the API (`/v1/.../change-requests/:cr/content`) with the
 * session cookie and its CSRF header (app-area.api-session.ts), as any API client would.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Context } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { appUrl } from '../../lib/urls.ts';
import { editorAssets } from '../../editor/assets.ts';
import { csrfToken, sessionScope, type BrowserSession } from '../../access/index.ts';
import { sessionContext } from '../../context.ts';
import { changeRequestPageToEdit, changeRequestToEdit } from './app-area.change-requests.service.ts';
import { appAreaRepository } from './app-area.repository.ts';
import { EDITOR_CSP, editorPage } from './app-area.editor.presenter.ts';
import { layout, type Chrome } from './app-area.presenter.ts';
import { API_CSRF_HEADER } from './app-area.api-session.ts';

/** The largest markdown the editor's paste reads (a long page; the API takes 1 MB per page). */
const PASTE_MARKDOWN_LIMIT = 200_000;

const EditParams = Type.Object({ spaceId: Type.String({ minLength: 1, maxLength: 64 }), pageId: Type.String({ minLength: 1, maxLength: 64 }) });
const EditorParams = Type.Object({ ...EditParams.properties, number: Type.String({ pattern: '^[0-9]{1,9}$' }) });
const AssetParams = Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9_-]+\\.(js|css)$', maxLength: 100 }) });
const MarkdownBody = Type.Object({ csrf: Type.String({ maxLength: 200 }), markdown: Type.String({ maxLength: PASTE_MARKDOWN_LIMIT }) });

export const appAreaEditorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const base = () => appUrl(app.deps.config, '');
  const ctxOf = (request: { browserSession: BrowserSession | null; id: string; log: Context['log'] }) =>
    sessionContext(app.deps, request.browserSession as BrowserSession, request.id, request.log);

  // The bundle: content-hashed names, so cached for a year; compressed once, not per request.
  app.get('/assets/:file', { config: { public: true, signedOut: true }, schema: { hide: true, params: AssetParams } }, async (request, reply) => {
    const assets = await editorAssets();
    const file = assets.files.get(request.params.file);
    if (!file) throw notFound('Asset');
    const accepts = String(request.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepts) ? ['br', file.brotli] : /\bgzip\b/.test(accepts) ? ['gzip', file.gzip] : [null, file.body];
    reply.header('cache-control', 'public, max-age=31536000, immutable').header('x-content-type-options', 'nosniff').header('vary', 'accept-encoding').type(file.type);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });

  app.post('/s/:spaceId/pages/:pageId/edit', { config: { public: true }, schema: { hide: true, params: EditParams } }, async (request, reply) => {
    const { spaceId, pageId } = request.params;
    const number = await changeRequestToEdit(ctxOf(request), request.browserSession as BrowserSession, spaceId, pageId);
    return reply.redirect(`${base()}/s/${encodeURIComponent(spaceId)}/change-requests/${number}/pages/${encodeURIComponent(pageId)}/edit`, 303);
  });

  app.get('/s/:spaceId/change-requests/:number/pages/:pageId/edit', { config: { public: true }, schema: { hide: true, params: EditorParams } }, async (request, reply) => {
    const { spaceId, number, pageId } = request.params;
    const session = request.browserSession as BrowserSession;
    const ctx = ctxOf(request);
    const { cr, page } = await changeRequestPageToEdit(ctx, session, spaceId, number, pageId);
    const assets = await editorAssets();
    const chrome: Chrome = { title: `Edit ${page.title}`, appBase: base(), who: 'Account', csrf: csrfToken(session) };
    const body = editorPage({
      assets: { script: `${base()}/assets/${assets.script}`, style: `${base()}/assets/${assets.style}`, chunks: assets.chunks.map((chunk) => `${base()}/assets/${chunk}`) },
      config: {
        apiBase: `${app.deps.config.publicUrl}/v1`,
        appBase: base(),
        spaceId,
        changeRequestId: cr.id,
        changeRequestNumber: cr.number,
        changeRequestSubject: cr.subject,
        pageId: page.id,
        pageTitle: page.title,
        csrfHeader: API_CSRF_HEADER,
        csrf: csrfToken(session),
        // Live editing (src/modules/collab): the page's socket, and the name shown by this member's cursor.
        collab: `${base()}/collab/${encodeURIComponent(spaceId)}/${encodeURIComponent(cr.id)}/${encodeURIComponent(page.id)}`,
        userName: (await appAreaRepository.user(ctx.db, ctx.actor.userId))?.display_name ?? undefined,
      },
    });
    return reply.code(200).header('content-security-policy', EDITOR_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(layout(chrome, body));
  });

  // The editor's paste of markdown: read by the markdown engine, as the API reads a page.
  app.post('/markdown', { config: { public: true }, schema: { hide: true, body: MarkdownBody } }, async (request, reply) => {
    // The reading counts against the organization the session acts for (a login-link session: its member).
    const row = (request.browserSession as BrowserSession).row;
    const document = await app.deps.markdown.begin({ tenant: sessionScope(row) ?? `user:${row.user_id}` }).document(request.body.markdown, 'body/markdown');
    return reply.header('cache-control', 'no-store').send({ document });
  });
};
