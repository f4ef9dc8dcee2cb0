import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { SiteParams } from './site-spaces.schemas.ts';
import {
  AddGroupBody,
  AddSectionBody,
  AddSectionToGroupBody,
  GroupParams,
  GroupSectionParams,
  ListGroupsQuery,
  ListSectionsQuery,
  MoveGroupBody,
  MoveSectionBody,
  SectionParams,
  SiteSection,
  SiteSectionGroup,
  SiteSectionGroupList,
  SiteSectionList,
  UpdateGroupBody,
  UpdateSectionBody,
} from './site-sections.schemas.ts';
import * as sections from './site-sections.service.ts';

const tags = ['site-sections'];
const groupTags = ['site-section-groups'];
const emptyBody = async (request: { body: unknown }) => {
  request.body ??= {};
};

export const siteSectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/sites/:siteId/sections', {
    schema: {
      operationId: 'listSiteSections',
      tags,
      summary: 'List the sections of a site, in structure order',
      params: SiteParams,
      querystring: ListSectionsQuery,
      response: { 200: SiteSectionList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, shareKey } = request.query;
      return sections.listSections(contextOf(request), request.params.organizationId, request.params.siteId, shareKey, pageRequest(request, { page, limit }));
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/sections', {
    schema: {
      operationId: 'addSectionToSite',
      tags,
      summary: 'Add a section holding a site space for a space',
      params: SiteParams,
      body: AddSectionBody,
      response: { 201: ref(SiteSection), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const section = await sections.addSection(contextOf(request), request.params.organizationId, request.params.siteId, request.body);
      return reply.code(201).send(section);
    },
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId', {
    schema: {
      operationId: 'updateSiteSectionById',
      tags,
      summary: 'Update a section',
      params: SectionParams,
      body: UpdateSectionBody,
      response: { 200: ref(SiteSection), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) =>
      sections.updateSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId', {
    schema: {
      operationId: 'deleteSiteSectionById',
      tags,
      summary: 'Delete a section and its site spaces; 204 also when absent',
      params: SectionParams,
      response: { 204: Type.Null({ description: 'The section is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await sections.deleteSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move', {
    schema: {
      operationId: 'moveSiteSection',
      tags,
      summary: 'Move a section (deprecated: use sortSiteStructure)',
      deprecated: true,
      params: SectionParams,
      body: MoveSectionBody,
      response: { 200: ref(SiteSection), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: emptyBody,
    handler: (request) =>
      sections.moveSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId, request.body),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/section-groups', {
    schema: {
      operationId: 'listSiteSectionGroups',
      tags: groupTags,
      summary: 'List the section groups of a site, in structure order',
      params: SiteParams,
      querystring: ListGroupsQuery,
      response: { 200: SiteSectionGroupList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      sections.listGroups(contextOf(request), request.params.organizationId, request.params.siteId, pageRequest(request, request.query)),
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/section-groups', {
    schema: {
      operationId: 'addSectionGroupToSite',
      tags: groupTags,
      summary: 'Add a section group, with sections moved into it',
      params: SiteParams,
      body: AddGroupBody,
      response: { 201: ref(SiteSectionGroup), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const group = await sections.addGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.body);
      return reply.code(201).send(group);
    },
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId', {
    schema: {
      operationId: 'updateSiteSectionGroupById',
      tags: groupTags,
      summary: 'Update a section group',
      params: GroupParams,
      body: UpdateGroupBody,
      response: { 200: ref(SiteSectionGroup), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      sections.updateGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId', {
    schema: {
      operationId: 'deleteSiteSectionGroupById',
      tags: groupTags,
      summary: 'Delete a section group (what it holds takes its place); 204 also when absent',
      params: GroupParams,
      response: { 204: Type.Null({ description: 'The group is gone' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await sections.deleteGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections', {
    schema: {
      operationId: 'addSectionToSiteSectionGroup',
      tags: groupTags,
      summary: 'Put a section at the end of a section group',
      params: GroupParams,
      body: AddSectionToGroupBody,
      response: { 200: ref(SiteSectionGroup), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      sections.addSectionToGroup(
        contextOf(request),
        request.params.organizationId,
        request.params.siteId,
        request.params.siteSectionGroupId,
        request.body.sectionId,
      ),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId', {
    schema: {
      operationId: 'removeSectionFromSiteSectionGroup',
      tags: groupTags,
      summary: 'Take a section out of a group (it goes right after the group); 204 also when it was not in it',
      params: GroupSectionParams,
      response: { 204: Type.Null({ description: 'The section is not in the group' }), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      await sections.removeSectionFromGroup(contextOf(request), organizationId, siteId, siteSectionGroupId, siteSectionId);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move', {
    schema: {
      operationId: 'moveSiteSectionGroup',
      tags: groupTags,
      summary: 'Move a section group (deprecated: use sortSiteStructure)',
      deprecated: true,
      params: GroupParams,
      body: MoveGroupBody,
      response: { 200: ref(SiteSectionGroup), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: emptyBody,
    handler: (request) =>
      sections.moveGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body),
  });
};
