import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { contextOf } from '../../context.ts';
import { operations } from '../../plugins/operations.ts';
import { pageRequest } from '../../plugins/pagination.ts';
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
import { presentPlaced, presentStructure } from './site-sections.presenter.ts';
import { presentPublishedSite, presentShareLinkResult, presentShareLinks, presentSiteResult, presentSites } from './sites.presenter.ts';
import * as sites from './sites.service.ts';

const HostnameParams = Type.Object({ hostname: Type.String({ minLength: 1, maxLength: 255, pattern: HOSTNAME_PATTERN }) });
const Unmasked = Type.Object({ unmasked: Type.Optional(Type.Boolean({ description: 'Accepted; Quire masks nothing' })) });

export const sitesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const route = operations(app, ['sites']);
  const { config } = app.deps;

  route.get('/v1/orgs/:organizationId/sites', {
    operationId: 'listSites', summary: 'List the sites of an organization (members with a role)', params: OrganizationParams, querystring: ListSitesQuery, ok: SiteList,
    handler: async (request) => {
      const { page, limit, ...filter } = request.query;
      return presentSites(config, await sites.listSites(contextOf(request), request.params.organizationId, filter, pageRequest(request, { page, limit })));
    },
  });

  route.post('/v1/orgs/:organizationId/sites', {
    operationId: 'createSite', summary: 'Create a site (create role); `spaces` become its site spaces',
    params: OrganizationParams, body: CreateSiteBody, optionalBody: true, created: ref(Site), location: true,
    handler: async (request) => presentSiteResult(config, await sites.createSite(contextOf(request), request.params.organizationId, request.body)),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId', {
    operationId: 'getSiteById', summary: 'Get a site', params: SiteParams, ok: ref(Site),
    handler: async (request) => presentSiteResult(config, await sites.getSite(contextOf(request), request.params.organizationId, request.params.siteId)),
  });

  route.patch('/v1/orgs/:organizationId/sites/:siteId', {
    operationId: 'updateSiteById', summary: 'Update a site (admins, or its creator with the create role)', params: SiteParams, body: UpdateSiteBody, ok: ref(Site), errors: [400, 401, 403, 404, 409],
    handler: async (request) => presentSiteResult(config, await sites.updateSite(contextOf(request), request.params.organizationId, request.params.siteId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/sites/:siteId', {
    operationId: 'deleteSiteById', summary: 'Delete a site; 204 also when absent', params: SiteParams, noContent: 'The site is gone',
    handler: (request) => sites.deleteSite(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  for (const [action, operationId, published] of [
    ['publish', 'publishSite', true],
    ['unpublish', 'unpublishSite', false],
  ] as const) {
    route.post(`/v1/orgs/:organizationId/sites/:siteId/${action}`, {
      operationId, summary: published ? 'Publish a site to the audience of its visibility' : 'Take a site offline', params: SiteParams, ok: ref(Site),
      handler: async (request) => presentSiteResult(config, await sites.setPublished(contextOf(request), request.params.organizationId, request.params.siteId, published)),
    });
  }

  route.get('/v1/orgs/:organizationId/sites/:siteId/published', {
    operationId: 'getPublishedContentSite', summary: 'The published site profile: site, structure, customizations, scripts', params: SiteParams, querystring: ShareKeyQuery, ok: ref(PublishedSite),
    handler: async (request) => presentPublishedSite(config, await structure.getPublished(contextOf(request), request.params.organizationId, request.params.siteId, request.query.shareKey)),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/structure', {
    operationId: 'getSiteStructure', summary: 'The structure of a site: sections and groups, or root site spaces', params: SiteParams, querystring: ShareKeyQuery, ok: ref(SiteStructure),
    handler: async (request) => presentStructure(config, await structure.getStructure(contextOf(request), request.params.organizationId, request.params.siteId, request.query.shareKey)),
  });

  route.patch('/v1/orgs/:organizationId/sites/:siteId/structure/sort', {
    operationId: 'sortSiteStructure', summary: 'Move a site space, section or section group next to another; answers the moved item',
    params: SiteParams, body: SortStructureBody, ok: Type.Union([ref(SiteSpace), ref(SiteSection), ref(SiteSectionGroup)]),
    handler: async (request) => presentPlaced(config, await structure.sortStructure(contextOf(request), request.params.organizationId, request.params.siteId, request.body)),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema', {
    operationId: 'getSiteAdaptiveSchema', summary: 'The adaptive-content schema of a site; 404 when none is set', params: SiteParams, ok: ref(AdaptiveSchema),
    handler: (request) => adaptive.getAdaptiveSchema(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  route.put('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema', {
    operationId: 'updateSiteAdaptiveSchema', summary: 'Replace the adaptive-content schema (JSON Schema draft-07)', params: SiteParams, body: UpdateAdaptiveSchemaBody, ok: ref(AdaptiveSchema),
    handler: (request) => adaptive.updateAdaptiveSchema(contextOf(request), request.params.organizationId, request.params.siteId, request.body.jsonSchema as Record<string, unknown>),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions', {
    operationId: 'listSiteAdaptiveTemplateConditions', summary: 'Suggested conditions, one per declared claim', params: SiteParams, ok: TemplateConditions,
    handler: (request) => adaptive.listTemplateConditions(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/customization', {
    operationId: 'getSiteCustomizationById', summary: 'The customization of a site (defaults filled in)', params: SiteParams, querystring: Unmasked, ok: ref(Customization),
    handler: (request) => customization.getCustomization(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  route.put('/v1/orgs/:organizationId/sites/:siteId/customization', {
    operationId: 'updateSiteCustomizationById', summary: 'Replace the customization of a site', params: SiteParams, body: CustomizationInput, ok: ref(Customization),
    handler: (request) => customization.updateCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.body as Record<string, unknown>),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    operationId: 'getSiteSpaceCustomizationById', summary: 'The customization of a site space: the site’s with its overrides',
    params: SiteSpaceParams, querystring: Unmasked, ok: ref(SiteSpaceCustomization),
    handler: (request) => customization.getSiteSpaceCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId),
  });

  route.patch('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    operationId: 'overrideSiteSpaceCustomizationById', summary: 'Override settings of the site customization for one site space (null resets one)',
    params: SiteSpaceParams, body: CustomizationOverrideInput, ok: ref(SiteSpaceCustomization),
    handler: (request) =>
      customization.overrideSiteSpaceCustomization(
        contextOf(request),
        request.params.organizationId,
        request.params.siteId,
        request.params.siteSpaceId,
        request.body as Record<string, unknown>,
      ),
  });

  route.delete('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization', {
    operationId: 'deleteSiteSpaceCustomizationById', summary: 'Drop every customization override of a site space', params: SiteSpaceParams, noContent: 'The site space follows the site customization',
    handler: (request) => customization.deleteSiteSpaceCustomization(contextOf(request), request.params.organizationId, request.params.siteId, request.params.siteSpaceId),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/share-links', {
    operationId: 'listSiteShareLinks', summary: 'List the share links of a site (whoever manages it)', params: SiteParams, querystring: ListShareLinksQuery, ok: ShareLinkList,
    handler: async (request) => {
      const { page, limit, search } = request.query;
      return presentShareLinks(config, await shareLinks.listShareLinks(contextOf(request), request.params.organizationId, request.params.siteId, search, pageRequest(request, { page, limit })));
    },
  });

  route.post('/v1/orgs/:organizationId/sites/:siteId/share-links', {
    operationId: 'createSiteShareLink', summary: 'Create a share link with a random key', params: SiteParams, body: CreateShareLinkBody, created: ref(ShareLink),
    handler: async (request) => presentShareLinkResult(config, await shareLinks.createShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.body.name)),
  });

  route.patch('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', {
    operationId: 'updateSiteShareLinkById', summary: 'Rename a share link, or turn it on or off', params: ShareLinkParams, body: UpdateShareLinkBody, ok: ref(ShareLink),
    handler: async (request) =>
      presentShareLinkResult(config, await shareLinks.updateShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.params.shareLinkId, request.body)),
  });

  route.delete('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', {
    operationId: 'deleteSiteShareLinkById', summary: 'Delete a share link; 204 also when absent', params: ShareLinkParams, noContent: 'The share link is gone',
    handler: (request) => shareLinks.deleteShareLink(contextOf(request), request.params.organizationId, request.params.siteId, request.params.shareLinkId),
  });

  route.get('/v1/orgs/:organizationId/sites/:siteId/publishing/auth', {
    operationId: 'getSitePublishingAuthById', summary: "The key visitor tokens of the site are signed with (whoever manages the site)", params: SiteParams, ok: ref(SitePublishingAuth),
    handler: (request) => publishing.getPublishingAuth(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  route.post('/v1/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate', {
    operationId: 'regenerateSitePublishingAuthById', summary: 'Replace the visitor-auth key; tokens signed with the old one stop working at once', params: SiteParams, ok: ref(SitePublishingAuth),
    handler: (request) => publishing.regeneratePublishingAuth(contextOf(request), request.params.organizationId, request.params.siteId),
  });

  route.patch('/v1/custom-hostnames/:hostname', {
    operationId: 'dnsRevalidateCustomHostname', summary: "Prove a site's pending custom hostname (DNS TXT record, or an installation admin) and serve it",
    params: HostnameParams, noContent: 'The hostname is proven and served', errors: [400, 401, 404, 409],
    handler: (request) => publishing.verifyCustomHostname(contextOf(request), request.params.hostname),
  });
};
