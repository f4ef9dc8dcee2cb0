import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
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
import { presentGlossaryEntries, presentGlossaryEntry, presentTranslationResult, presentTranslations } from './translations.presenter.ts';
import * as translations from './translations.service.ts';

const O = '/v1/orgs/:organizationId';

export const translationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const translation = operations(app, ['translations']);
  const glossary = operations(app, ['glossary']);
  const { config } = app.deps;

  translation.get(`${O}/translations`, {
    operationId: 'listTranslations', summary: 'List the organization’s translations, oldest first', params: OrganizationParams, querystring: ListTranslationsQuery, ok: TranslationList,
    handler: async (request) => presentTranslations(config, await translations.listTranslations(contextOf(request), request.params.organizationId, pageRequest(request, request.query))),
  });

  translation.post(`${O}/translations`, {
    operationId: 'createTranslation', summary: 'Create a translation of a space into another language (create role); its first run starts at once',
    params: OrganizationParams, body: CreateTranslationBody, created: ref(Translation),
    handler: async (request) => presentTranslationResult(config, await translations.createTranslation(contextOf(request), request.params.organizationId, request.body)),
  });

  translation.get(`${O}/translations/:translationId`, {
    operationId: 'getTranslation', summary: 'Get a translation', params: TranslationParams, ok: ref(Translation),
    handler: async (request) => presentTranslationResult(config, await translations.getTranslation(contextOf(request), request.params.organizationId, request.params.translationId)),
  });

  translation.put(`${O}/translations/:translationId`, {
    operationId: 'updateTranslation', summary: 'Replace a translation’s instructions (used from its next run)', params: TranslationParams, body: UpdateTranslationBody, ok: ref(Translation),
    handler: async (request) =>
      presentTranslationResult(config, await translations.updateTranslation(contextOf(request), request.params.organizationId, request.params.translationId, request.body)),
  });

  translation.delete(`${O}/translations/:translationId`, {
    operationId: 'deleteTranslation', summary: 'Delete a translation (204, also when absent); its result space stays', params: TranslationParams, noContent: 'Deleted, or did not exist',
    handler: (request) => translations.deleteTranslation(contextOf(request), request.params.organizationId, request.params.translationId),
  });

  translation.post(`${O}/translations/:translationId/run`, {
    operationId: 'runTranslation', summary: 'Run a translation again: sends the pages changed since the last run', params: TranslationParams, noContent: 'Run queued',
    handler: (request) => translations.triggerRun(contextOf(request), request.params.organizationId, request.params.translationId),
  });

  glossary.get(`${O}/translations-glossary`, {
    operationId: 'listGlossaryEntries', summary: 'List the glossary: terms kept as they are or translated to a fixed term per language',
    params: OrganizationParams, querystring: ListGlossaryQuery, ok: GlossaryEntryList,
    handler: async (request) => {
      const { page, limit, orderBy } = request.query;
      return presentGlossaryEntries(config, await translations.listGlossaryEntries(contextOf(request), request.params.organizationId, orderBy, pageRequest(request, { page, limit })));
    },
  });

  glossary.put(`${O}/translations-glossary`, {
    operationId: 'updateGlossaryEntries', summary: 'Insert, update and delete glossary entries, all or none',
    params: OrganizationParams, body: UpdateGlossaryBody, noContent: 'Glossary entries updated',
    handler: (request) => translations.updateGlossaryEntries(contextOf(request), request.params.organizationId, request.body.operations),
  });

  glossary.get(`${O}/translations-glossary/:glossaryEntryId`, {
    operationId: 'getGlossaryEntry', summary: 'Get a glossary entry', params: GlossaryEntryParams, ok: ref(GlossaryEntry),
    handler: async (request) => presentGlossaryEntry(config, await translations.getGlossaryEntry(contextOf(request), request.params.organizationId, request.params.glossaryEntryId)),
  });
};
