import { createQueryId, type Compilable, type CompiledQuery } from 'kysely';
import { readNowIfIdle, type Db } from './database.ts';

// Stand-ins for parameters while the query is compiled; NUL never occurs in real values.
const SENTINEL = '\u0000param:';

/**
 * A query built and compiled once per SQL dialect; each call only binds its parameters.
 * Kysely otherwise rebuilds and recompiles a query on every call, which costs about as
 * much as running a small indexed read, so the hottest reads (organization access, one
 * team, one member) use this. Parameters must be plain values bound as-is (ids, not
 * lists that change the SQL's shape).
 */
export function preparedQuery<P extends Record<string, string | number>, R>(
  build: (db: Db, params: P) => Compilable<R>,
): (db: Db, params: P) => Promise<R[]> {
  const compiledByDialect = new Map<unknown, { query: CompiledQuery<R>; names: (string | null)[] }>();

  function compiled(db: Db) {
    // The adapter's class tells the SQL flavour (SQLite `?`, PostgreSQL `$1`); a transaction shares it.
    const dialect = db.getExecutor().adapter.constructor;
    let entry = compiledByDialect.get(dialect);
    if (!entry) {
      const placeholders = new Proxy({} as P, { get: (_target, name) => `${SENTINEL}${String(name)}` });
      const query = build(db, placeholders).compile();
      const names = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(SENTINEL) ? value.slice(SENTINEL.length) : null,
      );
      entry = { query, names };
      compiledByDialect.set(dialect, entry);
    }
    return entry;
  }

  return async (db, params) => {
    const { query, names } = compiled(db);
    const parameters = names.map((name, i) => (name === null ? query.parameters[i] : params[name]));
    const now = readNowIfIdle<R>(db, query.sql, parameters);
    if (now) return now;
    const result = await db.executeQuery<R>({ ...query, queryId: createQueryId(), parameters });
    return result.rows;
  };
}
