import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { PostgresChangeFeed } from '../src/db/change-feed.ts';
import { changeFeedOf, onlyReads, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { createTestApp, type TestApp } from './app.ts';
import { createMember, createOrganization, type TestOrganization } from './factories.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';

/*
 * Cached reads and the change feed (docs/architecture.md, "Caches"): a write evicts what
 * depends on what it changed and nothing else, on both databases; another process (another
 * database handle: caches and feeds are per handle) learns of a write by notification on
 * PostgreSQL, through data_version on SQLite; with PostgreSQL's listener down nothing is cached.
 */

const waitFor = async (what: string, check: () => boolean | Promise<boolean>, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('change feed and cached reads', () => {
  let t: TestApp;
  let org: TestOrganization;
  let spaceA: string;
  let spaceB: string;
  let pageA: string;
  let pageB: string;

  const listings = () => t.app.deps.caches.listings;
  const page = (spaceId: string, pageId: string) => t.request('GET', `/v1/spaces/${spaceId}/content/page/${pageId}`, { token: org.admin.token });

  beforeAll(async () => {
    t = await createTestApp();
    await waitFor('the change feed', () => changeFeedOf(t.db)?.epoch() !== undefined);
    org = await createOrganization(t, { title: 'Acme' });
    const made: string[] = [];
    for (const title of ['A', 'B']) {
      const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title } });
      expect(space.status).toBe(201);
      made.push(space.body.id);
    }
    [spaceA, spaceB] = made;
    await editSpaceContent(t.app.deps, spaceA, org.admin.id, (e) => {
      pageA = e.insertPage({ title: 'Alpha', markdown: 'Alpha text.' });
    });
    await editSpaceContent(t.app.deps, spaceB, org.admin.id, (e) => {
      pageB = e.insertPage({ title: 'Beta', markdown: 'Beta text.' });
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('takes raw statements that only read for reads (no read-your-writes wait after them) and anything else for a write', () => {
    const db = t.db;
    expect(onlyReads(db.selectFrom('spaces').select('id').compile())).toBe(true);
    expect(onlyReads(sql`select count(*) as n from spaces where id = ${'x'}`.compile(db))).toBe(true);
    expect(onlyReads(sql`  with x as (select id from spaces) select * from x`.compile(db))).toBe(true);
    expect(onlyReads(sql`with x as (delete from spaces where id = ${'x'} returning id) select * from x`.compile(db))).toBe(false);
    expect(onlyReads(sql`select pg_notify(${'a'}, ${'b'})`.compile(db))).toBe(false);
    expect(onlyReads(sql`update spaces set title = ${'x'}`.compile(db))).toBe(false);
    expect(onlyReads(sql`analyze spaces`.compile(db))).toBe(false);
    expect(onlyReads(db.updateTable('spaces').set({ title: 'x' }).where('id', '=', 'x').compile())).toBe(false);
    expect(onlyReads(db.insertInto('users').values({ id: 'x' } as never).compile())).toBe(false);
  });

  it('a comment on one space does not evict the cached pages of another, and is seen where it counts', async () => {
    expect((await page(spaceB, pageB)).status).toBe(200);
    const countsBefore = await t.request('GET', `/v1/spaces/${spaceA}`, { token: org.admin.token });
    expect(countsBefore.body.comments).toBe(0);

    const hits = listings().hits;
    expect((await page(spaceB, pageB)).status).toBe(200);
    expect(listings().hits).toBe(hits + 1);

    const comment = await t.request('POST', `/v1/spaces/${spaceA}/comments`, {
      token: org.admin.token,
      body: { body: { markdown: 'Looks good.' }, page: pageA },
    });
    expect(comment.status, comment.text).toBe(200);

    // Space B's page is still answered from the cache...
    const hitsAfterComment = listings().hits;
    const missesAfterComment = listings().misses;
    expect((await page(spaceB, pageB)).body.title).toBe('Beta');
    expect(listings().hits).toBe(hitsAfterComment + 1);
    expect(listings().misses).toBe(missesAfterComment);

    // ...while what the comment changed is read again: space A's comment list and count.
    const comments = await t.request('GET', `/v1/spaces/${spaceA}/comments`, { token: org.admin.token });
    expect(comments.body.items.map((c: any) => c.id)).toEqual([comment.body.id]);
    const spaceAfter = await t.request('GET', `/v1/spaces/${spaceA}`, { token: org.admin.token });
    expect(spaceAfter.body.comments).toBe(1);
  });

  it('an edit of one space evicts its pages, not the other space’s', async () => {
    expect((await page(spaceA, pageA)).body.title).toBe('Alpha');
    expect((await page(spaceB, pageB)).body.title).toBe('Beta');
    const renamed = await t.request('PATCH', `/v1/spaces/${spaceA}`, { token: org.admin.token, body: { title: 'A renamed' } });
    expect(renamed.status).toBe(200);
    await editSpaceContent(t.app.deps, spaceA, org.admin.id, (e) => e.updatePage(pageA, { title: 'Alpha 2' }));

    expect((await page(spaceA, pageA)).body.title).toBe('Alpha 2');
    expect((await t.request('GET', `/v1/spaces/${spaceA}`, { token: org.admin.token })).body.title).toBe('A renamed');
    const hits = listings().hits;
    expect((await page(spaceB, pageB)).body.title).toBe('Beta');
    expect(listings().hits).toBe(hits + 1);
  });

  it('removing a member evicts the pages they could read', async () => {
    const rita = await createMember(t, org.id, 'read');
    const read = () => t.request('GET', `/v1/spaces/${spaceB}/content/page/${pageB}`, { token: rita.token });
    expect((await read()).status).toBe(200);
    const hits = listings().hits;
    expect((await read()).status).toBe(200);
    expect(listings().hits).toBe(hits + 1);
    const removed = await t.request('DELETE', `/v1/orgs/${org.id}/members/${rita.id}`, { token: org.admin.token });
    expect(removed.status).toBe(204);
    expect((await read()).status).toBe(404);
  });

  it('a ping moves the member list but not the cached pages or access', async () => {
    const members = () => t.request('GET', `/v1/orgs/${org.id}/members`, { token: org.admin.token });
    const adminRow = () => members().then((r) => r.body.items.find((m: any) => m.user.id === org.admin.id));
    const before = await adminRow();
    expect((await page(spaceB, pageB)).status).toBe(200);
    t.clock.advance(60_000);
    const ping = await t.request('POST', `/v1/orgs/${org.id}/ping`, { token: org.admin.token });
    expect(ping.status).toBe(200);
    const hits = listings().hits;
    expect((await page(spaceB, pageB)).status).toBe(200);
    expect(listings().hits).toBe(hits + 1);
    const after = await adminRow();
    expect(after.lastSeenAt).toBeDefined();
    expect(after.lastSeenAt).not.toBe(before.lastSeenAt);
  });

  describe('another process', () => {
    let other: DatabaseHandle;
    let otherApp: Awaited<ReturnType<typeof buildApp>>;

    beforeAll(async () => {
      // Same database, its own handle, feed, caches and app: what a second server process has.
      const pgSchema = t.dialect === 'postgres' ? ((await t.db.selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s')).executeTakeFirstOrThrow()).s) : undefined;
      other = openDatabase({ databaseUrl: t.config.databaseUrl, dataDir: t.dataDir, pgSchema });
      await migrateToLatest(other.db);
      await waitFor('the other feed', () => changeFeedOf(other.db)?.epoch() !== undefined);
      otherApp = await buildApp({ config: t.config, db: other.db, dialect: other.dialect, clock: new ManualClock(), logger: false });
    });

    afterAll(async () => {
      await otherApp?.close();
      await other?.close();
    });

    const readThere = async (spaceId: string) => {
      const response = await otherApp.inject({ method: 'GET', url: `/v1/spaces/${spaceId}`, headers: { authorization: `Bearer ${org.admin.token}` } });
      expect(response.statusCode).toBe(200);
      return JSON.parse(response.body);
    };

    it('sees a change made through this one at its next read after the notification', async () => {
      const before = await readThere(spaceB);
      const hits = otherApp.deps.caches.listings.hits;
      expect((await readThere(spaceB)).title).toBe(before.title);
      expect(otherApp.deps.caches.listings.hits).toBe(hits + 1);

      const feed = changeFeedOf(other.db)!;
      const received = feed.changes;
      const renamed = await t.request('PATCH', `/v1/spaces/${spaceB}`, { token: org.admin.token, body: { title: 'B from elsewhere' } });
      expect(renamed.status).toBe(200);
      // PostgreSQL: a notification; SQLite: data_version, read at most every 100 ms.
      if (t.dialect === 'postgres') await waitFor('the notification', () => feed.changes > received);
      else await new Promise((resolve) => setTimeout(resolve, 150));
      expect((await readThere(spaceB)).title).toBe('B from elsewhere');
    });

    it.runIf(process.env.DATABASE_URL)('caches nothing while the listener is down, and starts a new generation when it is back', async () => {
      const feed = changeFeedOf(other.db) as PostgresChangeFeed;
      await readThere(spaceA);
      const epoch = feed.epoch();
      feed.disconnectForTest();
      expect(feed.epoch()).toBeUndefined();
      const hits = otherApp.deps.caches.listings.hits;
      await readThere(spaceA);
      await readThere(spaceA);
      expect(otherApp.deps.caches.listings.hits).toBe(hits);
      await waitFor('the listener to reconnect', () => feed.epoch() !== undefined);
      expect(feed.epoch()).toBe((epoch as number) + 1);
      const renamed = await t.request('PATCH', `/v1/spaces/${spaceA}`, { token: org.admin.token, body: { title: 'A after reconnect' } });
      expect(renamed.status).toBe(200);
      await waitFor('the title', async () => (await readThere(spaceA)).title === 'A after reconnect');
    });
  });

  it.runIf(!process.env.DATABASE_URL)('SQLite: the triggers are temporary, so the file can be written without Quire', async () => {
    const file = path.join(t.dataDir, 'quire.sqlite');
    expect(fs.existsSync(file)).toBe(true);
    const { default: SQLite } = await import('better-sqlite3');
    const plain = new SQLite(file);
    try {
      expect(plain.prepare(`select count(*) from sqlite_master where type = 'trigger' and name like 'quire_changes%'`).pluck().get()).toBe(0);
      plain.prepare('update spaces set title = ? where id = ?').run('Written by hand', spaceA);
    } finally {
      plain.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await t.request('GET', `/v1/spaces/${spaceA}`, { token: org.admin.token })).body.title).toBe('Written by hand');
  });
});
