import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../schemas/common.ts';
import { ref } from '../../schemas/registry.ts';
import { ApiInformation, Liveness } from './system.schemas.ts';
import { apiInformation, liveness } from './system.service.ts';

export const systemRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/', {
    config: { public: true, rateLimit: false },
    schema: {
      operationId: 'getApiInformation',
      tags: ['system'],
      summary: 'Get API information (readiness probe)',
      security: [],
      response: { 200: ref(ApiInformation), ...errorResponses(500) },
    },
    handler: () => apiInformation(app.deps.db),
  });

  // Liveness, beside readiness (GET /v1/): answers while the event loop turns, whatever the
  // database does, so an orchestrator restarts a hung process but not one whose database blinks.
  app.get('/healthz', {
    config: { public: true, rateLimit: false },
    schema: {
      operationId: 'getLiveness',
      tags: ['system'],
      summary: 'Liveness probe: the process answers (no database query)',
      security: [],
      response: { 200: ref(Liveness) },
    },
    handler: () => liveness,
  });

  app.get('/v1/openapi.json', {
    config: { public: true, rateLimit: false },
    schema: {
      operationId: 'getOpenAPIDocument',
      tags: ['system'],
      summary: "Quire's OpenAPI document, generated from the schemas that validate requests",
      security: [],
      response: { 200: Type.Object({}, { additionalProperties: true }) },
    },
    handler: () => app.swagger(),
  });
};
