import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
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
import { presentGroups, presentPlaced, presentSections } from './site-sections.presenter.ts';
import * as sections from './site-sections.service.ts';


export const siteSectionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const section = operations(app, ['site-sections']);
  const group = operations(app, ['site-section-groups']);
  const { config } = app.deps;

  section.get('/v1/orgs/:organizationId/sites/:siteId/sections', {
    operationId: 'listSiteSections', summary: 'List the sections of a site, in structure order', params: SiteParams, querystring: ListSectionsQuery, ok: SiteSectionList,
    handler: async (request) => {
      const { page, limit, shareKey } = request.query;
      return presentSections(config, await sections.listSections(contextOf(request), request.params.organizationId, request.params.siteId, shareKey, pageRequest(request, { page, limit })));
    },
  });

  section.post('/v1/orgs/:organizationId/sites/:siteId/sections', {
    operationId: 'addSectionToSite', summary: 'Add a section holding a site space for a space', params: SiteParams, body: AddSectionBody, created: ref(SiteSection),
    handler: async (request) => presentPlaced(config, await sections.addSection(contextOf(request), request.params.organizationId, request.params.siteId, request.body)),
  });

  section.patch('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId', {
    operationId: 'updateSiteSectionById', summary: 'Update a section', params: SectionParams, body: UpdateSectionBody, ok: ref(SiteSection), errors: [400, 401, 403, 404, 409],
    handler: async (request) => presentPlaced(config, await sections.updateSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId, request.body)),
  });

  section.delete('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId', {
    operationId: 'deleteSiteSectionById', summary: 'Delete a section and its site spaces; 204 also when absent', params: SectionParams, noContent: 'The section is gone',
    handler: (request) => sections.deleteSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId),
  });

  section.post('/v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move', {
    operationId: 'moveSiteSection', summary: 'Move a section (deprecated: use sortSiteStructure)',
    params: SectionParams, body: MoveSectionBody, deprecated: true, optionalBody: true, ok: ref(SiteSection),
    handler: async (request) => presentPlaced(config, await sections.moveSection(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionId, request.body)),
  });

  group.get('/v1/orgs/:organizationId/sites/:siteId/section-groups', {
    operationId: 'listSiteSectionGroups', summary: 'List the section groups of a site, in structure order', params: SiteParams, querystring: ListGroupsQuery, ok: SiteSectionGroupList,
    handler: async (request) => presentGroups(config, await sections.listGroups(contextOf(request), request.params.organizationId, request.params.siteId, pageRequest(request, request.query))),
  });

  group.post('/v1/orgs/:organizationId/sites/:siteId/section-groups', {
    operationId: 'addSectionGroupToSite', summary: 'Add a section group, with sections moved into it', params: SiteParams, body: AddGroupBody, created: ref(SiteSectionGroup),
    handler: async (request) => presentPlaced(config, await sections.addGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.body)),
  });

  group.patch('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId', {
    operationId: 'updateSiteSectionGroupById', summary: 'Update a section group', params: GroupParams, body: UpdateGroupBody, ok: ref(SiteSectionGroup),
    handler: async (request) => presentPlaced(config, await sections.updateGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body)),
  });

  group.delete('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId', {
    operationId: 'deleteSiteSectionGroupById', summary: 'Delete a section group (what it holds takes its place); 204 also when absent', params: GroupParams, noContent: 'The group is gone',
    handler: (request) => sections.deleteGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId),
  });

  group.post('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections', {
    operationId: 'addSectionToSiteSectionGroup', summary: 'Put a section at the end of a section group', params: GroupParams, body: AddSectionToGroupBody, ok: ref(SiteSectionGroup),
    handler: async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      return presentPlaced(config, await sections.addSectionToGroup(contextOf(request), organizationId, siteId, siteSectionGroupId, request.body.sectionId));
    },
  });

  group.delete('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId', {
    operationId: 'removeSectionFromSiteSectionGroup', summary: 'Take a section out of a group (it goes right after the group); 204 also when it was not in it',
    params: GroupSectionParams, noContent: 'The section is not in the group',
    handler: async (request) => {
      const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
      await sections.removeSectionFromGroup(contextOf(request), organizationId, siteId, siteSectionGroupId, siteSectionId);
    },
  });

  group.post('/v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move', {
    operationId: 'moveSiteSectionGroup', summary: 'Move a section group (deprecated: use sortSiteStructure)',
    params: GroupParams, body: MoveGroupBody, deprecated: true, optionalBody: true, ok: ref(SiteSectionGroup),
    handler: async (request) => presentPlaced(config, await sections.moveGroup(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSectionGroupId, request.body)),
  });
};
