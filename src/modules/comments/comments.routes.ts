import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { presentReused } from '../../lib/reusable.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { presentMember } from '../members/members.presenter.ts';
import { MemberList } from '../members/members.schemas.ts';
import type { CommentsPage } from './comments.model.ts';
import { presentCommentResult, presentCommentsPage, presentRepliesPage, presentReplyResult } from './comments.presenter.ts';
import {
  ChangeRequestParams,
  Comment,
  CommentList,
  CommentParams,
  CommentReply,
  CommentReplyList,
  CrCommentParams,
  CrReplyParams,
  FormatOnlyQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PageOnlyQuery,
  PostCommentBody,
  PostReplyBody,
  ReplyParams,
  SpaceParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from './comments.schemas.ts';
import * as comments from './comments.service.ts';

const tags = ['comments'];
const S = '/v1/spaces/:spaceId';
const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';

/** The two bases share every operation; GitBook names them `...InSpace` and `...InChangeRequest`. */
const BASES = [
  { prefix: S, suffix: 'InSpace', where: 'space', params: SpaceParams, commentParams: CommentParams, replyParams: ReplyParams },
  { prefix: CR, suffix: 'InChangeRequest', where: 'change request', params: ChangeRequestParams, commentParams: CrCommentParams, replyParams: CrReplyParams },
] as const;

type BaseParams = { spaceId: string; changeRequestId?: string };
const baseOf = (params: BaseParams): comments.BaseRef => ({ spaceId: params.spaceId, changeRequestId: params.changeRequestId });

const Deleted = (what: string) => Type.Null({ description: `The ${what} is deleted, or was not there` });

export const commentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.deps;
  // One function for the app's life, so a reused page of comments is presented once (presentReused).
  const presentComments = (page: CommentsPage) => presentCommentsPage(config, page);

  for (const base of BASES) {
    const C = `${base.prefix}/comments`;

    app.get(C, {
      schema: {
        operationId: `listComments${base.suffix}`,
        tags,
        summary: `List the comments of the ${base.where} (status all, newest first by default)`,
        params: base.params,
        querystring: ListCommentsQuery,
        response: { 200: CommentList, ...errorResponses(400, 401, 404) },
      },
      handler: (request) => {
        const { page, limit, ...query } = request.query;
        return presentReused(comments.listComments(contextOf(request), baseOf(request.params as BaseParams), query, pageRequest(request, { page, limit })), presentComments);
      },
    });

    app.post(C, {
      schema: {
        operationId: `postComment${base.suffix}`,
        tags,
        summary: `Comment on the ${base.where}, or on one of its pages, nodes or table cells (comment role)`,
        params: base.params,
        querystring: FormatOnlyQuery,
        body: PostCommentBody,
        response: { 200: ref(Comment), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) =>
        presentCommentResult(config, await comments.postComment(contextOf(request), baseOf(request.params as BaseParams), request.body, request.query.format)),
    });

    app.get(`${C}/:commentId`, {
      schema: {
        operationId: `getComment${base.suffix}`,
        tags,
        summary: 'Get a comment',
        params: base.commentParams,
        querystring: FormatOnlyQuery,
        response: { 200: ref(Comment), ...errorResponses(400, 401, 404) },
      },
      handler: async (request) =>
        presentCommentResult(config, await comments.getComment(contextOf(request), baseOf(request.params as BaseParams), request.params.commentId, request.query.format)),
    });

    app.put(`${C}/:commentId`, {
      schema: {
        operationId: `updateComment${base.suffix}`,
        tags,
        summary: 'Change the body (its author), resolve or reopen, react (comment role)',
        params: base.commentParams,
        querystring: FormatOnlyQuery,
        body: UpdateCommentBody,
        response: { 200: ref(Comment), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const result = await comments.updateComment(contextOf(request), baseOf(request.params as BaseParams), request.params.commentId, request.body, request.query.format);
        return presentCommentResult(config, result);
      },
    });

    app.delete(`${C}/:commentId`, {
      schema: {
        operationId: `deleteComment${base.suffix}`,
        tags,
        summary: 'Delete a comment and its replies (its author, or an admin of the space); 204 also when absent',
        params: base.commentParams,
        response: { 204: Deleted('comment'), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        await comments.deleteComment(contextOf(request), baseOf(request.params as BaseParams), request.params.commentId);
        return reply.code(204).send(null);
      },
    });

    app.get(`${C}/:commentId/replies`, {
      schema: {
        operationId: `listCommentReplies${base.suffix}`,
        tags,
        summary: 'List the replies to a comment, oldest first',
        params: base.commentParams,
        querystring: ListRepliesQuery,
        response: { 200: CommentReplyList, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        const { page, limit, format } = request.query;
        const result = await comments.listReplies(contextOf(request), baseOf(request.params as BaseParams), request.params.commentId, pageRequest(request, { page, limit }), format);
        return presentRepliesPage(config, result);
      },
    });

    app.post(`${C}/:commentId/replies`, {
      schema: {
        operationId: `postCommentReply${base.suffix}`,
        tags,
        summary: 'Reply to a comment (comment role)',
        params: base.commentParams,
        querystring: FormatOnlyQuery,
        body: PostReplyBody,
        response: { 200: ref(CommentReply), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const result = await comments.postReply(contextOf(request), baseOf(request.params as BaseParams), request.params.commentId, request.body, request.query.format);
        return presentReplyResult(config, result);
      },
    });

    app.get(`${C}/:commentId/replies/:commentReplyId`, {
      schema: {
        operationId: `getCommentReply${base.suffix}`,
        tags,
        summary: 'Get a reply',
        params: base.replyParams,
        querystring: FormatOnlyQuery,
        response: { 200: ref(CommentReply), ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        const { commentId, commentReplyId } = request.params;
        return presentReplyResult(config, await comments.getReply(contextOf(request), baseOf(request.params as BaseParams), commentId, commentReplyId, request.query.format));
      },
    });

    app.put(`${C}/:commentId/replies/:commentReplyId`, {
      schema: {
        operationId: `updateCommentReply${base.suffix}`,
        tags,
        summary: 'Change the body (its author), react (comment role)',
        params: base.replyParams,
        querystring: FormatOnlyQuery,
        body: UpdateReplyBody,
        response: { 200: ref(CommentReply), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => {
        const { commentId, commentReplyId } = request.params;
        const result = await comments.updateReply(contextOf(request), baseOf(request.params as BaseParams), commentId, commentReplyId, request.body, request.query.format);
        return presentReplyResult(config, result);
      },
    });

    app.delete(`${C}/:commentId/replies/:commentReplyId`, {
      schema: {
        operationId: `deleteCommentReply${base.suffix}`,
        tags,
        summary: 'Delete a reply (its author, or an admin of the space); 204 also when absent',
        params: base.replyParams,
        response: { 204: Deleted('reply'), ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request, reply) => {
        const { commentId, commentReplyId } = request.params;
        await comments.deleteReply(contextOf(request), baseOf(request.params as BaseParams), commentId, commentReplyId);
        return reply.code(204).send(null);
      },
    });

    app.get(`${base.prefix}/commenters`, {
      schema: {
        operationId: `listCommenters${base.suffix}`,
        tags,
        summary: `List the members who commented or replied in the ${base.where}, by name`,
        params: base.params,
        querystring: PageOnlyQuery,
        response: { 200: MemberList, ...errorResponses(400, 401, 404) },
      },
      handler: async (request) => {
        const result = await comments.listCommenters(contextOf(request), baseOf(request.params as BaseParams), pageRequest(request, request.query));
        return { ...result, items: result.items.map((row) => presentMember(config, row)) };
      },
    });
  }
};
