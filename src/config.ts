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
   * Whether `insert_files` may fetch URLs on private and loopback addresses. Off by
   * default: a server fetching on a user's behalf must not reach its own network (SSRF).
   */
  fileFetchAllowPrivate: boolean;
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

/** Reads the configuration; every variable is documented in README.md. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const dataDir = path.resolve(env.DATA_DIR || './data');
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  }
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
    fileFetchAllowPrivate: env.FILE_FETCH_ALLOW_PRIVATE === 'true',
  };
}
