import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../app.ts';
import { createOrganization, type TestOrganization } from '../factories.ts';
import { seededRandom } from '../seeded-random.ts';

/*
 * The adversarial tenant suite: what one organization's admin can do to everyone else.
 * Issue 30 item 5: a 9 MB conversation ingest held the event loop for 5-41 s (JSON, the
 * analysis of its text), so every tenant's requests waited. Ingest has a size budget, and
 * what it accepts is processed without holding the loop. SQLite and PostgreSQL.
 */

/** Words of support prose, plus made-up ones so the vocabulary is large (the analysis's worst case). */
function prose(bytes: number, seed: number): string {
  const random = seededRandom(seed);
  const common = 'the login page shows an error when we try to export the site to pdf after the upgrade and the search results are empty for our team'.split(' ');
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  while (out.length < bytes) {
    if (random() < 0.5) out += common[Math.floor(random() * common.length)];
    else for (let i = 3 + Math.floor(random() * 8); i > 0; i--) out += letters[Math.floor(random() * 26)];
    out += random() < 0.08 ? '. ' : ' ';
  }
  return out.slice(0, bytes);
}

/** A conversation whose JSON is about `bytes` long, in messages of at most `messageBytes`. */
function conversationOf(id: string, bytes: number, messageBytes: number, maxMessages: number) {
  const count = Math.min(maxMessages, Math.max(1, Math.ceil((bytes - 1_000) / (messageBytes + 40))));
  const size = Math.min(messageBytes, Math.floor((bytes - 1_000) / count) - 40);
  const parts = Array.from({ length: count }, (_, i) => ({ type: 'message', role: i % 2 ? 'assistant' : 'user', body: prose(size, i + 1) }));
  return { id, subject: 'Everything is broken', parts };
}

/**
 * The longest the event loop was held while `work` ran. A 5 ms interval timer notes, at each
 * tick, the CPU time this process used since the previous tick: what a /healthz request
 * arriving then would have waited for this process's own work. CPU time rather than wall
 * time, because on a loaded machine (2 cores shared by several test runs) the process is also
 * descheduled for tens of milliseconds, whatever it runs; the wall-clock gap is reported too.
 */
async function maxLoopDelay(work: () => Promise<void>): Promise<{ cpuMs: number; wallMs: number }> {
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  let cpuMs = 0;
  let wallMs = 0;
  const tick = () => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    cpuMs = Math.max(cpuMs, (cpu.user + cpu.system) / 1000);
    wallMs = Math.max(wallMs, wall - lastWall - 5);
    lastWall = wall;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(tick, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  tick();
  return { cpuMs, wallMs };
}

describe('conversation ingest: size budget and the event loop (issue 30 item 5)', () => {
  let t: TestApp;
  let org: TestOrganization;
  const ingest = (payload: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/orgs/${org.id}/conversations`,
      headers: { authorization: `Bearer ${org.admin.token}`, 'content-type': 'application/json' },
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a conversation at the cap is ingested and processed without holding the event loop 100 ms', async () => {
    const config = t.config as any;
    // The largest request accepted (before the budget existed: a 9.5 MB one, under BODY_LIMIT_BYTES).
    const cap: number = config.conversationsIngestMaxBytes ?? 9_500_000;
    const payload = JSON.stringify(conversationOf('big', cap, config.conversationsMaxMessageBytes ?? 100_000, config.conversationsMaxMessages ?? 500));
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(cap);
    expect(Buffer.byteLength(payload)).toBeGreaterThan(cap * 0.9);

    // First use compiles the route's validator and loads the analysis: once per process, not per payload.
    expect((await ingest(JSON.stringify({ id: 'warm-up', parts: [{ type: 'message', role: 'user', body: 'How do I reset my password?' }] }))).statusCode).toBe(204);
    await t.runJobsUntilIdle();

    const started = performance.now();
    const held = await maxLoopDelay(async () => {
      const res = await ingest(payload);
      expect(res.statusCode).toBe(204);
      await t.runJobsUntilIdle();
    });
    console.log(
      `ingest of ${(Buffer.byteLength(payload) / 1e6).toFixed(2)} MB + processing: ${(performance.now() - started).toFixed(0)} ms; ` +
        `event loop held at most ${held.cpuMs.toFixed(1)} ms of CPU (${held.wallMs.toFixed(1)} ms wall-clock gap)`,
    );

    const issues = await t.request('GET', `/v1/orgs/${org.id}/conversations-issues?conversation=big`, { token: org.admin.token });
    expect(issues.status).toBe(200);
    expect(issues.body.items).toHaveLength(1);
    expect(issues.body.items[0].issue.title).toBe('Everything is broken');
    expect(held.cpuMs).toBeLessThan(100);
  }, 300_000);

  it('a request over the budget is a 413 with the GitBook error body, and nothing is stored', async () => {
    const config = t.config as any;
    const cap: number = config.conversationsIngestMaxBytes ?? 9_500_000;
    const messageBytes: number = config.conversationsMaxMessageBytes ?? 100_000;
    const tooLarge = JSON.stringify(conversationOf('too-large', cap + 50_000, Math.min(messageBytes, 20_000), 500));
    expect(Buffer.byteLength(tooLarge)).toBeGreaterThan(cap);
    const res = await ingest(tooLarge);
    expect(res.statusCode).toBe(413);
    expect(Object.keys(res.json())).toEqual(['error']);
    expect(res.json().error.code).toBe(413);

    const stored = await t.request('GET', `/v1/orgs/${org.id}/conversations/too-large`, { token: org.admin.token });
    expect(stored.status).toBe(404);
  });
});

describe('conversation ingest: configured budgets per message and per conversation', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await createTestApp({ conversationsMaxMessageBytes: 1_000, conversationsMaxMessages: 3 } as any);
    org = await createOrganization(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a message over its byte budget, or too many messages, is a 413 naming the field; nothing stored', async () => {
    const post = (body: unknown) => t.request('POST', `/v1/orgs/${org.id}/conversations`, { token: org.admin.token, body });
    // 600 characters, 1,200 bytes of UTF-8: bytes are counted, not characters.
    const wide = post({ id: 'wide', parts: [{ type: 'message', role: 'user', body: 'é'.repeat(600) }] });
    const many = post({ id: 'many', parts: Array.from({ length: 4 }, () => ({ type: 'message', role: 'user', body: 'How do I reset my password?' })) });
    for (const [res, field] of [
      [await wide, 'body/parts/0/body'],
      [await many, 'body/parts'],
    ] as const) {
      expect(res.status).toBe(413);
      expect(Object.keys(res.body)).toEqual(['error']);
      expect(res.body.error.code).toBe(413);
      expect(res.body.error.message).toContain(field);
    }
    const listed = await t.request('GET', `/v1/orgs/${org.id}/conversations`, { token: org.admin.token });
    expect(listed.body.items).toEqual([]);
    // Within the budget: accepted.
    const ok = await post({ id: 'ok', parts: [{ type: 'message', role: 'user', body: 'é'.repeat(500) }] });
    expect(ok.status).toBe(204);
  });
});
