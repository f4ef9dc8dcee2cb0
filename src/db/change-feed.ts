import type pg from 'pg';
import type SQLite from 'better-sqlite3';
import { postgresDriver } from './postgres-driver.ts';

/**
 * Versions of the cache scopes of one database handle (change-scopes.ts), moved by the
 * database's own triggers whoever writes: cached reads record the versions of what they
 * depend on and are reused while those stay the same (read-cache.ts).
 *
 * `epoch()` is the feed's generation: undefined while caching is unsafe (triggers not yet
 * installed, a SQLite transaction open on the connection, PostgreSQL's listener down), and
 * it moves when changes may have been missed, which drops every cached result at once.
 */
export abstract class ChangeFeed {
  readonly #versions = new Map<string, number>();
  protected installed = false;
  /** Scope changes received (GET /metrics). */
  changes = 0;

  version(scope: string): number {
    return this.#versions.get(scope) ?? 0;
  }

  changed(scope: string): void {
    this.changes++;
    this.#versions.set(scope, (this.#versions.get(scope) ?? 0) + 1);
  }

  /** The triggers are in place: from now on every write moves the scopes it changes. */
  markInstalled(): void {
    this.installed = true;
  }

  abstract epoch(): number | undefined;

  abstract close(): Promise<void>;
}

/**
 * How long SQLite's data_version is trusted. Reading it costs as much as a small query, so
 * it is read at most this often: commits by another process (the CLI, a second server on
 * the same file) are seen within this time; this process's own writes at once (its TEMP
 * triggers call `changed` as rows are written).
 */
const DATA_VERSION_RECHECK_MS = 100;

/**
 * SQLite: this connection's writes arrive through `quire_changed`, called by TEMP triggers
 * inside the write; another process's commits cannot be told apart, so they move the epoch
 * (data_version changes only for commits of other connections).
 */
export class SqliteChangeFeed extends ChangeFeed {
  readonly #sqlite: SQLite.Database;
  readonly #dataVersion: SQLite.Statement;
  #seenVersion = 0;
  #seenAt = 0;

  constructor(sqlite: SQLite.Database) {
    super();
    this.#sqlite = sqlite;
    this.#dataVersion = sqlite.prepare('pragma data_version').pluck();
    sqlite.function('quire_changed', { varargs: true, deterministic: false, directOnly: true }, (...scopes: unknown[]) => {
      for (const scope of scopes) if (typeof scope === 'string') this.changed(scope);
      return null;
    });
  }

  epoch(): number | undefined {
    // Inside a transaction (of any request: one connection) a read could see uncommitted rows.
    if (!this.installed || this.#sqlite.inTransaction) return undefined;
    const now = Date.now();
    if (now - this.#seenAt >= DATA_VERSION_RECHECK_MS) {
      this.#seenVersion = this.#dataVersion.get() as number;
      this.#seenAt = now;
    }
    return this.#seenVersion;
  }

  async close(): Promise<void> {}
}

const RECONNECT_MS = 1_000;
const BARRIER_TIMEOUT_MS = 5_000;

/**
 * PostgreSQL: one connection LISTENs on the schema's channel; the triggers' notifications
 * (sent on commit) move the scopes. This process's own writes wait, before they return, for
 * a marker notified after their commit (`barrier`): notifications arrive in commit order, so
 * once the marker is back the write's own changes have been applied, and a client reading
 * after its write never gets the cached result from before it. While the listener is down
 * nothing is cached; on reconnecting the epoch moves, since notifications may have been lost.
 */
export class PostgresChangeFeed extends ChangeFeed {
  /** `quire:<schema>`, the schema being the listener's current_schema() (as the triggers'). */
  #channel = '';
  #epoch = 0;
  #client: pg.Client | undefined;
  #live = false;
  #closed = false;
  #nextMarker = 0;
  readonly #waiting = new Map<string, () => void>();
  #retry: NodeJS.Timeout | undefined;

  constructor(private readonly config: pg.ClientConfig) {
    super();
    void this.#connect();
  }

  epoch(): number | undefined {
    return this.installed && this.#live ? this.#epoch : undefined;
  }

  /** Whether the listener is connected (readiness, metrics, tests). */
  get live(): boolean {
    return this.#live;
  }

  /** Waits until this process's listener has received everything committed before now. */
  async barrier(notify: (channel: string, marker: string) => Promise<unknown>): Promise<void> {
    const client = this.#client;
    if (!this.#live || !client) return;
    const marker = `~${process.pid}.${this.#nextMarker++}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<void>((resolve) => {
      this.#waiting.set(marker, resolve);
      // A marker that never comes back means the listener is not hearing the triggers:
      // treat it as lost (nothing cached until it is back) rather than hold the write.
      timer = setTimeout(() => client.emit('error', new Error('change feed marker not received')), BARRIER_TIMEOUT_MS);
    });
    try {
      await notify(this.#channel, marker);
      await arrived;
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(marker);
    }
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new (postgresDriver().Client)(this.config);
    client.on('notification', (message) => {
      if (message.channel !== this.#channel) return;
      const payload = message.payload ?? '';
      if (payload.startsWith('~')) {
        this.#waiting.get(payload)?.();
        this.#waiting.delete(payload);
        return;
      }
      for (const scope of payload.split(' ')) if (scope) this.changed(scope);
    });
    const lost = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#live = false;
      // Writers waiting for their marker go on: nothing is cached until the listener is back.
      for (const resolve of this.#waiting.values()) resolve();
      this.#waiting.clear();
      client.end().catch(() => {});
      if (!this.#closed) this.#retry = setTimeout(() => void this.#connect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    this.#client = client;
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string }>('select current_schema() as schema');
      this.#channel = `quire:${rows[0].schema}`;
      await client.query(`listen "${this.#channel.replaceAll('"', '""')}"`);
      if (this.#client !== client) return;
      // Changes committed while no one listened are unknown: start a new generation.
      this.#epoch++;
      this.#live = true;
    } catch {
      lost();
    }
  }

  /** Drops the listener connection as a network failure would (tests). */
  disconnectForTest(): void {
    this.#client?.emit('error', new Error('disconnected by test'));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    this.#live = false;
    for (const resolve of this.#waiting.values()) resolve();
    this.#waiting.clear();
    await client?.end().catch(() => {});
  }
}
