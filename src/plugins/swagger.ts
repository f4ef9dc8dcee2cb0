import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';

/** Builds Quire's OpenAPI document from the route schemas; served at /v1/openapi.json. */
export async function registerSwagger(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version,
        description:
          "Quire's HTTP JSON API, wire-compatible with GitBook's REST API v1. Every operation takes " +
          '`Authorization: Bearer <token>` unless marked otherwise.',
      },
      servers: [{ url: app.deps.config.publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    // Named components keep the names given with component() instead of def-N.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}
