import formbody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { appUrl } from '../../lib/urls.ts';
import { showErrorsAs } from '../../plugins/errors.ts';
import { clearedSessionCookie, sessionCookie } from '../sessions/sessions.presenter.ts';
import {
  consumeLoginLink,
  endSession,
  startSession,
} from '../sessions/sessions.service.ts';
import { csrfToken, csrfTokenValid, findSession, type BrowserSession } from '../../access/index.ts';
import { sessionContext } from '../../context.ts';
import { safeReturnTarget } from '../sso/sso.policy.ts';
import {
  accountPage,
  APP_CSP,
  collectionPage,
  messagePage,
  organizationPage,
  searchPage,
  organizationSignInPage,
  signInPage,
  sitePage,
  spacePage,
  type Chrome,
} from './app-area.presenter.ts';
import {
  CollectionParams,
  CreateTokenForm,
  FormBody,
  LinkQuery,
  OrganizationParams,
  PageParams,
  RevisionPageParams,
  RevisionParams,
  SearchQuery,
  SignInParams,
  SignInQuery,
  SiteParams,
  SpaceParams,
  ToQuery,
  TokenParams,
} from './app-area.schemas.ts';
import * as appArea from './app-area.service.ts';
import { changeRequestPages } from './app-area.change-requests.routes.ts';
import { editTarget } from './app-area.change-requests.service.ts';
import { editButton } from './app-area.editor.presenter.ts';
import { appAreaEditorRoutes } from './app-area.editor.routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    browserSession: BrowserSession | null;
  }
}

/*
 * The app area at PUBLIC_URL/app (the addresses `urls.app` names): server-rendered,
 * read-only views for a signed-in browser, the account page and sign-in/out. A session
 * cookie, not an API token, authenticates here; the API's services decide what is seen.
 */
export const appAreaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(formbody);
  const { config } = app.deps;
  // Read per request: the config object is the app's, and tests set PUBLIC_URL after listening.
  const base = () => appUrl(config, '');
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('content-security-policy', APP_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  const chromeOf = (request: FastifyRequest, title: string, who?: string): Chrome => ({
    title,
    appBase: base(),
    who: who ?? (request.browserSession ? 'Account' : undefined),
    csrf: request.browserSession ? csrfToken(request.browserSession) : undefined,
  });

  app.decorateRequest('browserSession', null);
  app.addHook('preHandler', async (request, reply) => {
    request.browserSession = await findSession(app.deps, request.headers.cookie);
    const open = request.routeOptions.config.signedOut === true;
    if (!request.browserSession && !open) {
      const to = new URL(request.url, config.publicUrl).pathname;
      return reply.redirect(`${base()}/signin?to=${encodeURIComponent(to)}`, 303);
    }
    if (request.method === 'POST') {
      // Forms are checked twice: the session's CSRF token, and the browser's Origin when sent.
      const origin = request.headers.origin;
      const body = request.body as { csrf?: unknown } | undefined;
      if ((origin && origin !== new URL(config.publicUrl).origin) || !request.browserSession || !csrfTokenValid(request.browserSession, body?.csrf)) {
        return html(reply, 403, messagePage(chromeOf(request, 'Refused'), 'Form refused', 'This form did not come from this page. Reload the page and try again.'));
      }
    }
  });

  // The one error handler (plugins/errors.ts) maps the error; these routes show it as a page.
  showErrorsAs(app, ({ status, message }, request, reply) => {
    const [heading, text] =
      status === 404
        ? ['Not found', 'There is nothing here, or you do not have access to it.']
        : status === 403
          ? ['Not allowed', message]
          : status < 500
            ? ['Bad request', message]
            : ['Something went wrong', 'The server could not show this page. Try again; the server log has the details.'];
    return html(reply, status, messagePage(chromeOf(request, heading), heading, text));
  });
  app.setNotFoundHandler((request, reply) => html(reply, 404, messagePage(chromeOf(request, 'Not found'), 'Not found', 'There is nothing here.')));

  const ctxOf = (request: FastifyRequest) => sessionContext(app.deps, request.browserSession as BrowserSession, request.id, request.log);
  const open = { public: true, signedOut: true } as const;
  const signedIn = { public: true } as const;

  app.get('/', { config: signedIn, schema: { hide: true } }, async (_request, reply) => reply.redirect(`${base()}/account`, 303));

  app.get('/signin', { config: open, schema: { hide: true, querystring: SignInQuery } }, async (request, reply) => {
    const to = safeReturnTarget(config, request.query.to);
    const organization = request.query.org?.trim();
    if (organization) {
      const target = `${base()}/signin/${encodeURIComponent(organization)}${to ? `?to=${encodeURIComponent(new URL(to).pathname)}` : ''}`;
      return reply.redirect(target, 303);
    }
    return html(reply, 200, signInPage({ title: 'Sign in', appBase: base() }, to ? new URL(to).pathname : null));
  });

  app.get('/signin/:organization', { config: open, schema: { hide: true, params: SignInParams, querystring: ToQuery } }, async (request, reply) => {
    const organization = await appArea.organizationSignIn(app.deps, request.params.organization);
    const to = safeReturnTarget(config, request.query.to);
    // The start URLs carry where to land after signing in.
    const providers = organization.providers.map((p) => ({ ...p, startURL: to ? `${p.startURL}?to=${encodeURIComponent(new URL(to).pathname)}` : p.startURL }));
    return html(reply, 200, organizationSignInPage({ title: `Sign in to ${organization.title}`, appBase: base() }, { title: organization.title, providers }));
  });

  app.get('/login', { config: open, schema: { hide: true, querystring: LinkQuery } }, async (request, reply) => {
    const userId = await consumeLoginLink(app.deps.db, app.deps.clock, request.query.link);
    if (!userId) {
      return html(reply, 400, messagePage({ title: 'Link not valid', appBase: base() }, 'Link not valid', 'This sign-in link is unknown, was already used, or is older than 10 minutes. Ask for a new one.'));
    }
    const sessionId = await startSession(app.deps.db, app.deps.clock, config.sessionTtlMs, { userId, method: 'link' });
    return reply.header('set-cookie', sessionCookie(config, sessionId, config.sessionTtlMs)).redirect(`${base()}/account`, 303);
  });

  app.post('/signout', { config: signedIn, schema: { hide: true, body: FormBody } }, async (request, reply) => {
    await endSession(app.deps, request.browserSession as BrowserSession);
    return reply.header('set-cookie', clearedSessionCookie(config)).redirect(`${base()}/signin`, 303);
  });

  app.get('/account', { config: signedIn, schema: { hide: true } }, async (request, reply) => {
    const view = await appArea.accountView(ctxOf(request), request.browserSession as BrowserSession);
    return html(reply, 200, accountPage(chromeOf(request, 'Account', view.user.display_name), view));
  });

  app.post('/account/tokens', { config: signedIn, schema: { hide: true, body: CreateTokenForm } }, async (request, reply) => {
    const session = request.browserSession as BrowserSession;
    const token = await appArea.createToken(ctxOf(request), session, request.body.label);
    // Shown once, on this response only; never in a URL.
    const view = await appArea.accountView(ctxOf(request), session, token);
    return html(reply, 201, accountPage(chromeOf(request, 'Account', view.user.display_name), view));
  });

  app.post('/account/tokens/:tokenId/revoke', { config: signedIn, schema: { hide: true, params: TokenParams, body: FormBody } }, async (request, reply) => {
    await appArea.revokeToken(ctxOf(request), request.browserSession as BrowserSession, request.params.tokenId);
    return reply.redirect(`${base()}/account`, 303);
  });

  app.get('/o/:organizationId', { config: signedIn, schema: { hide: true, params: OrganizationParams } }, async (request, reply) => {
    const view = await appArea.organizationView(ctxOf(request), request.browserSession as BrowserSession, request.params.organizationId);
    return html(reply, 200, organizationPage(chromeOf(request, view.organization.title), { id: request.params.organizationId, ...view.organization }, view.spaces, view.collections));
  });

  app.get('/o/:organizationId/search', { config: signedIn, schema: { hide: true, params: OrganizationParams, querystring: SearchQuery } }, async (request, reply) => {
    const view = await appArea.searchOrganizationView(ctxOf(request), request.browserSession as BrowserSession, request.params.organizationId, request.query.q ?? '');
    return html(reply, 200, searchPage(chromeOf(request, `Search ${view.scope.title}`), view, config));
  });

  app.get('/o/:organizationId/c/:collectionId', { config: signedIn, schema: { hide: true, params: CollectionParams } }, async (request, reply) => {
    const { organizationId, collectionId } = request.params;
    const view = await appArea.collectionView(ctxOf(request), request.browserSession as BrowserSession, organizationId, collectionId);
    return html(reply, 200, collectionPage(chromeOf(request, view.collection.title), view.organization, view.collection, view.spaces));
  });

  app.get('/o/:organizationId/sites/:siteId', { config: signedIn, schema: { hide: true, params: SiteParams } }, async (request, reply) => {
    const view = await appArea.siteView(ctxOf(request), request.browserSession as BrowserSession, request.params.organizationId, request.params.siteId);
    return html(reply, 200, sitePage(chromeOf(request, view.site.title), view.organization, view.site));
  });

  app.get('/s/:spaceId', { config: signedIn, schema: { hide: true, params: SpaceParams } }, async (request, reply) => {
    const view = await appArea.spaceView(ctxOf(request), request.browserSession as BrowserSession, request.params.spaceId);
    return html(reply, 200, spacePage(chromeOf(request, view.space.title), view.space, view.pages, view.page));
  });

  app.get('/s/:spaceId/pages/:pageId', { config: signedIn, schema: { hide: true, params: PageParams } }, async (request, reply) => {
    const view = await appArea.spaceView(ctxOf(request), request.browserSession as BrowserSession, request.params.spaceId, request.params.pageId);
    const target = await editTarget(ctxOf(request), request.browserSession as BrowserSession, request.params.spaceId, view.page?.id);
    const edit = target ? editButton(base(), target.spaceId, target.pageId, target.csrf) : '';
    return html(reply, 200, spacePage(chromeOf(request, view.page?.title ?? view.space.title), view.space, view.pages, view.page, edit));
  });

  app.get('/s/:spaceId/search', { config: signedIn, schema: { hide: true, params: SpaceParams, querystring: SearchQuery } }, async (request, reply) => {
    const view = await appArea.searchSpaceView(ctxOf(request), request.browserSession as BrowserSession, request.params.spaceId, request.query.q ?? '');
    return html(reply, 200, searchPage(chromeOf(request, `Search ${view.scope.title}`), view, config));
  });

  app.get('/s/:spaceId/revisions/:revisionId', { config: signedIn, schema: { hide: true, params: RevisionParams } }, async (request, reply) => {
    const { spaceId, revisionId } = request.params;
    const view = await appArea.spaceView(ctxOf(request), request.browserSession as BrowserSession, spaceId, undefined, revisionId);
    return html(reply, 200, spacePage(chromeOf(request, view.space.title), view.space, view.pages, view.page));
  });

  app.get('/s/:spaceId/revisions/:revisionId/pages/:pageId', { config: signedIn, schema: { hide: true, params: RevisionPageParams } }, async (request, reply) => {
    const { spaceId, revisionId, pageId } = request.params;
    const view = await appArea.spaceView(ctxOf(request), request.browserSession as BrowserSession, spaceId, pageId, revisionId);
    return html(reply, 200, spacePage(chromeOf(request, view.page?.title ?? view.space.title), view.space, view.pages, view.page));
  });

  // Change requests from start to merge: app-area.change-requests.routes.ts.
  await changeRequestPages(app, { base, html, chromeOf, ctxOf });

  // The editor (issue 32): Edit button target, editor page, its bundle, markdown paste.
  await app.register(appAreaEditorRoutes);
};
