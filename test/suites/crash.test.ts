import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { freshEnvironment, startServer, type Environment, type RunningServer } from '../process.ts';
import { seededRandom } from '../seeded-random.ts';

/*
 * Crash safety (issue 13): concurrent clients write (spaces, change-request edits with files
 * and merges, comments) to a real server process, which is killed with SIGKILL at random
 * moments and started again. After each restart every acknowledged write (a 2xx received)
 * must be there, and on SQLite `PRAGMA integrity_check` must say ok.
 *
 * 10 kills by default (the short form `npm test` runs on both databases),
 * `CRASH_KILLS=100 npm run test:crash` by hand; `CRASH_KILLS=0` skips it. It runs the
 * built server (`npm start`'s launcher builds dist/ once when stale): a restart then loads
 * one bundle in about a second, where tsx would transpile the app again at every kill.
 * After each restart the writes acknowledged since the previous check are read back, and
 * at the end all of them once more (a write lost by a later crash is caught too), so the
 * checks grow with the writes, not with kills × writes. Runs on PostgreSQL when
 * DATABASE_URL is set.
 */

const KILLS = Number(process.env.CRASH_KILLS ?? 10);
const SEED = Number(process.env.CRASH_SEED ?? 13);
/** Set to print one line per kill (timings, writes) while the suite runs. */
const VERBOSE = Boolean(process.env.CRASH_VERBOSE);


type Ack =
  | { kind: 'space'; id: string; title: string }
  | { kind: 'comment'; spaceId: string; id: string }
  | { kind: 'cr-edit'; spaceId: string; crId: string; title: string; file: string }
  | { kind: 'merge'; spaceId: string; crId: string; title: string };

describe.runIf(KILLS > 0)('crash: SIGKILL under write load', { timeout: Math.max(300_000, KILLS * 30_000) }, () => {
  let env: Environment | undefined;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await env?.cleanup();
  });

  it(`${KILLS} kills: every acknowledged write survives, the database stays sound`, async () => {
    const rand = seededRandom(SEED);
    env = await freshEnvironment();
    // One admin token drives every client: the per-token limit would answer 429 to a load
    // that is the point here.
    const serverEnv = { ...env.env, RATE_LIMIT_MAX: '1000000' };
    const start = () => startServer(serverEnv, { built: true });
    server = await start();
    const token = fs.readFileSync(path.join(env.dataDir, 'admin-token'), 'utf8').trim();
    let base = server.url;
    /** Answers to writes by route and status, and the 5xx among them. */
    const answers: Record<string, number> = {};
    const errors: string[] = [];
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(base + url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      if (method !== 'GET') {
        const key = `${method} ${url.replace(/\/[A-Za-z0-9]{20}(?=\/|$)/g, '/{id}')} ${res.status}`;
        answers[key] = (answers[key] ?? 0) + 1;
        if (res.status >= 500) errors.push(`${key}: ${text.slice(0, 300)}`);
      }
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    /** Every item of a list, following `next.page`: the change requests' files pile up with each merge. */
    const listAll = async (url: string) => {
      const items: any[] = [];
      let page: string | undefined;
      do {
        const res = await call('GET', `${url}?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        items.push(...(res.body?.items ?? []));
        page = res.body?.next?.page;
      } while (page);
      return items;
    };
    const orgId = (await call('GET', '/v1/orgs')).body.items[0].id as string;
    const home = (await call('POST', `/v1/orgs/${orgId}/spaces`, { title: 'Home' })).body.id as string;

    const acks: Ack[] = [];
    let serial = 0;
    const clients = {
      async spaces() {
        const title = `Space ${++serial}`;
        const res = await call('POST', `/v1/orgs/${orgId}/spaces`, { title });
        if (res.status === 201) acks.push({ kind: 'space', id: res.body.id, title });
        else if (res.status < 500) throw new Error(`space: ${res.status} ${JSON.stringify(res.body)}`);
      },
      async comments() {
        const res = await call('POST', `/v1/spaces/${home}/comments`, { body: { markdown: `Comment ${++serial}` } });
        if (res.status === 201 || res.status === 200) acks.push({ kind: 'comment', spaceId: home, id: res.body.id });
        else if (res.status < 500) throw new Error(`comment: ${res.status} ${JSON.stringify(res.body)}`);
      },
      async changeRequests() {
        const n = ++serial;
        const cr = await call('POST', `/v1/spaces/${home}/change-requests`, { subject: `Change ${n}` });
        if (cr.status !== 201) return;
        const title = `Page ${n}`;
        const file = `file-${n}.txt`;
        const edit = await call('POST', `/v1/spaces/${home}/change-requests/${cr.body.id}/content`, {
          changes: [
            { operation: 'insert_page', title, document: { markdown: `Body ${n}` } },
            { operation: 'insert_files', files: [{ name: file, contentType: 'text/plain', base64: Buffer.from(`bytes ${n}`).toString('base64') }] },
          ],
        });
        if (edit.status !== 200) return;
        acks.push({ kind: 'cr-edit', spaceId: home, crId: cr.body.id, title, file });
        const merge = await call('POST', `/v1/spaces/${home}/change-requests/${cr.body.id}/merge`);
        if (merge.status === 200) acks.push({ kind: 'merge', spaceId: home, crId: cr.body.id, title });
      },
    };

    /** Runs one client in a loop until the server dies; connection errors end it. */
    const loop = async (step: () => Promise<void>, alive: () => boolean) => {
      while (alive()) {
        try {
          await step();
        } catch (error) {
          if (!alive()) return;
          if ((error as Error).message?.match(/^(space|comment):/)) throw error;
          return;
        }
      }
    };

    /** The acknowledged writes of `all` that cannot be read back (none, when all is well). */
    const verify = async (all: Ack[]) => {
      const pagesOfHome = new Set<string>();
      const content = await call('GET', `/v1/spaces/${home}/content`);
      const walk = (pages: any[]) => pages?.forEach((p) => (pagesOfHome.add(p.title), walk(p.pages)));
      walk(content.body?.pages ?? []);
      const missing: string[] = [];
      const check = async (ack: Ack) => {
        if (ack.kind === 'space') {
          const res = await call('GET', `/v1/spaces/${ack.id}`);
          if (res.status !== 200 || res.body.title !== ack.title) missing.push(`space ${ack.id}: ${res.status}`);
        } else if (ack.kind === 'comment') {
          const res = await call('GET', `/v1/spaces/${ack.spaceId}/comments/${ack.id}`);
          if (res.status !== 200) missing.push(`comment ${ack.id}: ${res.status}`);
        } else if (ack.kind === 'cr-edit') {
          const pages = await call('GET', `/v1/spaces/${ack.spaceId}/change-requests/${ack.crId}/content`);
          const files = await listAll(`/v1/spaces/${ack.spaceId}/change-requests/${ack.crId}/content/files`);
          const titles = new Set<string>();
          const walkCr = (ps: any[]) => ps?.forEach((p) => (titles.add(p.title), walkCr(p.pages)));
          walkCr(pages.body?.pages ?? []);
          if (!titles.has(ack.title)) missing.push(`cr-edit page ${ack.crId} ${ack.title}`);
          if (!files.some((f: any) => f.name === ack.file)) missing.push(`cr-edit file ${ack.crId} ${ack.file}`);
        } else {
          const cr = await call('GET', `/v1/spaces/${ack.spaceId}/change-requests/${ack.crId}`);
          if (cr.body?.status !== 'merged' || !pagesOfHome.has(ack.title)) missing.push(`merge ${ack.crId}: ${cr.body?.status} ${pagesOfHome.has(ack.title)}`);
        }
      };
      // A few reads at a time: the checks stay short without flooding a server just started.
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < all.length) await check(all[next++]!);
        }),
      );
      return missing;
    };

    let checked = 0;
    for (let kill = 0; kill < KILLS; kill++) {
      const began = Date.now();
      let alive = true;
      const running = [clients.spaces, clients.spaces, clients.comments, clients.changeRequests, clients.changeRequests].map((c) => loop(c, () => alive));
      await new Promise((resolve) => setTimeout(resolve, 200 + Math.floor(rand() * 1500)));
      server.child.kill('SIGKILL');
      await server.exited;
      alive = false;
      await Promise.all(running);
      if (!process.env.DATABASE_URL) {
        const db = new SQLite(path.join(env.dataDir, 'quire.sqlite'));
        try {
          expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        } finally {
          db.close();
        }
      }
      const killed = Date.now();
      server = await start();
      base = server.url;
      const started = Date.now();
      // Every client has stopped (its last request broke with the kill): `acks` is complete up to here.
      const upTo = acks.length;
      expect(await verify(acks.slice(checked, upTo)), `after kill ${kill + 1}`).toEqual([]);
      checked = upTo;
      if (VERBOSE) {
        console.log(`kill ${kill + 1}: load ${killed - began} ms, restart ${started - killed} ms, check ${Date.now() - started} ms, ${acks.length} writes so far`);
      }
    }
    expect(await verify(acks), 'all writes, after the last restart').toEqual([]);
    const counts = acks.reduce<Record<string, number>>((c, a) => ((c[a.kind] = (c[a.kind] ?? 0) + 1), c), {});
    console.log(`crash (${process.env.DATABASE_URL ? 'postgres' : 'sqlite'}): ${KILLS} kills, ${acks.length} acknowledged writes checked, 0 lost; ${JSON.stringify(counts)}`);
    if (VERBOSE) console.log(JSON.stringify(answers, null, 1));
    // A kill ends requests with a broken connection, never with a 5xx: any is a server fault.
    expect(errors, 'writes answered 5xx').toEqual([]);
    expect(acks.length).toBeGreaterThan(KILLS);
  });
});
