import type pg from 'pg';

/*
 * PostgreSQL parses and plans every unnamed statement again each time it runs: for the
 * search statements that was half of the database's time per search (parse and bind
 * against execute, in the server's statement log). Statements that repeat are therefore
 * sent as named (server-side prepared) statements, as pgjdbc does past its
 * prepareThreshold: a connection parses one once, and after five runs PostgreSQL may keep
 * a generic plan for it (plan_cache_mode auto) instead of planning again.
 *
 * Only reads are named: a statement text seen REPEATS_BEFORE_NAMING times in this process
 * (texts that differ only by their parameters' values are the same text; a list's length
 * changes the text), at most MAX_NAMED texts per process, so a connection's backend holds
 * a bounded set of plans. Writes and DDL stay unnamed: they are rarer, and a named
 * statement whose tables a migration later altered would fail ("cached plan must not
 * change result type").
 */

/** Runs of one text after which it is named (pgjdbc's prepareThreshold default). */
export const REPEATS_BEFORE_NAMING = 5;
/** Named texts per process: each connection's backend keeps a plan for each it ran. */
export const MAX_NAMED = 256;
/** Distinct texts counted before the counts start over (texts that never repeat enough). */
const MAX_COUNTED = 10_000;

const READ = /^\s*(select|with)\b/i;

/** The statement texts a process names, shared by its pools (names must mean one text per connection). */
export class StatementNames {
  readonly #names = new Map<string, string>();
  #counts = new Map<string, number>();

  /** The name to send this text under, or undefined: unnamed (not a read, not repeated enough, or the set is full). */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= MAX_NAMED || !READ.test(text)) return name;
    const seen = (this.#counts.get(text) ?? 0) + 1;
    if (seen < REPEATS_BEFORE_NAMING) {
      if (this.#counts.size >= MAX_COUNTED) this.#counts = new Map();
      this.#counts.set(text, seen);
      return undefined;
    }
    this.#counts.delete(text);
    const named = `quire_${this.#names.size}`;
    this.#names.set(text, named);
    return named;
  }

  get size(): number {
    return this.#names.size;
  }
}

type QueryFunction = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Makes the pool's clients send repeated reads as named statements. Kysely's driver calls
 * `client.query(text, values)`; that call becomes `client.query({ name, text, values })`,
 * which pg parses on a connection only the first time (Query.hasBeenParsed).
 */
export function nameRepeatedStatements(pool: pg.Pool, names = new StatementNames()): StatementNames {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFunction;
    (client as unknown as { query: QueryFunction }).query = (config, values, callback) => {
      if (typeof config === 'string' && Array.isArray(values)) {
        const name = names.nameOf(config);
        if (name !== undefined) return query({ name, text: config, values }, callback);
      }
      return query(config, values, callback);
    };
  });
  return names;
}
