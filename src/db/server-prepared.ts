import type pg from 'pg';
import { boundedMemo } from '../lib/memo.ts';

/*
 * PostgreSQL parses and plans every unnamed statement again each time it runs: for the
 * search statements that was half of the database's time per search (parse and bind
 * against execute, in the server's statement log). Statements that repeat are therefore
 * sent as named (server-side prepared) statements, as pgjdbc does past its
 * prepareThreshold: a connection parses one once, and after five runs PostgreSQL may keep
 * a generic plan for it (plan_cache_mode auto) instead of planning again.
 *
 * Only reads are named (textOnlyReads): a statement text seen REPEATS_BEFORE_NAMING times by the pool
 * (texts that differ only by their parameters' values are the same text; a list's length
 * changes the text), at most MAX_NAMED texts per pool, so a connection's backend holds
 * a bounded set of plans. Writes and DDL stay unnamed: they are rarer.
 *
 * A named read whose result's columns a migration changed since (`select *` of a table
 * given a column, say, by a newer process upgrading the database) fails once on each
 * connection: "cached plan must not change result type". Its text is then given a new
 * name, which each connection parses afresh, and the read is run again at once when it
 * was not inside a transaction (inside one, the transaction is already aborted: that one
 * fails, the next runs).
 */

/** Runs of one text after which it is named (pgjdbc's prepareThreshold default). */
export const REPEATS_BEFORE_NAMING = 5;
/** Named texts per pool: each connection's backend keeps a plan for each it ran. */
export const MAX_NAMED = 256;
/** Distinct texts counted before the counts start over (texts that never repeat enough). */
const MAX_COUNTED = 10_000;

/**
 * Whether a statement's text only reads, conservatively: a `select` or `with` naming no
 * statement or function that writes or notifies. Kept per text: the same few texts come
 * again and again (a search's is 3 KB to scan). Named statements and the change feed's
 * barrier (database.ts, onlyReads) both go by it.
 */
export const textOnlyReads = boundedMemo(
  (text: string) => /^\s*(select|with)\b/i.test(text) && !/\b(insert|update|delete|merge|truncate|pg_notify|nextval|setval|set_config|lock|copy|call|do)\b/i.test(text),
  1000,
);

/** The statement texts a pool names, shared by its connections (a name must mean one text on a connection). */
export class StatementNames {
  readonly #names = new Map<string, string>();
  #counts = new Map<string, number>();
  #issued = 0;

  /** The name to send this text under, or undefined: unnamed (not a read, not repeated enough, or the set is full). */
  nameOf(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= MAX_NAMED || !textOnlyReads(text)) return name;
    const seen = (this.#counts.get(text) ?? 0) + 1;
    if (seen < REPEATS_BEFORE_NAMING) {
      if (this.#counts.size >= MAX_COUNTED) this.#counts = new Map();
      this.#counts.set(text, seen);
      return undefined;
    }
    this.#counts.delete(text);
    return this.#name(text);
  }

  /** A new name for a text whose statement no longer fits the tables (the old one stays prepared where it was, unused). */
  renamed(text: string): string {
    return this.#name(text);
  }

  #name(text: string): string {
    const named = `quire_${this.#issued++}`;
    this.#names.set(text, named);
    return named;
  }

  get size(): number {
    return this.#names.size;
  }
}

type QueryFunction = (config: unknown, values?: unknown, callback?: unknown) => unknown;

/** PostgreSQL's refusal to run a prepared statement whose result columns changed under it. */
const isStalePlan = (error: unknown) =>
  (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message);

/**
 * Makes the pool's clients send repeated reads as named statements. Kysely's driver calls
 * `client.query(text, values)`; that call becomes `client.query({ name, text, values })`,
 * which pg parses on a connection only the first time (Query.hasBeenParsed).
 */
export function nameRepeatedStatements(pool: pg.Pool, names = new StatementNames()): StatementNames {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as QueryFunction;
    (client as unknown as { query: QueryFunction }).query = (config, values, callback) => {
      if (typeof config === 'string' && Array.isArray(values) && callback === undefined) {
        const name = names.nameOf(config);
        if (name !== undefined) {
          return (query({ name, text: config, values }) as Promise<unknown>).catch((error: unknown) => {
            if (!isStalePlan(error)) throw error;
            const renamed = names.renamed(config);
            // 'I': not inside a transaction, nothing was aborted.
            if (client.getTransactionStatus() !== 'I') throw error;
            return query({ name: renamed, text: config, values });
          });
        }
      }
      return query(config, values, callback);
    };
  });
  return names;
}
