import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { AppDeps } from './context.ts';
import type { Db, DialectName } from './db/database.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { newId } from './lib/ids.ts';
import { TtlCache } from './lib/ttl-cache.ts';
import { authPlugin } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSwagger } from './plugins/swagger.ts';
import { registerValidation } from './plugins/validation.ts';
import { registerSerialization } from './plugins/serialization.ts';
import { registerComponents } from './schemas/registry.ts';
import { release } from './modules/system/system.service.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { membersRoutes } from './modules/members/members.routes.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { invitesRoutes } from './modules/invites/invites.routes.ts';
import { collectionsRoutes } from './modules/collections/collections.routes.ts';
import { permissionsRoutes } from './modules/permissions/permissions.routes.ts';
import { spacesRoutes } from './modules/spaces/spaces.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { changeRequestsRoutes } from './modules/change-requests/change-requests.routes.ts';
import { pdfRoutes } from './modules/pdf/pdf.routes.ts';
import { linksRoutes } from './modules/links/links.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { commentsRoutes } from './modules/comments/comments.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { siteSectionsRoutes } from './modules/site-sections/site-sections.routes.ts';
import { siteSpacesRoutes } from './modules/site-spaces/site-spaces.routes.ts';
import { publishedRoutes } from './modules/published/published.routes.ts';
import { scheduleSpacePurge } from './jobs/space-purge.ts';
import { schedulePdfSweep } from './jobs/pdf-sweep.ts';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock?: Clock;
  /** Pino options, or false to log nothing (tests). */
  logger?: FastifyServerOptions['logger'];
}

// Request ids: a random prefix per process and a counter; unique across processes
// without paying for random bytes on every request.
const requestIdPrefix = newId(8);
let requestCounter = 0;
const nextRequestId = () => `${requestIdPrefix}-${(++requestCounter).toString(36)}`;

/** Pino settings: JSON lines, a request id on each, and no credential ever. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.token', 'token'],
      censor: '[redacted]',
    },
  };
}

/** Builds the app: plugins, then modules. Never listens. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request) => {
      // Honour a caller's request id when it is sane, so logs can be joined across services.
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : nextRequestId();
    },
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const deps: AppDeps = {
    db: options.db,
    dialect: options.dialect,
    config,
    clock: options.clock ?? systemClock,
    caches: {
      memberships: new TtlCache(config.authCacheTtlMs),
      listings: new TtlCache(60_000, 1_000),
      searchResults: new TtlCache(config.searchCacheTtlMs, 256),
    },
  };
  app.decorate('deps', deps);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // Bodiless POSTs (join, ping, publish) often still say `Content-Type: application/json`:
  // an empty body is no body, anything else goes through Fastify's safe JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    if (body === '') return done(null, undefined);
    return parseJson(request, body, done);
  });

  registerErrorHandling(app);
  registerComponents(app);
  registerValidation(app);
  registerSerialization(app);
  await registerSwagger(app, release.version);
  await registerRateLimit(app);
  await app.register(authPlugin);

  await app.register(systemRoutes);
  await app.register(usersRoutes);
  await app.register(organizationsRoutes);
  await app.register(membersRoutes);
  await app.register(teamsRoutes);
  await app.register(invitesRoutes);
  await app.register(collectionsRoutes);
  await app.register(permissionsRoutes);
  await app.register(spacesRoutes);
  await app.register(contentRoutes);
  await app.register(changeRequestsRoutes);
  await app.register(pdfRoutes);
  await app.register(linksRoutes);
  await app.register(searchRoutes);
  await app.register(commentsRoutes);
  await app.register(sitesRoutes);
  await app.register(siteSectionsRoutes);
  await app.register(siteSpacesRoutes);
  await app.register(publishedRoutes);

  if (config.spacePurgeIntervalMs > 0) {
    const stopPurge = scheduleSpacePurge(deps, app.log, config.spacePurgeIntervalMs);
    app.addHook('onClose', async () => stopPurge());
  }
  const stopPdfSweep = schedulePdfSweep(deps, app.log);
  app.addHook('onClose', async () => stopPdfSweep());

  await app.ready();
  return app;
}
