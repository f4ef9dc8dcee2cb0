import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.ts';
import type { AppDeps } from './context.ts';
import type { Db, DialectName } from './db/database.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { HttpError } from './errors.ts';
import { newId } from './lib/ids.ts';
import { TtlCache } from './lib/ttl-cache.ts';
import { createFileStore } from './files/index.ts';
import type { FileStore } from './files/types.ts';
import { createOutboundClient } from './lib/outbound/client.ts';
import { createMarkdownReader } from './content/markdown/page-reader.ts';
import { authPlugin } from './plugins/auth.ts';
import { errorBody, registerErrorHandling } from './plugins/errors.ts';
import { registerInputSanitation } from './plugins/input-sanitation.ts';
import { serializeRequest } from './plugins/log-redaction.ts';
import { requestLoggerFactory } from './plugins/request-logger.ts';
import { registerRateLimit } from './plugins/rate-limit.ts';
import { registerSwagger } from './plugins/swagger.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerValidation } from './plugins/validation.ts';
import { registerSerialization } from './plugins/serialization.ts';
import { lazySchemaController } from './plugins/lazy-compilers.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { jobsRepository } from './jobs/jobs.repository.ts';
import { registerApiReference } from './plugins/api-reference.ts';
import { registerComponents } from './schemas/registry.ts';
import { release } from './modules/system/system.service.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { authenticateTokenHash } from './modules/users/users.tokens.ts';
import { browserSessionActor } from './modules/app-area/app-area.api-session.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { membersRoutes } from './modules/members/members.routes.ts';
import { memberSpacesRoutes } from './modules/spaces/spaces.member-routes.ts';
import { memberTeamsRoutes } from './modules/teams/teams.member-routes.ts';
import { teamsRoutes } from './modules/teams/teams.routes.ts';
import { invitesRoutes } from './modules/invites/invites.routes.ts';
import { collectionsRoutes } from './modules/collections/collections.routes.ts';
import { permissionsRoutes } from './modules/permissions/permissions.routes.ts';
import { spacesRoutes } from './modules/spaces/spaces.routes.ts';
import { contentRoutes } from './modules/content/content.routes.ts';
import { changeRequestsRoutes } from './modules/change-requests/change-requests.routes.ts';
import { changeRequestContentRoutes } from './modules/content/content.change-requests.routes.ts';
import { pdfRoutes } from './modules/pdf/pdf.routes.ts';
import { linksRoutes } from './modules/links/links.routes.ts';
import { searchRoutes } from './modules/search/search.routes.ts';
import { commentsRoutes } from './modules/comments/comments.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { siteSectionsRoutes } from './modules/sites/site-sections.routes.ts';
import { siteSpacesRoutes } from './modules/sites/site-spaces.routes.ts';
import { publishedRoutes } from './modules/published/published.routes.ts';
import { appJobs } from './composition.ts';
import type { JobHandler } from './jobs/queue.ts';
import { JobRegistry } from './jobs/registry.ts';
import { JobWorker } from './jobs/worker.ts';
import { conversationsRoutes } from './modules/conversations/conversations.routes.ts';
import { gitSyncRoutes } from './modules/git-sync/git-sync.routes.ts';
import { samlProvidersRoutes } from './modules/saml-providers/saml-providers.routes.ts';
import { ssoRoutes } from './modules/sso/sso.routes.ts';
import { appAreaRoutes } from './modules/app-area/app-area.routes.ts';
import { collabRoutes } from './modules/collab/collab.routes.ts';
import { translationsRoutes } from './modules/translations/translations.routes.ts';
import { openapiSpecsRoutes } from './modules/openapi-specs/openapi-specs.routes.ts';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  dialect: DialectName;
  clock?: Clock;
  /** Pino options, or false to log nothing (tests). */
  logger?: FastifyServerOptions['logger'];
  /** A file store to use instead of the configured one (the caller closes it). */
  files?: FileStore;
  /** The job kinds this app's worker works (default: the app's own, src/composition.ts; tests add theirs). */
  jobs?: readonly JobHandler[];
}

// Declared here, not in context.ts, so that context (which jobs import) imports no job code.
declare module 'fastify' {
  interface FastifyInstance {
    /** The job kinds this app was composed with (what its worker, or a drain, runs). */
    jobRegistry: JobRegistry;
    /** This process's job worker; null when QUIRE_WORKERS=0. */
    jobs: JobWorker | null;
  }
}

// Request ids: a random prefix per process and a counter; unique across processes
// without paying for random bytes on every request.
const requestIdPrefix = newId(8);
let requestCounter = 0;
const nextRequestId = () => `${requestIdPrefix}-${(++requestCounter).toString(36)}`;

/**
 * Pino settings: JSON lines, a request id on each, and no credential ever: no token or
 * cookie header, and request URLs with their capability parameters and segments redacted.
 */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    serializers: { req: serializeRequest },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.token', 'token'],
      censor: '[redacted]',
    },
  };
}

/** What requests and jobs share: the database, configuration, clock and in-process caches. */
export function createDeps(options: Pick<BuildAppOptions, 'config' | 'db' | 'dialect' | 'clock' | 'files'>): AppDeps {
  const { config } = options;
  return {
    db: options.db,
    dialect: options.dialect,
    config,
    clock: options.clock ?? systemClock,
    caches: {
      memberships: new TtlCache(60_000, 10_000),
      listings: new TtlCache(60_000, 1_000),
      searchResults: new TtlCache(config.searchCacheTtlMs, 256),
    },
    files: options.files ?? createFileStore({ config, db: options.db, dialect: options.dialect }),
    outbound: createOutboundClient({ allowPrivate: config.outboundAllowPrivate }),
    markdown: createMarkdownReader(config.markdownReader),
  };
}

/** A job worker for these dependencies and job kinds, with the configured slots, poll, lease and grace. */
export function createWorker(deps: AppDeps, registry: JobRegistry, log: FastifyBaseLogger, concurrency = deps.config.workers): JobWorker {
  const { config } = deps;
  return new JobWorker(deps, registry, {
    concurrency,
    pollIntervalMs: config.jobsPollIntervalMs,
    leaseMs: config.jobsLeaseMs,
    shutdownGraceMs: config.jobsShutdownGraceMs,
    log: log.child({ component: 'jobs' }),
  });
}

/** The longest path parameter the router accepts (characters, percent-encoded). */
const MAX_PATH_PARAMETER = 2048;

/** Builds the app: plugins, then modules; starts a job worker unless QUIRE_WORKERS=0. Never listens. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    childLoggerFactory: requestLoggerFactory,
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request) => {
      // Honour a caller's request id when it is sane, so logs can be joined across services.
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : nextRequestId();
    },
    requestIdHeader: false,
    // Path parameters up to 2,048 characters: a file's download URL carries its name, and
    // GitBook names a twice-uploaded image `image (2) (1) (1) … .png`, past the router's default
    // 100 (a 255-byte name percent-encoded is at most 765 characters). Ids are checked by schema.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER },
    schemaController: lazySchemaController,
    // The router's own refusals (a malformed escape such as %C0%AE, a path parameter over
    // 2,048 characters) in GitBook's error body, without echoing the URL.
    frameworkErrors: (error, _request, reply) => {
      const code = (error as { code?: string }).code;
      const given = (error as { statusCode?: number }).statusCode ?? 400;
      const [status, message] =
        code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? [414, 'A path parameter is longer than 2,048 characters']
          : code === 'FST_ERR_BAD_URL'
            ? [400, 'The URL holds an invalid percent-encoded sequence']
            : [given >= 400 && given < 500 ? given : 400, 'The request could not be routed'];
      (reply as FastifyReply).code(status).send(errorBody(status, message));
    },
    // Node's HTTP parser refusals (headers or URL over the size limit, malformed requests),
    // answered before Fastify sees a request, also in GitBook's error body.
    clientErrorHandler: (error, socket) => {
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
      const errorCode = (error as NodeJS.ErrnoException).code;
      const [status, message] =
        errorCode === 'HPE_HEADER_OVERFLOW'
          ? [431, 'The request line and headers are larger than the server accepts']
          : errorCode === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'The request took too long to arrive']
            : [400, 'The request is not valid HTTP'];
      const body = JSON.stringify(errorBody(status, message));
      socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const deps = createDeps(options);
  app.decorate('deps', deps);
  app.addHook('onClose', async () => {
    await deps.outbound.close();
    await deps.markdown.close();
    if (!options.files) await deps.files.close();
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // Bodiless POSTs (join, ping, publish) often still say `Content-Type: application/json`:
  // an empty body is no body, anything else goes through Fastify's safe JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      return done(new HttpError(415, `Request bodies are not accepted compressed (Content-Encoding: ${encoding.slice(0, 20)}); send the JSON as it is`), undefined);
    }
    if (body === '') return done(null, undefined);
    // `null` is JSON but no request body: it must not create an object with defaults.
    if (body.trim() === 'null') return done(new HttpError(400, 'body must be a JSON object, not null'), undefined);
    return parseJson(request, body, done);
  });

  registerErrorHandling(app);
  registerMetrics(app);
  // The queue's depth and failures, counted at each scrape (one grouped query).
  app.metrics.registerGauge(
    'quire_jobs',
    'Background jobs by state (queued: waiting; failed: out of attempts, see cli -- jobs list --state failed)',
    async () => (await jobsRepository.countByState(deps.db)).map(({ state, count }) => ({ labels: { state }, value: count })),
    ['state'],
  );
  registerInputSanitation(app);
  registerComponents(app);
  registerValidation(app);
  registerSerialization(app);
  await registerSwagger(app, release.version);
  await registerApiReference(app);
  await registerRateLimit(app);
  await registerCompression(app);
  // Who a token or a session cookie is: the users module and the app area answer (auth.ts).
  await app.register(authPlugin, { tokenActor: authenticateTokenHash, cookieActor: browserSessionActor });

  await app.register(systemRoutes);
  await app.register(usersRoutes);
  await app.register(organizationsRoutes);
  await app.register(membersRoutes);
  await app.register(memberSpacesRoutes);
  await app.register(memberTeamsRoutes);
  await app.register(teamsRoutes);
  await app.register(invitesRoutes);
  await app.register(collectionsRoutes);
  await app.register(permissionsRoutes);
  await app.register(spacesRoutes);
  await app.register(contentRoutes);
  await app.register(changeRequestsRoutes);
  await app.register(changeRequestContentRoutes);
  await app.register(pdfRoutes);
  await app.register(linksRoutes);
  await app.register(searchRoutes);
  await app.register(commentsRoutes);
  await app.register(sitesRoutes);
  await app.register(siteSectionsRoutes);
  await app.register(siteSpacesRoutes);
  await app.register(publishedRoutes);
  await app.register(conversationsRoutes);
  await app.register(samlProvidersRoutes);
  await app.register(ssoRoutes);
  await app.register(appAreaRoutes, { prefix: '/app' });
  await app.register(collabRoutes);
  await app.register(gitSyncRoutes);
  await app.register(translationsRoutes);
  await app.register(openapiSpecsRoutes);

  // Every server process works jobs too, unless it is web-only; closing the app stops
  // claiming and lets running jobs finish (or hands them back) before the database closes.
  const jobRegistry = new JobRegistry(options.jobs ?? appJobs);
  app.decorate('jobRegistry', jobRegistry);
  const worker = config.workers > 0 ? createWorker(deps, jobRegistry, app.log) : null;
  app.decorate('jobs', worker);
  if (worker) app.addHook('onClose', async () => worker.stop());

  await app.ready();
  worker?.start();
  return app;
}
