/*
 * The editor in Chromium (issue 32, item 4's figures): how long after navigation a 3 KB page's
 * editor is ready (live editing connected and in step), how long a keystroke takes to paint on
 * a 1,000-block page, and how long a member's edit takes to show in another member's editor,
 * on the same server process and on a second one on the same database (through polling).
 * All three are timed in the pages themselves: the editor's data-ready attribute against the
 * navigation's start; a keydown's timestamp to the frame after it (requestAnimationFrame,
 * then a task: the paint has happened); the writer's input event to the moment the text is
 * in the reader's editor DOM and a frame has passed, on the shared wall clock
 * (performance.timeOrigin + now).
 * Run: node --import tsx bench/editor-latency.ts [keystrokes] [remoteRounds]; DATABASE_URL=... for PostgreSQL.
 */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../src/app.ts';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { startSession } from '../src/modules/sessions/sessions.service.ts';
import { createTestApp } from '../test/app.ts';
import { createMember, createOrganization, type TestUser } from '../test/factories.ts';
import { launchChromium } from '../test/browser/chromium.ts';
import { cursorAtEndOf } from '../test/browser/fixtures.ts';

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const summary = (samples: number[]) => ({ n: samples.length, medianMs: +quantile(samples, 0.5).toFixed(1), p95Ms: +quantile(samples, 0.95).toFixed(1), maxMs: +Math.max(...samples).toFixed(1) });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** About 3 KB of markdown: headings, paragraphs and a list. */
function threeKilobytePage(): string {
  const parts: string[] = [];
  for (let i = 1; parts.join('\n\n').length < 3_000; i++) {
    parts.push(`## Section ${i}`, `This is paragraph ${i} of the handbook, with **bold**, *emphasis* and a [link](https://example.com/${i}) in it.`, `- First point of ${i}\n- Second point of ${i}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** In every page: when the editor became ready, keystroke-to-paint times, the last input's wall time. */
const INSTRUMENT = () => {
  const w = window as unknown as { benchReadyAt?: number; benchPaints: number[]; benchLastInput?: number };
  w.benchPaints = [];
  new MutationObserver((_, observer) => {
    if (document.querySelector('#quire-editor[data-ready="true"]')) {
      w.benchReadyAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'], childList: true });
  document.addEventListener(
    'keydown',
    (event) => {
      const start = event.timeStamp;
      requestAnimationFrame(() => setTimeout(() => w.benchPaints.push(performance.now() - start), 0));
    },
    true,
  );
  document.addEventListener('beforeinput', (event) => (w.benchLastInput = performance.timeOrigin + event.timeStamp), true);
};

async function main() {
  const keystrokes = Number(process.argv[2] ?? 120);
  const remoteRounds = Number(process.argv[3] ?? 40);
  const readyRuns = 15;
  const t = await createTestApp({ publicUrl: 'http://127.0.0.1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.config.publicUrl = url;
  const secondConfig = { ...t.config };
  const second = await buildApp({ config: secondConfig, db: t.db, dialect: t.dialect, clock: t.clock, logger: false });
  await second.listen({ port: 0, host: '127.0.0.1' });
  const secondUrl = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}`;
  secondConfig.publicUrl = secondUrl;

  const org = await createOrganization(t, { title: 'Bench' });
  const [ana, ben] = [await createMember(t, org.id, 'edit', { displayName: 'Ana' }), await createMember(t, org.id, 'edit', { displayName: 'Ben' })];
  const spaceId = (await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Space' } })).body.id;
  let smallId = '';
  let largeId = '';
  const small = threeKilobytePage();
  const large = Array.from({ length: 1_000 }, (_, i) => `Block ${i + 1} of a long page, a sentence of ordinary length.`).join('\n\n') + '\n';
  await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
    smallId = e.insertPage({ title: 'Small', markdown: small });
    largeId = e.insertPage({ title: 'Large', markdown: large });
  });
  const cr = (await t.request('POST', `/v1/spaces/${spaceId}/change-requests`, { token: ana.token, body: { subject: 'Bench' } })).body;
  const editPath = (pageId: string) => `/app/s/${spaceId}/change-requests/${cr.number}/pages/${pageId}/edit`;

  const browser: Browser = await launchChromium();
  const open = async (user: TestUser, pageId: string, at = url): Promise<Page> => {
    const session = await startSession(t.db, t.clock, t.config.sessionTtlMs, { userId: user.id, method: 'link', organizationId: null });
    const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    await context.addCookies([{ name: 'quire_session', value: session, url: at }]);
    // tsx names the functions it compiles through esbuild's __name helper, which pages lack.
    await context.addInitScript('globalThis.__name = (f) => f;');
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    await page.goto(`${at}${editPath(pageId)}`);
    await page.waitForSelector('#quire-editor[data-ready="true"]', { timeout: 60_000 });
    return page;
  };
  /** Puts the cursor at the end of block `index` (0-based). */
  const placeCursor = cursorAtEndOf;

  // 1. Editor ready after navigation, 3 KB page (a fresh browser context each time: no cache).
  // Where the time goes: the HTML, the editor's script, its API reads (resource timing, ms
  // since navigation); the rest up to ready is the live editing connection and the first sync.
  const ready: number[] = [];
  const phases: Record<string, number[]> = { html: [], domContentLoaded: [], script: [], apiReads: [] };
  for (let i = 0; i < readyRuns + 1; i++) {
    const page = await open(ana, smallId);
    const at = await page.evaluate(() => (window as unknown as { benchReadyAt: number }).benchReadyAt);
    const timing = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const end = (match: (entry: PerformanceResourceTiming) => boolean) => Math.max(0, ...resources.filter(match).map((entry) => entry.responseEnd));
      return {
        html: navigation.responseEnd,
        domContentLoaded: navigation.domContentLoadedEventEnd,
        // The editor's script and the shared chunks it preloads (src/editor/assets.ts).
        script: end((entry) => entry.initiatorType === 'script' || (entry.initiatorType === 'link' && entry.name.endsWith('.js'))),
        apiReads: end((entry) => entry.initiatorType === 'fetch'),
      };
    });
    if (i > 0) {
      // The first run also loads the server's live editing code once.
      ready.push(at);
      for (const [phase, value] of Object.entries(timing)) phases[phase]!.push(value);
    }
    await page.context().close();
    await sleep(200);
  }

  // 2. Keystroke to paint on a 1,000-block page.
  const typing = await open(ana, largeId);
  await placeCursor(typing, 499);
  for (let i = 0; i < keystrokes; i++) {
    await typing.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await typing.waitForFunction((n) => (window as unknown as { benchPaints: number[] }).benchPaints.length >= n, i + 1);
    await sleep(30 + Math.random() * 70);
  }
  const paints = await typing.evaluate(() => (window as unknown as { benchPaints: number[] }).benchPaints);
  await typing.context().close();

  // 3. A remote edit visible in another member's editor, on this process and on another one.
  const remote = async (readerAt: string) => {
    const writer = await open(ana, smallId);
    const reader = await open(ben, smallId, readerAt);
    await placeCursor(writer, 1);
    const samples: number[] = [];
    for (let i = 0; i < remoteRounds; i++) {
      const mark = ` r${i}q${Math.floor(Math.random() * 1e6)}`;
      const seen = reader.evaluate(
        (text) =>
          new Promise<number>((resolve) => {
            const editor = document.querySelector('.ProseMirror')!;
            const check = () => {
              if (!editor.textContent!.includes(text)) return false;
              observer.disconnect();
              requestAnimationFrame(() => setTimeout(() => resolve(performance.timeOrigin + performance.now()), 0));
              return true;
            };
            const observer = new MutationObserver(check);
            observer.observe(editor, { subtree: true, childList: true, characterData: true });
            check();
          }),
        mark.trim(),
      );
      await sleep(20);
      await writer.keyboard.insertText(mark);
      const shownAt = await seen;
      const typedAt = await writer.evaluate(() => (window as unknown as { benchLastInput: number }).benchLastInput);
      samples.push(shownAt - typedAt);
      await sleep(50 + Math.random() * 200);
    }
    await writer.context().close();
    await reader.context().close();
    return summary(samples);
  };
  const sameProcess = await remote(url);
  const otherProcess = await remote(secondUrl);

  const result = {
    database: t.dialect,
    loadavg: (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim(),
    editorReady3KB: { bytes: small.length, ...summary(ready), medianPhasesMs: Object.fromEntries(Object.entries(phases).map(([phase, values]) => [phase, +quantile(values, 0.5).toFixed(1)])) },
    keystrokeToPaint1000Blocks: summary(paints),
    remoteEdit: { sameProcess, otherProcess },
  };
  console.log(JSON.stringify(result, null, 2));
  await browser.close();
  await second.close();
  await t.close();
}

await main();
