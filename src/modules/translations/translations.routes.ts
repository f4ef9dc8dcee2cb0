import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import {
  CreateTranslationBody,
  GlossaryEntry,
  GlossaryEntryList,
  GlossaryEntryParams,
  ListGlossaryQuery,
  ListTranslationsQuery,
  OrganizationParams,
  Translation,
  TranslationList,
  TranslationParams,
  UpdateGlossaryBody,
  UpdateTranslationBody,
} from './translations.schemas.ts';
import * as translations from './translations.service.ts';

const tags = ['translations'];
const O = '/v1/orgs/:organizationId';

export const translationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(`${O}/translations`, {
    schema: {
      operationId: 'listTranslations',
      tags,
      summary: 'List the organization’s translations, oldest first',
      params: OrganizationParams,
      querystring: ListTranslationsQuery,
      response: { 200: TranslationList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => translations.listTranslations(contextOf(request), request.params.organizationId, pageRequest(request, request.query)),
  });

  app.post(`${O}/translations`, {
    schema: {
      operationId: 'createTranslation',
      tags,
      summary: 'Create a translation of a space into another language (create role); its first run starts at once',
      params: OrganizationParams,
      body: CreateTranslationBody,
      response: { 201: ref(Translation), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const created = await translations.createTranslation(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).send(created);
    },
  });

  app.get(`${O}/translations/:translationId`, {
    schema: {
      operationId: 'getTranslation',
      tags,
      summary: 'Get a translation',
      params: TranslationParams,
      response: { 200: ref(Translation), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => translations.getTranslation(contextOf(request), request.params.organizationId, request.params.translationId),
  });

  app.put(`${O}/translations/:translationId`, {
    schema: {
      operationId: 'updateTranslation',
      tags,
      summary: 'Replace a translation’s instructions (used from its next run)',
      params: TranslationParams,
      body: UpdateTranslationBody,
      response: { 200: ref(Translation), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => translations.updateTranslation(contextOf(request), request.params.organizationId, request.params.translationId, request.body),
  });

  app.delete(`${O}/translations/:translationId`, {
    schema: {
      operationId: 'deleteTranslation',
      tags,
      summary: 'Delete a translation (204, also when absent); its result space stays',
      params: TranslationParams,
      response: { 204: Type.Null({ description: 'Deleted, or did not exist' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await translations.deleteTranslation(contextOf(request), request.params.organizationId, request.params.translationId);
      return reply.code(204).send(null);
    },
  });

  app.post(`${O}/translations/:translationId/run`, {
    schema: {
      operationId: 'runTranslation',
      tags,
      summary: 'Run a translation again: sends the pages changed since the last run',
      params: TranslationParams,
      response: { 204: Type.Null({ description: 'Run queued' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await translations.triggerRun(contextOf(request), request.params.organizationId, request.params.translationId);
      return reply.code(204).send(null);
    },
  });

  app.get(`${O}/translations-glossary`, {
    schema: {
      operationId: 'listGlossaryEntries',
      tags: ['glossary'],
      summary: 'List the glossary: terms kept as they are or translated to a fixed term per language',
      params: OrganizationParams,
      querystring: ListGlossaryQuery,
      response: { 200: GlossaryEntryList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, orderBy } = request.query;
      return translations.listGlossaryEntries(contextOf(request), request.params.organizationId, orderBy, pageRequest(request, { page, limit }));
    },
  });

  app.put(`${O}/translations-glossary`, {
    schema: {
      operationId: 'updateGlossaryEntries',
      tags: ['glossary'],
      summary: 'Insert, update and delete glossary entries, all or none',
      params: OrganizationParams,
      body: UpdateGlossaryBody,
      response: { 204: Type.Null({ description: 'Glossary entries updated' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await translations.updateGlossaryEntries(contextOf(request), request.params.organizationId, request.body.operations);
      return reply.code(204).send(null);
    },
  });

  app.get(`${O}/translations-glossary/:glossaryEntryId`, {
    schema: {
      operationId: 'getGlossaryEntry',
      tags: ['glossary'],
      summary: 'Get a glossary entry',
      params: GlossaryEntryParams,
      response: { 200: ref(GlossaryEntry), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => translations.getGlossaryEntry(contextOf(request), request.params.organizationId, request.params.glossaryEntryId),
  });
};
