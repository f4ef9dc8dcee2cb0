import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { pageRequest } from '../../plugins/pagination.ts';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { SiteSpace } from './site-spaces.schemas.ts';
import { SiteSection, SiteSectionGroup, SiteStructure } from './site-sections.schemas.ts';
import {
  AdaptiveSchema,
  CreateShareLinkBody,
  CreateSiteBody,
  Customization,
  CustomizationInput,
  CustomizationOverrideInput,
  ListShareLinksQuery,
  ListSitesQuery,
  OrganizationParams,
  PublishedSite,
  ShareKeyQuery,
  ShareLink,
  SitePublishingAuth,
  HOSTNAME_PATTERN,
  ShareLinkList,
  ShareLinkParams,
  Site,
  SiteList,
  SiteParams,
  SiteSpaceCustomization,
  SiteSpaceParams,
  SortStructureBody,
  TemplateConditions,
  UpdateAdaptiveSchemaBody,
  UpdateShareLinkBody,
  UpdateSiteBody,
} from './sites.schemas.ts';
import * as shareLinks from './share-links.service.ts';
import * as adaptive from './site-adaptive.service.ts';
import * as customization from './site-customization.service.ts';
import * as publishing from './site-publishing.service.ts';
import * as structure from './site-structure.service.ts';
import * as sites from './sites.service.ts';

const tags = ['sites'];
const noContent = (description: string) => Type.Null({ description });
const Unmasked = Type.Object({ unmasked: Type.Optional(Type.Boolean({ description: 'Accepted; Quire masks nothing' })) });

export const sitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/orgs/:organizationId/sites', {
    schema: {
      operationId: 'listSites',
      tags,
      summary: 'List the sites of an organization (members with a role)',
      params: OrganizationParams,
      querystring: ListSitesQuery,
      response: { 200: SiteList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, ...filter } = request.query;
      return sites.listSites(contextOf(request), request.params.organizationId, filter, pageRequest(request, { page, limit }));
    },
  });

  app.post('/v1/orgs/:organizationId/sites', {
    schema: {
      operationId: 'createSite',
      tags,
      summary: 'Create a site (create role); `spaces` become its site spaces',
      params: OrganizationParams,
      body: CreateSiteBody,
      response: { 201: ref(Site), ...errorResponses(400, 401, 403, 404) },
    },
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request, reply) => {
      const site = await sites.createSite(contextOf(request), request.params.organizationId, request.body);
      return reply.code(201).header('location', site.urls.location).send(site);
    },
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId', {
    schema: {
      operationId: 'getSiteById',
      tags,
      summary: 'Get a site',
      params: SiteParams,
      response: { 200: ref(Site), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => sites.getSite(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId', {
    schema: {
      operationId: 'updateSiteById',
      tags,
      summary: 'Update a site (admins, or its creator with the create role)',
      params: SiteParams,
      body: UpdateSiteBody,
      response: { 200: ref(Site), ...errorResponses(400, 401, 403, 404, 409) },
    },
    handler: (request) => sites.updateSite(contextOf(request), request.params.organizationId, request.params.siteId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId', {
    schema: {
      operationId: 'deleteSiteById',
      tags,
      summary: 'Delete a site; 204 also when absent',
      params: SiteParams,
      response: { 204: noContent('The site is gone'), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await sites.deleteSite(contextOf(request), request.params.organizationId, request.params.siteId);
      return reply.code(204).send(null);
    },
  });

  for (const [action, operationId, published] of [
    ['publish', 'publishSite', true],
    ['unpublish', 'unpublishSite', false],
  ] as const) {
    app.post(`/v1/orgs/:organizationId/sites/:siteId/${action}`, {
      schema: {
        operationId,
        tags,
        summary: published ? 'Publish a site to the audience of its visibility' : 'Take a site offline',
        params: SiteParams,
        response: { 200: ref(Site), ...errorResponses(400, 401, 403, 404) },
      },
      handler: (request) => sites.setPublished(contextOf(request), request.params.organizationId, request.params.siteId, published),
    });
  }

  app.get('/v1/orgs/:organizationId/sites/:siteId/published', {
    schema: {
      operationId: 'getPublishedContentSite',
      tags,
      summary: 'The published site profile: site, structure, customizations, scripts',
      params: SiteParams,
      querystring: ShareKeyQuery,
      response: { 200: ref(PublishedSite), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => structure.getPublished(contextOf(request), request.params.organizationId, request.params.siteId, request.query.shareKey),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/structure', {
    schema: {
      operationId: 'getSiteStructure',
      tags,
      summary: 'The structure of a site: sections and groups, or root site spaces',
      params: SiteParams,
      querystring: ShareKeyQuery,
      response: { 200: ref(SiteStructure), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => structure.getStructure(contextOf(request), request.params.organizationId, request.params.siteId, request.query.shareKey),
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/structure/sort', {
    schema: {
      operationId: 'sortSiteStructure',
      tags,
      summary: 'Move a site space, section or section group next to another; answers the moved item',
      params: SiteParams,
      body: SortStructureBody,
      response: {
        200: Type.Union([ref(SiteSpace), ref(SiteSection), ref(SiteSectionGroup)]),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    handler: (request) => structure.sortStructure(contextOf(request), request.params.organizationId, request.params.siteId, request.body),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema', {
    schema: {
      operationId: 'getSiteAdaptiveSchema',
      tags,
      summary: 'The adaptive-content schema of a site; 404 when none is set',
      params: SiteParams,
      response: { 200: ref(AdaptiveSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => adaptive.getAdaptiveSchema(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.put('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema', {
    schema: {
      operationId: 'updateSiteAdaptiveSchema',
      tags,
      summary: 'Replace the adaptive-content schema (JSON Schema draft-07)',
      params: SiteParams,
      body: UpdateAdaptiveSchemaBody,
      response: { 200: ref(AdaptiveSchema), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      adaptive.updateAdaptiveSchema(contextOf(request), request.params.organizationId, request.params.siteId, request.body.jsonSchema as Record<string, unknown>),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions', {
    schema: {
      operationId: 'listSiteAdaptiveTemplateConditions',
      tags,
      summary: 'Suggested conditions, one per declared claim',
      params: SiteParams,
      response: { 200: TemplateConditions, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => adaptive.listTemplateConditions(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/customization', {
    schema: {
      operationId: 'getSiteCustomizationById',
      tags,
      summary: 'The customization of a site (defaults filled in)',
      params: SiteParams,
      querystring: Unmasked,
      response: { 200: ref(Customization), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => customization.getCustomization(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.put('/v1/orgs/:organizationId/sites/:siteId/customization', {
    schema: {
      operationId: 'updateSiteCustomizationById',
      tags,
      summary: 'Replace the customization of a site',
      params: SiteParams,
      body: CustomizationInput,
      response: { 200: ref(Customization), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      customization.updateCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.body as Record<string, unknown>),
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    schema: {
      operationId: 'getSiteSpaceCustomizationById',
      tags,
      summary: 'The customization of a site space: the site’s with its overrides',
      params: SiteSpaceParams,
      querystring: Unmasked,
      response: { 200: ref(SiteSpaceCustomization), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      customization.getSiteSpaceCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId),
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    schema: {
      operationId: 'overrideSiteSpaceCustomizationById',
      tags,
      summary: 'Override settings of the site customization for one site space (null resets one)',
      params: SiteSpaceParams,
      body: CustomizationOverrideInput,
      response: { 200: ref(SiteSpaceCustomization), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      customization.overrideSiteSpaceCustomization(
        contextOf(request),
        request.params.organizationId,
        request.params.siteId,
        request.params.siteSpaceId,
        request.body as Record<string, unknown>,
      ),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    schema: {
      operationId: 'deleteSiteSpaceCustomizationById',
      tags,
      summary: 'Drop every customization override of a site space',
      params: SiteSpaceParams,
      response: { 204: noContent('The site space follows the site customization'), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await customization.deleteSiteSpaceCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId);
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/share-links', {
    schema: {
      operationId: 'listSiteShareLinks',
      tags,
      summary: 'List the share links of a site (whoever manages it)',
      params: SiteParams,
      querystring: ListShareLinksQuery,
      response: { 200: ShareLinkList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => {
      const { page, limit, search } = request.query;
      return shareLinks.listShareLinks(contextOf(request), request.params.organizationId, request.params.siteId, search, pageRequest(request, { page, limit }));
    },
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/share-links', {
    schema: {
      operationId: 'createSiteShareLink',
      tags,
      summary: 'Create a share link with a random key',
      params: SiteParams,
      body: CreateShareLinkBody,
      response: { 201: ref(ShareLink), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      const link = await shareLinks.createShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.body.name);
      return reply.code(201).send(link);
    },
  });

  app.patch('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', {
    schema: {
      operationId: 'updateSiteShareLinkById',
      tags,
      summary: 'Rename a share link, or turn it on or off',
      params: ShareLinkParams,
      body: UpdateShareLinkBody,
      response: { 200: ref(ShareLink), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) =>
      shareLinks.updateShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.params.shareLinkId, request.body),
  });

  app.delete('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', {
    schema: {
      operationId: 'deleteSiteShareLinkById',
      tags,
      summary: 'Delete a share link; 204 also when absent',
      params: ShareLinkParams,
      response: { 204: noContent('The share link is gone'), ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request, reply) => {
      await shareLinks.deleteShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.params.shareLinkId);
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/orgs/:organizationId/sites/:siteId/publishing/auth', {
    schema: {
      operationId: 'getSitePublishingAuthById',
      tags,
      summary: "The key visitor tokens of the site are signed with (whoever manages the site)",
      params: SiteParams,
      response: { 200: ref(SitePublishingAuth), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => publishing.getPublishingAuth(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.post('/v1/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate', {
    schema: {
      operationId: 'regenerateSitePublishingAuthById',
      tags,
      summary: 'Replace the visitor-auth key; tokens signed with the old one stop working at once',
      params: SiteParams,
      response: { 200: ref(SitePublishingAuth), ...errorResponses(400, 401, 403, 404) },
    },
    handler: (request) => publishing.regeneratePublishingAuth(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  app.patch('/v1/custom-hostnames/:hostname', {
    schema: {
      operationId: 'dnsRevalidateCustomHostname',
      tags,
      summary: "Prove a site's pending custom hostname (DNS TXT record, or an installation admin) and serve it",
      params: Type.Object({ hostname: Type.String({ minLength: 1, maxLength: 255, pattern: HOSTNAME_PATTERN }) }),
      response: { 204: noContent('The hostname is proven and served'), ...errorResponses(400, 401, 404, 409) },
    },
    handler: async (request, reply) => {
      await publishing.verifyCustomHostname(contextOf(request), request.params.hostname);
      return reply.code(204).send(null);
    },
  });
};
