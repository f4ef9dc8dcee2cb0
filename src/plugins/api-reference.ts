import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

const PREFIX = '/v1/docs';

/**
 * A browsable reference of Quire's API at /v1/docs: Swagger UI over the OpenAPI document
 * the route schemas make (/v1/openapi.json). Its scripts and styles are served from the
 * @fastify/swagger-ui package itself, never a CDN, so it works offline and under a strict
 * Content-Security-Policy. Like the OpenAPI document, it needs no token.
 */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url === PREFIX || route.url.startsWith(`${PREFIX}/`)) {
      route.config = { ...(route.config ?? {}), public: true } as typeof route.config;
    }
  });
  await app.register(swaggerUi, {
    routePrefix: PREFIX,
    staticCSP: true,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
  });
}
