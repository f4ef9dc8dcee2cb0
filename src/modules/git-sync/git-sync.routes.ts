import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ExportBody, GitSyncState, ImportBody, SpaceParams } from './git-sync.schemas.ts';
import * as gitSync from './git-sync.service.ts';

const tags = ['git-sync'];
const S = '/v1/spaces/:spaceId';

export const gitSyncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(`${S}/git/import`, {
    schema: {
      operationId: 'importGitRepository',
      tags,
      summary: 'Import the space’s content from a git repository (runs in the background, in the space’s order of operations)',
      params: SpaceParams,
      body: ImportBody,
      response: { 204: Type.Null({ description: 'Operation started' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await gitSync.requestImport(contextOf(request), request.params.spaceId, request.body);
      return reply.code(204).send(null);
    },
  });

  app.post(`${S}/git/export`, {
    schema: {
      operationId: 'exportToGitRepository',
      tags,
      summary: 'Export the space’s content to a git repository as one commit (runs in the background)',
      params: SpaceParams,
      body: ExportBody,
      response: { 204: Type.Null({ description: 'Operation started' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await gitSync.requestExport(contextOf(request), request.params.spaceId, request.body);
      return reply.code(204).send(null);
    },
  });

  app.get(`${S}/git/info`, {
    schema: {
      operationId: 'getSpaceGitInfo',
      tags,
      summary: 'The git sync of the space; 404 when none was set up',
      params: SpaceParams,
      response: { 200: GitSyncState, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => gitSync.getGitInfo(contextOf(request), request.params.spaceId),
  });

  app.delete(`${S}/git/legacy-installation`, {
    schema: {
      operationId: 'deleteLegacyGitSyncInstallation',
      tags,
      summary: 'Remove the legacy git sync installation of the space (204 also when there is none)',
      params: SpaceParams,
      response: { 204: Type.Null({ description: 'Removed, or there was none' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await gitSync.deleteLegacyInstallation(contextOf(request), request.params.spaceId);
      return reply.code(204).send(null);
    },
  });
};
