import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Typed server configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://...` selects PostgreSQL; absent means embedded SQLite in `dataDir`. */
  databaseUrl: string | undefined;
  /** Base of every absolute URL the API emits, without a trailing slash. */
  publicUrl: string;
  bootstrapAdminToken: string | undefined;
  /** Who and what the first start creates. */
  bootstrapAdminEmail: string;
  bootstrapAdminName: string;
  bootstrapOrganizationTitle: string;
  logLevel: string;
  /** How long a verified token stays trusted without asking the database again. */
  authCacheTtlMs: number;
  /** How long a ranked search result is kept for repeated queries and further pages (0: never). */
  searchCacheTtlMs: number;
  /** Requests per token per window; 0 turns rate limiting off. */
  rateLimitMax: number;
  rateLimitWindowMs: number;
  bodyLimitBytes: number;
  /** Items per page when a list request gives no `limit`. */
  defaultPageSize: number;
  /** How often deleted spaces older than 7 days are purged; 0 turns the schedule off. */
  spacePurgeIntervalMs: number;
  /**
   * Whether the outbound client (src/lib/outbound: file URLs of `insert_files`, and every
   * later URL a user gives) may reach private, loopback and other non-public addresses.
   * Off by default: a server fetching on a user's behalf must not reach its own network.
   */
  /** Jobs this process runs at once (QUIRE_WORKERS); 0: a web-only process that runs none. */
  workers: number;
  /**
   * Server processes `npm start` runs on one port (QUIRE_PROCESSES, node:cluster): one
   * Node process runs JavaScript on one core. Above 1 only on PostgreSQL.
   */
  processes: number;
  /** How often a worker looks for due jobs when nothing wakes it (a notification, a local enqueue). */
  jobsPollIntervalMs: number;
  /** How long a claimed job is held without renewal; a dead process's jobs run again after it. */
  jobsLeaseMs: number;
  /** On shutdown, how long running jobs may take to finish before they are handed back. */
  jobsShutdownGraceMs: number;
  outboundAllowPrivate: boolean;
  /**
   * Reading markdown off the request thread (content/markdown/page-reader.ts): threads at
   * most (MARKDOWN_READ_THREADS), thread time one reading may use (MARKDOWN_READ_BUDGET_MS),
   * bytes a request may read on its own thread (MARKDOWN_READ_INLINE_BYTES).
   */
  markdownReader: { threads: number; budgetMs: number; inlineBytes: number };
  /** Git sync import: the largest file read from a repository (a page or an asset), in bytes. */
  gitSyncMaxFileBytes: number;
  /** Git sync import: the most bytes one import reads from a repository (pages and new assets together). */
  gitSyncMaxImportBytes: number;
  /**
   * Where file bytes live (src/files): `fs` (a folder under DATA_DIR), `database` (the
   * PostgreSQL database itself) or `s3`. Unset: `fs` on SQLite, `database` on PostgreSQL.
   */
  fileStore: 'fs' | 'database' | 's3' | undefined;
  s3: S3Config | undefined;
  /**
   * Base of signed file download URLs, without a trailing slash. Defaults to PUBLIC_URL;
   * a separate origin (another host name for the same server) keeps uploaded files off
   * the origin of the API and published sites altogether.
   */
  downloadUrl: string;
  /** When set, GET /metrics wants it as bearer token; unset, /metrics is open. */
  metricsToken: string | undefined;
  /**
   * OpenAI-compatible endpoints for conversation processing (docs/decisions/conversations.md):
   * chat completions write issue titles, summaries and cluster labels, embeddings place
   * issues in clusters. Unset: the offline pipeline (TF-IDF and agglomerative clustering).
   */
  conversationsLlmUrl: string | undefined;
  conversationsLlmModel: string;
  conversationsEmbeddingsUrl: string | undefined;
  conversationsEmbeddingsModel: string;
  /** Bearer key sent to both endpoints; never logged. */
  conversationsModelApiKey: string | undefined;
  conversationsModelTimeoutMs: number;
  /**
   * How long a clustering run waits after it is asked for, so the issues of conversations
   * ingested meanwhile join one run (a run reads every issue's terms: one run per
   * conversation would make a large ingest quadratic).
   */
  conversationsClusterDelayMs: number;
  /**
   * The ingest budget (docs/operations.md "Limits"): bytes of one ingest request's body,
   * messages in one conversation, UTF-8 bytes of one message. Over any of them: 413.
   */
  conversationsIngestMaxBytes: number;
  conversationsMaxMessages: number;
  conversationsMaxMessageBytes: number;
  /** How long a browser session of the app lasts from sign-in (docs/decisions/sso.md). */
  sessionTtlMs: number;
  /** Clock difference tolerated on SAML time conditions (NotBefore, NotOnOrAfter). */
  samlClockSkewMs: number;
  /**
   * Who may create organizations (POST /v1/orgs; docs/security.md): `anyone` signed in,
   * `verified` (users whose email address is verified, and installation admins) or
   * `admins` (installation admins only).
   */
  orgCreation: 'anyone' | 'verified' | 'admins';
  /**
   * The DNS server custom hostname proofs are looked up on (`host` or `host:port`);
   * unset: the system's resolvers.
   */
  dnsServer: string | undefined;
  /** Machine translation provider (docs/decisions/translations.md); unset: runs fail saying so. */
  translationProvider: 'libretranslate' | 'deepl' | 'openai' | undefined;
  translationApiUrl: string | undefined;
  translationApiKey: string | undefined;
  translationModel: string;
  translationTimeoutMs: number;
  /** How often OpenAPI specs with a source URL are fetched again (0: never). */
  openapiRefreshIntervalMs: number;
  /** How long fetching one OpenAPI file may take before FETCH_TIMEOUT. */
  openapiFetchTimeoutMs: number;
}

export interface S3Config {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Key prefix inside the bucket ('' or ending in '/'). */
  prefix: string;
}

function fileStoreOf(env: NodeJS.ProcessEnv): Config['fileStore'] {
  const raw = env.FILE_STORE;
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'fs' || raw === 'database' || raw === 's3') return raw;
  throw new Error(`FILE_STORE must be fs, database or s3, got "${raw}"`);
}

function s3Of(env: NodeJS.ProcessEnv, required: boolean): S3Config | undefined {
  const bucket = env.S3_BUCKET || env.AWS_S3_BUCKET;
  if (!bucket) {
    if (required) throw new Error('FILE_STORE=s3 needs S3_BUCKET');
    return undefined;
  }
  const prefix = env.S3_PREFIX || '';
  return {
    endpoint: env.S3_ENDPOINT || env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
    bucket,
    region: env.S3_REGION || env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || env.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || env.AWS_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  };
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  if (!/^https?:\/\//.test(raw)) throw new Error(`${name} must be an http:// or https:// URL`);
  return raw.replace(/\/+$/, '');
}

/** Reads the configuration; every variable is documented in README.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const fileStore = fileStoreOf(env);
  // SQLite has one connection: a file written through it while a write transaction waits
  // would queue behind that transaction. Beside SQLite, the folder store is the database's twin.
  if (fileStore === 'database' && !databaseUrl) throw new Error('FILE_STORE=database needs PostgreSQL (DATABASE_URL); on SQLite use fs or s3');
  const processes = int(env, 'QUIRE_PROCESSES', 1);
  if (processes < 1 || processes > 64) throw new Error(`QUIRE_PROCESSES must be between 1 and 64, got "${env.QUIRE_PROCESSES}"`);
  // Each SQLite process drops every cached read on another's commit (docs/operations.md).
  if (processes > 1 && !databaseUrl) throw new Error('QUIRE_PROCESSES above 1 needs PostgreSQL (DATABASE_URL): SQLite is for one server process');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    publicUrl,
    bootstrapAdminToken: env.BOOTSTRAP_ADMIN_TOKEN || undefined,
    bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL || 'admin@quire.local',
    bootstrapAdminName: env.BOOTSTRAP_ADMIN_NAME || 'Administrator',
    bootstrapOrganizationTitle: env.BOOTSTRAP_ORG_TITLE || 'Quire',
    logLevel: env.LOG_LEVEL || 'info',
    authCacheTtlMs: int(env, 'AUTH_CACHE_TTL_MS', 5000),
    searchCacheTtlMs: int(env, 'SEARCH_CACHE_TTL_MS', 60_000),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 1200),
    rateLimitWindowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 10 * 1024 * 1024),
    defaultPageSize: Math.min(1000, Math.max(1, int(env, 'DEFAULT_PAGE_SIZE', 100))),
    spacePurgeIntervalMs: int(env, 'SPACE_PURGE_INTERVAL_MS', 60 * 60 * 1000),
    workers: int(env, 'QUIRE_WORKERS', 4),
    processes,
    jobsPollIntervalMs: Math.max(10, int(env, 'JOBS_POLL_INTERVAL_MS', 2000)),
    jobsLeaseMs: Math.max(100, int(env, 'JOBS_LEASE_MS', 60_000)),
    jobsShutdownGraceMs: int(env, 'JOBS_SHUTDOWN_GRACE_MS', 10_000),
    // FILE_FETCH_ALLOW_PRIVATE: the earlier name, still honoured.
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE === 'true' || env.FILE_FETCH_ALLOW_PRIVATE === 'true',
    markdownReader: {
      // One core is left to answer requests.
      threads: Math.max(1, int(env, 'MARKDOWN_READ_THREADS', Math.min(4, availableParallelism() - 1))),
      budgetMs: Math.max(100, int(env, 'MARKDOWN_READ_BUDGET_MS', 20_000)),
      inlineBytes: int(env, 'MARKDOWN_READ_INLINE_BYTES', 16 * 1024),
    },
    gitSyncMaxFileBytes: int(env, 'GIT_SYNC_MAX_FILE_BYTES', 100 * 1024 * 1024),
    gitSyncMaxImportBytes: int(env, 'GIT_SYNC_MAX_IMPORT_BYTES', 1024 * 1024 * 1024),
    fileStore,
    s3: s3Of(env, fileStore === 's3'),
    downloadUrl: (env.DOWNLOAD_URL || publicUrl).replace(/\/+$/, ''),
    metricsToken: env.METRICS_TOKEN || undefined,
    conversationsLlmUrl: httpUrl(env, 'CONVERSATIONS_LLM_URL'),
    conversationsLlmModel: env.CONVERSATIONS_LLM_MODEL || 'gpt-4o-mini',
    conversationsEmbeddingsUrl: httpUrl(env, 'CONVERSATIONS_EMBEDDINGS_URL'),
    conversationsEmbeddingsModel: env.CONVERSATIONS_EMBEDDINGS_MODEL || 'text-embedding-3-small',
    conversationsModelApiKey: env.CONVERSATIONS_MODEL_API_KEY || undefined,
    conversationsModelTimeoutMs: int(env, 'CONVERSATIONS_MODEL_TIMEOUT_MS', 30_000),
    conversationsClusterDelayMs: int(env, 'CONVERSATIONS_CLUSTER_DELAY_MS', 2_000),
    conversationsIngestMaxBytes: Math.max(1024, int(env, 'CONVERSATIONS_INGEST_MAX_BYTES', 128 * 1024)),
    conversationsMaxMessages: Math.max(1, int(env, 'CONVERSATIONS_MAX_MESSAGES', 500)),
    conversationsMaxMessageBytes: Math.max(1, int(env, 'CONVERSATIONS_MAX_MESSAGE_BYTES', 100_000)),
    sessionTtlMs: Math.max(60_000, int(env, 'SESSION_TTL_MS', 12 * 60 * 60 * 1000)),
    samlClockSkewMs: int(env, 'SAML_CLOCK_SKEW_MS', 60_000),
    orgCreation: orgCreationOf(env),
    dnsServer: env.DNS_SERVER || undefined,
    translationProvider: translationProviderOf(env),
    translationApiUrl: httpUrl(env, 'TRANSLATION_API_URL'),
    translationApiKey: env.TRANSLATION_API_KEY || undefined,
    translationModel: env.TRANSLATION_MODEL || 'gpt-4o-mini',
    translationTimeoutMs: Math.max(1000, int(env, 'TRANSLATION_TIMEOUT_MS', 60_000)),
    openapiRefreshIntervalMs: int(env, 'OPENAPI_REFRESH_INTERVAL_MS', 60 * 60 * 1000),
    openapiFetchTimeoutMs: Math.max(100, int(env, 'OPENAPI_FETCH_TIMEOUT_MS', 30_000)),
  };
}

function orgCreationOf(env: NodeJS.ProcessEnv): Config['orgCreation'] {
  const raw = env.ORG_CREATION || 'verified';
  if (raw !== 'anyone' && raw !== 'verified' && raw !== 'admins') throw new Error(`ORG_CREATION must be anyone, verified or admins, got "${raw}"`);
  return raw;
}

function translationProviderOf(env: NodeJS.ProcessEnv): Config['translationProvider'] {
  const raw = env.TRANSLATION_PROVIDER;
  if (!raw) return undefined;
  if (raw !== 'libretranslate' && raw !== 'deepl' && raw !== 'openai') throw new Error(`TRANSLATION_PROVIDER must be libretranslate, deepl or openai, got "${raw}"`);
  return raw;
}
