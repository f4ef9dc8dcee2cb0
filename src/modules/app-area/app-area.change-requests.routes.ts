import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { editorAssets } from '../../editor/assets.ts';
import type { BrowserSession } from '../../access/index.ts';
import {
  changeRequestFullPage,
  changeRequestListPage,
  changeRequestListViewOf,
  changeRequestPageOfPage,
  changeRequestPageViewOf,
  crPageViewOf,
} from './app-area.change-requests.presenter.ts';
import * as crs from './app-area.change-requests.service.ts';
import { EDITOR_CSP } from './app-area.editor.presenter.ts';
import {
  AddPageForm,
  ChangeRequestListQuery,
  ChangeRequestParams,
  CommentForm,
  CommentParams,
  CommentUpdateForm,
  CrPageParams,
  CrPageQuery,
  DetailsForm,
  EditPageForm,
  FormBody,
  MoveForm,
  NewChangeRequestForm,
  PlaceForm,
  ReplyForm,
  ReviewersForm,
  ReviewForm,
  SpaceParams,
  StatusForm,
} from './app-area.schemas.ts';
import type { Chrome } from './app-area.presenter.ts';

/** What the app area's plugin lends these routes. */
export interface AppPageHelpers {
  base: () => string;
  html: (reply: FastifyReply, status: number, body: string) => FastifyReply;
  chromeOf: (request: FastifyRequest, title: string) => Chrome;
  ctxOf: (request: FastifyRequest) => Context;
}

/**
 * Change requests in the app (issue 32): the list, a change request with its forms, one of
 * its pages block by block, and one POST route per action. Each POST calls the API's
 * service as the session's member and redirects back (303); a refusal (4xx) is shown on
 * the change request's page with that status, and nothing changed.
 */
export async function changeRequestPages(parent: FastifyInstance, helpers: AppPageHelpers) {
  const app = parent.withTypeProvider<TypeBoxTypeProvider>();
  const { base, html, chromeOf, ctxOf } = helpers;
  const { config } = parent.deps;
  const signedIn = { public: true } as const;
  const session = (request: FastifyRequest) => request.browserSession as BrowserSession;
  const crUrl = (spaceId: string, number: string | number) => `${base()}/s/${encodeURIComponent(spaceId)}/change-requests/${number}`;

  const showChangeRequest = async (request: FastifyRequest, reply: FastifyReply, spaceId: string, number: string, status = 200, error?: string) => {
    const view = changeRequestPageViewOf(config, await crs.changeRequestPageView(ctxOf(request), session(request), spaceId, number));
    const chrome = chromeOf(request, `#${view.changeRequest.number} ${view.changeRequest.subject}`);
    if (!view.can.edit && !view.can.update) return html(reply, status, changeRequestFullPage(chrome, view, error));
    // A member who may change something gets the page's script (the bundle's change-request
    // entry), so the page is served under the editor's policy: scripts from this origin only.
    const { script, style, chunks } = (await editorAssets()).entries['change-request'];
    const at = (name: string) => `${base()}/assets/${name}`;
    const body = changeRequestFullPage(chrome, view, error, { script: at(script), style: at(style), chunks: chunks.map(at) });
    return reply.code(status).header('content-security-policy', EDITOR_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
  };

  /**
   * Runs one action, then redirects to `back` when it is a page of this change request
   * (never elsewhere), or to the change request. A 4xx other than 404 re-renders the page
   * with the reason; a 404 (nothing there for this member) goes to the error page.
   */
  const act = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: { spaceId: string; number: string },
    action: () => Promise<unknown>,
    anchor = '',
  ) => {
    const here = crUrl(params.spaceId, params.number);
    try {
      await action();
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      if (status >= 400 && status < 500 && status !== 404) return showChangeRequest(request, reply, params.spaceId, params.number, status, (error as Error).message);
      throw error;
    }
    const back = backTo((request.body as { back?: string } | undefined)?.back, here);
    return reply.redirect(back ? (back.includes('#') ? back : `${back}${anchor}`) : `${here}${anchor}`, 303);
  };

  /** `back` as an absolute URL when it is this change request or one of its pages; never elsewhere. */
  const backTo = (back: string | undefined, here: string): string | undefined => {
    if (!back) return undefined;
    let target: URL;
    try {
      target = new URL(back, here);
    } catch {
      return undefined;
    }
    const own = new URL(here);
    if (target.origin !== own.origin) return undefined;
    if (target.pathname !== own.pathname && !target.pathname.startsWith(`${own.pathname}/pages/`)) return undefined;
    return target.href;
  };

  app.get('/s/:spaceId/change-requests', { config: signedIn, schema: { hide: true, params: SpaceParams, querystring: ChangeRequestListQuery } }, async (request, reply) => {
    const data = await crs.changeRequestListView(ctxOf(request), session(request), request.params.spaceId, {
      status: request.query.status ?? 'open',
      ...(request.query.who ? { who: request.query.who } : {}),
    });
    const view = changeRequestListViewOf(config, data);
    return html(reply, 200, changeRequestListPage(chromeOf(request, `Change requests · ${view.space.title}`), view));
  });

  app.post('/s/:spaceId/change-requests', { config: signedIn, schema: { hide: true, params: SpaceParams, body: NewChangeRequestForm } }, async (request, reply) => {
    const number = await crs.openChangeRequest(ctxOf(request), session(request), request.params.spaceId, request.body.subject);
    return reply.redirect(crUrl(request.params.spaceId, number), 303);
  });

  app.get('/s/:spaceId/change-requests/:number', { config: signedIn, schema: { hide: true, params: ChangeRequestParams } }, async (request, reply) =>
    showChangeRequest(request, reply, request.params.spaceId, request.params.number),
  );

  app.get('/s/:spaceId/change-requests/:number/pages/:pageId', { config: signedIn, schema: { hide: true, params: CrPageParams, querystring: CrPageQuery } }, async (request, reply) => {
    const { spaceId, number, pageId } = request.params;
    const view = crPageViewOf(config, await crs.changeRequestPageOfView(ctxOf(request), session(request), spaceId, number, pageId));
    return html(reply, 200, changeRequestPageOfPage(chromeOf(request, view.page.title), view, request.query.comment));
  });

  app.post('/s/:spaceId/change-requests/:number/details', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: DetailsForm } }, async (request, reply) =>
    act(request, reply, request.params, () =>
      crs.saveDetails(
        ctxOf(request),
        session(request),
        request.params.spaceId,
        request.params.number,
        request.body.subject ?? '',
        request.body.descriptionDocument !== undefined ? { json: request.body.descriptionDocument } : { markdown: request.body.description ?? '' },
      ),
    ),
  );

  app.post('/s/:spaceId/change-requests/:number/status', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: StatusForm } }, async (request, reply) =>
    act(request, reply, request.params, () => crs.setStatus(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.body.status)),
  );

  app.post('/s/:spaceId/change-requests/:number/reviewers', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: ReviewersForm } }, async (request, reply) => {
    const users = request.body.users === undefined ? [] : Array.isArray(request.body.users) ? request.body.users : [request.body.users];
    return act(request, reply, request.params, () => crs.askReviewers(ctxOf(request), session(request), request.params.spaceId, request.params.number, users));
  });

  app.post('/s/:spaceId/change-requests/:number/reviews', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: ReviewForm } }, async (request, reply) =>
    act(request, reply, request.params, () =>
      crs.review(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.body.status, request.body.comment ?? ''),
    ),
  );

  app.post('/s/:spaceId/change-requests/:number/merge', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: FormBody } }, async (request, reply) =>
    act(request, reply, request.params, () => crs.merge(ctxOf(request), session(request), request.params.spaceId, request.params.number)),
  );

  app.post('/s/:spaceId/change-requests/:number/update', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: FormBody } }, async (request, reply) =>
    act(request, reply, request.params, () => crs.takeMain(ctxOf(request), session(request), request.params.spaceId, request.params.number)),
  );

  app.post('/s/:spaceId/change-requests/:number/comments', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: CommentForm } }, async (request, reply) => {
    const { text, page, node } = request.body;
    return act(request, reply, request.params, () =>
      crs.comment(ctxOf(request), session(request), request.params.spaceId, request.params.number, { text, ...(page ? { page } : {}), ...(node ? { node } : {}) }),
      node ? `#block-${encodeURIComponent(node)}` : '',
    );
  });

  app.post('/s/:spaceId/change-requests/:number/comments/:commentId', { config: signedIn, schema: { hide: true, params: CommentParams, body: CommentUpdateForm } }, async (request, reply) => {
    const { resolved, react, unreact } = request.body;
    const change = {
      ...(resolved !== undefined ? { resolved: resolved === 'true' } : {}),
      ...(react ? { react } : {}),
      ...(unreact ? { unreact } : {}),
    };
    return act(request, reply, request.params, () =>
      crs.updateCommentFromApp(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.commentId, change),
      `#comment-${request.params.commentId}`,
    );
  });

  app.post('/s/:spaceId/change-requests/:number/comments/:commentId/replies', { config: signedIn, schema: { hide: true, params: CommentParams, body: ReplyForm } }, async (request, reply) =>
    act(request, reply, request.params, () =>
      crs.reply(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.commentId, request.body.text),
      `#comment-${request.params.commentId}`,
    ),
  );

  app.post('/s/:spaceId/change-requests/:number/pages', { config: signedIn, schema: { hide: true, params: ChangeRequestParams, body: AddPageForm } }, async (request, reply) => {
    const { title, type, parent, at } = request.body;
    return act(
      request,
      reply,
      request.params,
      () =>
        crs.addPage(ctxOf(request), session(request), request.params.spaceId, request.params.number, {
          title,
          ...(type ? { type } : {}),
          ...(parent ? { parent } : {}),
          ...(at !== undefined && at !== '' ? { at: Number(at) } : {}),
        }),
      '#pages',
    );
  });

  app.post('/s/:spaceId/change-requests/:number/pages/:pageId', { config: signedIn, schema: { hide: true, params: CrPageParams, body: EditPageForm } }, async (request, reply) => {
    const { title, emoji, icon, description } = request.body;
    return act(
      request,
      reply,
      request.params,
      () =>
        crs.editPage(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.pageId, {
          ...(title !== undefined ? { title } : {}),
          ...(emoji !== undefined ? { emoji } : {}),
          ...(icon !== undefined ? { icon } : {}),
          ...(description !== undefined ? { description } : {}),
        }),
      '#pages',
    );
  });

  app.post('/s/:spaceId/change-requests/:number/pages/:pageId/move', { config: signedIn, schema: { hide: true, params: CrPageParams, body: MoveForm } }, async (request, reply) =>
    act(
      request,
      reply,
      request.params,
      () => crs.movePage(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.pageId, request.body.direction),
      '#pages',
    ),
  );

  // The tree's drag and drop (change-request.ts) posts here: one drop, one move.
  app.post('/s/:spaceId/change-requests/:number/pages/:pageId/place', { config: signedIn, schema: { hide: true, params: CrPageParams, body: PlaceForm } }, async (request, reply) =>
    act(
      request,
      reply,
      request.params,
      () =>
        crs.placePage(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.pageId, {
          target: request.body.target,
          position: request.body.position,
        }),
      '#pages',
    ),
  );

  app.post('/s/:spaceId/change-requests/:number/pages/:pageId/delete', { config: signedIn, schema: { hide: true, params: CrPageParams, body: FormBody } }, async (request, reply) =>
    act(
      request,
      reply,
      request.params,
      () => crs.deletePage(ctxOf(request), session(request), request.params.spaceId, request.params.number, request.params.pageId),
      '#pages',
    ),
  );
}
