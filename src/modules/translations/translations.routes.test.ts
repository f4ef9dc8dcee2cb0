import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { startProviderStandIn, type ProviderStandIn } from '../../../test/translation-providers.ts';
import { documentToMarkdown } from '../../content/markdown/index.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { providerSettings } from './translations.run.ts';

/*
 * Translations over HTTP (issue 18) with stand-ins for LibreTranslate, DeepL and an
 * OpenAI-compatible server on 127.0.0.1: runs, incremental runs, moves and removals,
 * stats, retries, failures, the glossary, and every endpoint's refusals. Runs on SQLite,
 * and on PostgreSQL when DATABASE_URL is set.
 */

const GUIDE = `Welcome to **Quire**, the _documentation_ server. Read the [install guide](https://example.com/install?ref=docs) first.

Run \`npm start\` to serve the page.

\`\`\`bash
npm install quire --save
\`\`\`

{% hint style="info" %}
A hint about the page, with $$a^2+b^2$$ math.
{% endhint %}
`;

describe('translations', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let creator: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let libre: ProviderStandIn;
  let deepl: ProviderStandIn;
  let openai: ProviderStandIn;
  let spaceId: string;
  let fileId: string;
  const pages: Record<string, string> = {};

  beforeAll(async () => {
    providerSettings.backoffMs = 5;
    providerSettings.attempts = 3;
    [libre, deepl, openai] = await Promise.all([startProviderStandIn('libretranslate'), startProviderStandIn('deepl'), startProviderStandIn('openai')]);
    t = await createTestApp({ translationProvider: 'libretranslate', translationApiUrl: libre.url, translationApiKey: 'libre-key', translationTimeoutMs: 5000 });
    ({ org, admin, creator, reader, guest, outsider } = await createRoleMatrix(t, { title: 'Acme', roles: ['create', 'read', 'guest'] }));
    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Handbook' } });
    spaceId = space.body.id;
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      pages.guide = e.insertPage({ title: 'Getting started', description: 'First steps', markdown: GUIDE });
      pages.install = e.insertPage({ title: 'Install', markdown: 'Download the package.\n' }, { parent: pages.guide });
      pages.usage = e.insertPage({ title: 'Usage', markdown: 'Call the command.\n' }, { parent: pages.guide });
      pages.faq = e.insertPage({ title: 'Questions', markdown: `See [the guide](${'#'}) for answers.\n` });
      pages.old = e.insertPage({ title: 'Old notes', markdown: 'Obsolete text.\n' });
      fileId = e.addFile({ name: 'notes.txt', contentType: 'text/plain', bytes: Buffer.from('file bytes') }).id;
      e.setVariables({ product: 'Quire' });
    });
    // A link to another page of the space (a page reference, kept as it is).
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      e.updatePage(pages.faq, {
        document: {
          object: 'document',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'paragraph',
              data: {},
              nodes: [
                { object: 'text', leaves: [{ object: 'leaf', text: 'See ', marks: [] }] },
                { object: 'inline', type: 'link', isVoid: false, data: { ref: { kind: 'page', page: pages.install } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'the install page', marks: [{ object: 'mark', type: 'italic' }] }] }] },
                { object: 'text', leaves: [{ object: 'leaf', text: ' for answers.', marks: [] }] },
              ],
            },
          ],
        } as any,
      });
    });
  }, 300_000);
  afterAll(async () => {
    await t?.runJobsUntilIdle();
    await t?.close();
    await Promise.all([libre?.close(), deepl?.close(), openai?.close()]);
  }, 300_000);

  const O = (orgId = org.id) => `/v1/orgs/${orgId}`;
  const useProvider = (name: 'libretranslate' | 'deepl' | 'openai' | undefined, url?: string) => {
    t.config.translationProvider = name;
    t.config.translationApiUrl = url;
    t.config.translationApiKey = name === 'deepl' ? 'deepl-key' : name === 'openai' ? 'sk-test' : 'libre-key';
  };
  const get = (id: string) => t.request('GET', `${O()}/translations/${id}`, { token: reader.token });
  async function create(body: Record<string, unknown>, token = creator.token) {
    return t.request('POST', `${O()}/translations`, { token, body });
  }
  async function run(id: string) {
    const res = await t.request('POST', `${O()}/translations/${id}/run`, { token: creator.token });
    expect(res.status).toBe(204);
    await t.runJobsUntilIdle();
    return (await get(id)).body;
  }
  async function resultPages(spaceOf: string) {
    const res = await t.request('GET', `/v1/spaces/${spaceOf}/content/pages`, { token: admin.token });
    expect(res.status).toBe(200);
    return res.body.pages as any[];
  }
  async function pageMarkdown(spaceOf: string, pageId: string) {
    const res = await t.request('GET', `/v1/spaces/${spaceOf}/content/page/${pageId}`, { token: admin.token });
    expect(res.status).toBe(200);
    return { page: res.body, markdown: res.body.document ? documentToMarkdown(res.body.document) : '' };
  }
  const sumStats = (runs: any[]) => ({ words: runs.reduce((s, r) => s + r.stats.latestWords, 0) });

  describe('runs with LibreTranslate', () => {
    let translation: any;
    const history: any[] = [];

    it('creates (201, pending), runs, and writes the result space with the same tree, translated text and untouched code, URLs and references', async () => {
      useProvider('libretranslate', libre.url);
      libre.reset();
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'fr' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        object: 'translation',
        status: 'pending',
        source: { space: spaceId, language: 'en' },
        language: 'fr',
        instructions: { object: 'document', nodes: [] },
        stats: { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 },
        permissions: { view: true, edit: true },
        urls: { location: `http://quire.test/v1/orgs/${org.id}/translations/${res.body.id}` },
      });
      expect(res.body.result).toBeUndefined();
      await t.runJobsUntilIdle();
      translation = (await get(res.body.id)).body;
      history.push(translation);
      expect(translation.status).toBe('completed');
      expect(translation.lastRun).toMatchObject({ state: 'completed' });
      expect(translation.result).toMatchObject({ language: 'fr' });
      expect(translation.stats).toMatchObject({ runs: 1, totalPages: 5, latestPages: 5 });
      expect(translation.stats.latestWords).toBeGreaterThan(20);
      expect(translation.stats.totalWords).toBe(translation.stats.latestWords);

      // What LibreTranslate was sent: its protocol, HTML segments, no code, no URL.
      expect(libre.requests.length).toBeGreaterThan(0);
      for (const r of libre.requests) {
        expect(r.path).toBe('/translate');
        expect(r.body).toMatchObject({ source: 'en', target: 'fr', format: 'html', api_key: 'libre-key' });
        expect(Array.isArray(r.body.q)).toBe(true);
      }
      const sent = libre.segments().join('\n');
      expect(sent).toContain('Getting started');
      expect(sent).toContain('<b>Quire</b>');
      expect(sent).not.toContain('npm install');
      expect(sent).not.toContain('npm start');
      expect(sent).not.toContain('example.com');
      expect(sent).not.toContain('a^2');

      const space = await t.request('GET', `/v1/spaces/${translation.result.space}`, { token: admin.token });
      expect(space.status).toBe(200);
      expect(space.body).toMatchObject({ language: 'fr', title: 'Handbook (French)' });
      const tree = await resultPages(translation.result.space);
      expect(tree.map((p) => [p.id, p.title])).toEqual([
        [pages.guide, 'GETTING STARTED'],
        [pages.faq, 'QUESTIONS'],
        [pages.old, 'OLD NOTES'],
      ]);
      expect(tree[0].pages.map((p: any) => [p.id, p.title])).toEqual([
        [pages.install, 'INSTALL'],
        [pages.usage, 'USAGE'],
      ]);
      expect(tree[0].description).toBe('FIRST STEPS');

      const guide = await pageMarkdown(translation.result.space, pages.guide);
      expect(guide.markdown).toContain('WELCOME TO **QUIRE**, THE _DOCUMENTATION_ SERVER. READ THE [INSTALL GUIDE](https://example.com/install?ref=docs) FIRST.');
      expect(guide.markdown).toContain('RUN `npm start` TO SERVE THE PAGE.');
      expect(guide.markdown).toContain('```bash\nnpm install quire --save\n```');
      expect(guide.markdown).toContain('$$a^2+b^2$$');
      const faq = await pageMarkdown(translation.result.space, pages.faq);
      const link = faq.page.document.nodes[0].nodes.find((n: any) => n.type === 'link');
      expect(link.data.ref).toEqual({ kind: 'page', page: pages.install });
      expect(link.nodes[0].leaves[0]).toMatchObject({ text: 'THE INSTALL PAGE', marks: [{ type: 'italic' }] });

      // The source's files (same blobs) and variables: file references and expressions resolve alike.
      const files = await t.request('GET', `/v1/spaces/${translation.result.space}/content/files`, { token: admin.token });
      expect(files.body.items.map((f: any) => [f.id, f.name])).toEqual([[fileId, 'notes.txt']]);
      const revision = await t.request('GET', `/v1/spaces/${translation.result.space}/content`, { token: admin.token });
      expect(revision.body.variables).toEqual({ product: 'Quire' });
    });

    it('a run with nothing changed sends nothing and writes no revision; after one page changes it sends only that page', async () => {
      libre.reset();
      const same = await run(translation.id);
      history.push(same);
      expect(libre.requests).toHaveLength(0);
      expect(same.result.revision).toBe(translation.result.revision);
      expect(same.stats).toMatchObject({ runs: 2, latestPages: 0, latestWords: 0 });

      const before = await pageMarkdown(translation.result.space, pages.faq);
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(pages.usage, { markdown: 'Call the new command.\n' }));
      const after = await run(translation.id);
      history.push(after);
      expect(libre.segments()).toEqual(['Usage', 'Call the new command.']);
      expect(after.result.revision).not.toBe(translation.result.revision);
      expect(after.stats).toMatchObject({ runs: 3, latestPages: 1, latestWords: 5, totalPages: 5 });
      expect((await pageMarkdown(translation.result.space, pages.usage)).markdown).toBe('CALL THE NEW COMMAND.\n');
      const untouched = await pageMarkdown(translation.result.space, pages.faq);
      expect(untouched.page.updatedAt).toBe(before.page.updatedAt);
      translation = after;
    });

    it('follows pages removed and moved in the source; the stats add up', async () => {
      libre.reset();
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
        e.deletePage(pages.old);
        e.movePage(pages.usage, { parent: null, index: 0 });
        e.movePage(pages.faq, { parent: pages.guide, index: 0 });
      });
      const after = await run(translation.id);
      history.push(after);
      expect(libre.requests).toHaveLength(0); // moves and removals need no translation
      const tree = await resultPages(after.result.space);
      expect(tree.map((p) => p.id)).toEqual([pages.usage, pages.guide]);
      expect(tree[1].pages.map((p: any) => p.id)).toEqual([pages.faq, pages.install]);
      expect(after.stats.runs).toBe(4);
      expect(after.stats.totalWords).toBe(sumStats(history).words);
      expect(after.stats.totalDuration).toBe(history.reduce((s, r) => s + r.stats.latestRunDuration, 0));
      translation = after;
    });

    it('retries a provider that answers 429 (then 503), and succeeds', async () => {
      libre.reset();
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(pages.install, { markdown: 'Download the newest package.\n' }));
      libre.failNext(429);
      libre.failNext(503);
      const after = await run(translation.id);
      expect(after.lastRun).toMatchObject({ state: 'completed' });
      expect(libre.requests).toHaveLength(3);
      expect(libre.requests[2].body.q).toEqual(libre.requests[0].body.q);
      expect((await pageMarkdown(after.result.space, pages.install)).markdown).toBe('DOWNLOAD THE NEWEST PACKAGE.\n');
      translation = after;
    });

    it('a provider that is down fails the run with a readable reason and keeps the previous result', async () => {
      const closed = await startProviderStandIn('libretranslate');
      const url = closed.url;
      await closed.close();
      useProvider('libretranslate', url);
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(pages.install, { markdown: 'Changed while down.\n' }));
      const after = await run(translation.id);
      expect(after.status).toBe('completed');
      expect(after.lastRun.state).toBe('failed');
      expect(after.lastRun.error).toMatch(/^the translation provider at 127\.0\.0\.1:\d+ could not be reached: .*\(after 3 attempts\)$/);
      expect(after.result).toEqual(translation.result);
      expect(after.stats).toEqual(translation.stats);
      expect((await pageMarkdown(after.result.space, pages.install)).markdown).toBe('DOWNLOAD THE NEWEST PACKAGE.\n');

      // A provider answering 400 is not retried, and its message is kept.
      useProvider('libretranslate', libre.url);
      libre.reset();
      libre.failNext(400);
      const refused = await run(translation.id);
      expect(libre.requests).toHaveLength(1);
      expect(refused.lastRun.error).toMatch(/answered 400: Service unavailable$/);

      // The provider's key is in no response and no row.
      expect(JSON.stringify(refused)).not.toContain('libre-key');
      const rows = await t.db.selectFrom('translations').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain('libre-key');

      const again = await run(translation.id);
      expect(again.lastRun.state).toBe('completed');
      expect((await pageMarkdown(again.result.space, pages.install)).markdown).toBe('CHANGED WHILE DOWN.\n');
      translation = again;
    });

    it('honours the glossary: terms kept or given their fixed translation, never sent', async () => {
      const glossary = await t.request('PUT', `${O()}/translations-glossary`, {
        token: creator.token,
        body: { operations: [{ type: 'insert', translations: { en: 'Quire', fr: 'Quire' } }, { type: 'insert', translations: { en: 'package', fr: 'paquet' } }] },
      });
      expect(glossary.status).toBe(204);
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(pages.install, { markdown: 'Quire ships as a package.\n' }));
      libre.reset();
      const after = await run(translation.id);
      expect(after.lastRun.state).toBe('completed');
      const sent = libre.segments().join('\n');
      expect(sent).not.toContain('Quire');
      expect(sent).not.toContain('package');
      expect((await pageMarkdown(after.result.space, pages.install)).markdown).toBe('Quire SHIPS AS A paquet.\n');
      translation = after;
    });

    it('shows pending, then running while the provider works, then completed', async () => {
      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(pages.install, { markdown: 'Quire ships as a package.\n\nTwice.' }));
      libre.reset();
      const held = libre.holdNext();
      const res = await t.request('POST', `${O()}/translations/${translation.id}/run`, { token: creator.token });
      expect(res.status).toBe(204);
      expect(['pending', 'running']).toContain((await get(translation.id)).body.status);
      await held.received; // the app's worker has started the run and is waiting for the provider
      expect((await get(translation.id)).body.status).toBe('running');
      held.release();
      await t.runJobsUntilIdle();
      const after = (await get(translation.id)).body;
      expect(after).toMatchObject({ status: 'completed', lastRun: { state: 'completed' } });
      expect(after.stats.runs).toBe(translation.stats.runs + 1);
      translation = after;
    });

    it('a removed result space is made again by the next run', async () => {
      const del = await t.request('DELETE', `/v1/spaces/${translation.result.space}`, { token: admin.token });
      expect(del.status).toBe(204);
      const after = await run(translation.id);
      expect(after.lastRun.state).toBe('completed');
      expect(after.result.space).not.toBe(translation.result.space);
      expect((await resultPages(after.result.space)).map((p) => p.id)).toEqual([pages.usage, pages.guide]);
    });
  });

  describe('DeepL and OpenAI-compatible providers', () => {
    it('DeepL v2: its protocol, its key, HTML tag handling, its own glossary for the run', async () => {
      useProvider('deepl', deepl.url);
      deepl.reset();
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'pt-br' });
      expect(res.status).toBe(201);
      await t.runJobsUntilIdle();
      const done = (await get(res.body.id)).body;
      expect(done.lastRun).toMatchObject({ state: 'completed' });
      const [glossary, ...calls] = deepl.requests;
      expect(glossary.path).toBe('/v2/glossaries');
      // No pt-br form for "package": it stays as it is, like "Quire".
      expect(glossary.body).toMatchObject({ source_lang: 'en', target_lang: 'pt', entries_format: 'tsv' });
      expect(glossary.body.entries.split('\n').sort()).toEqual(['Quire\tQuire', 'package\tpackage']);
      const translateCalls = calls.filter((r) => r.path === '/v2/translate');
      expect(translateCalls.length).toBeGreaterThan(0);
      for (const r of [glossary, ...calls]) expect(r.headers.authorization).toBe('DeepL-Auth-Key deepl-key');
      for (const r of translateCalls) {
        expect(r.body).toMatchObject({ source_lang: 'EN', target_lang: 'PT-BR', tag_handling: 'html', glossary_id: expect.any(String) });
        expect(r.body.text.length).toBeLessThanOrEqual(50);
      }
      expect(calls.at(-1)?.path).toBe(`/v2/glossaries/${translateCalls[0].body.glossary_id}`);
      expect(deepl.glossaries.size).toBe(0);
      expect((await pageMarkdown(done.result.space, pages.install)).markdown).toBe('Quire SHIPS AS A package.\n\nTWICE.\n');
      expect((await resultPages(done.result.space)).map((p) => p.title)).toEqual(['USAGE', 'GETTING STARTED']);
    });

    it('DeepL without glossaries for the pair: the terms are protected around the call', async () => {
      useProvider('deepl', deepl.url);
      deepl.reset();
      deepl.refuseGlossaries = true;
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'ja' });
      await t.runJobsUntilIdle();
      deepl.refuseGlossaries = false;
      const done = (await get(res.body.id)).body;
      expect(done.lastRun).toMatchObject({ state: 'completed' });
      expect(deepl.requests.filter((r) => r.path === '/v2/translate').every((r) => r.body.glossary_id === undefined)).toBe(true);
      expect(deepl.segments().join('\n')).not.toContain('Quire');
      expect((await pageMarkdown(done.result.space, pages.install)).markdown).toBe('Quire SHIPS AS A package.\n\nTWICE.\n');
    });

    it('OpenAI-compatible: model, key, instructions and glossary in the prompt; a broken structure is asked again', async () => {
      useProvider('openai', openai.url);
      t.config.translationModel = 'llama3';
      openai.reset();
      openai.breakNextStructure();
      const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use the formal register.', marks: [] }] }] }] };
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'es', instructions });
      expect(res.status).toBe(201);
      expect(res.body.instructions).toEqual(instructions);
      await t.runJobsUntilIdle();
      const done = (await get(res.body.id)).body;
      expect(done.lastRun).toMatchObject({ state: 'completed' });
      const first = openai.requests[0];
      expect(first.path).toBe('/v1/chat/completions');
      expect(first.headers.authorization).toBe('Bearer sk-test');
      expect(first.body.model).toBe('llama3');
      const system = first.body.messages.find((m: any) => m.role === 'system').content;
      expect(system).toContain('from English to Spanish');
      expect(system).toContain('Use the formal register.');
      expect(system).toContain('"Quire" -> "Quire"');
      // The broken answer was replaced by per-segment answers, so every link and mark survived.
      expect(openai.requests.length).toBeGreaterThan(1);
      const guide = await pageMarkdown(done.result.space, pages.guide);
      expect(guide.markdown).toContain('[INSTALL GUIDE](https://example.com/install?ref=docs)');
      expect(guide.markdown).not.toContain('markup lost');
    });

    it('a deleted source space fails the run saying so', async () => {
      useProvider('libretranslate', libre.url);
      const other = await t.request('POST', `${O()}/spaces`, { token: admin.token, body: { title: 'Short-lived' } });
      const res = await create({ source: { space: other.body.id, language: 'en' }, language: 'fr' });
      expect(res.status).toBe(201);
      await t.runJobsUntilIdle();
      const first = (await get(res.body.id)).body;
      expect(first.lastRun.state).toBe('completed');
      expect(await resultPages(first.result.space)).toEqual([]); // an empty source: a result with its first revision
      await t.request('DELETE', `/v1/spaces/${other.body.id}`, { token: admin.token });
      const done = await run(res.body.id);
      expect(done).toMatchObject({ status: 'completed', result: first.result, lastRun: { state: 'failed', error: `the source space "${other.body.id}" no longer exists` } });
    });

    it('with no provider configured, create works and the run fails saying so', async () => {
      useProvider(undefined);
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'de' });
      expect(res.status).toBe(201);
      await t.runJobsUntilIdle();
      const done = (await get(res.body.id)).body;
      expect(done.status).toBe('pending');
      expect(done.result).toBeUndefined();
      expect(done.lastRun).toMatchObject({ state: 'failed', error: 'no translation provider is configured (set TRANSLATION_PROVIDER and TRANSLATION_API_URL)' });
      useProvider('libretranslate', libre.url);
    });
  });

  describe('endpoints', () => {
    let id: string;
    beforeAll(async () => {
      useProvider(undefined);
      const res = await create({ source: { space: spaceId, language: 'en' }, language: 'it' });
      id = res.body.id;
      await t.runJobsUntilIdle();
    });

    it('400 for a missing or unknown language, a missing source, instructions that are not a document, an unknown field', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ source: { space: spaceId, language: 'en' } }, /language/],
        [{ source: { space: spaceId, language: 'en' }, language: 'klingon' }, /language/],
        [{ source: { space: spaceId, language: 'xx' }, language: 'fr' }, /source\/language/],
        [{ source: { space: spaceId }, language: 'fr' }, /language/],
        [{ language: 'fr' }, /source/],
        [{ source: { space: spaceId, language: 'en' }, language: 'fr', instructions: 'be nice' }, /instructions/],
        [{ source: { space: spaceId, language: 'en' }, language: 'fr', instructions: { object: 'block', nodes: [] } }, /instructions/],
        [{ source: { space: spaceId, language: 'en' }, language: 'fr', extra: 1 }, /extra|additional/],
        [{ source: { space: spaceId, language: 'en' }, language: 'en' }, /must differ/],
        [{ source: { space: 'nope', language: 'en' }, language: 'fr' }, /source\/space/],
      ];
      const before = (await t.request('GET', `${O()}/translations`, { token: admin.token })).body.count;
      for (const [body, message] of cases) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe(400);
        expect(res.body.error.message).toMatch(message);
      }
      expect((await t.request('GET', `${O()}/translations`, { token: admin.token })).body.count).toBe(before);
    });

    it('400 (not seen) for a source space of another organization or one the caller cannot see', async () => {
      const other = await createOrganization(t, { title: 'Other' });
      const foreign = await t.request('POST', `/v1/orgs/${other.id}/spaces`, { token: other.admin.token, body: { title: 'Theirs' } });
      const res = await create({ source: { space: foreign.body.id, language: 'en' }, language: 'fr' });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('source/space');
    });

    it('lists with pagination, gets, updates the instructions, reads them back', async () => {
      const list = await t.request('GET', `${O()}/translations`, { token: reader.token, query: { limit: 2 } });
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(2);
      expect(list.body.count).toBeGreaterThanOrEqual(5);
      const next = await t.request('GET', `${O()}/translations`, { token: reader.token, query: { limit: 2, page: list.body.next.page } });
      expect(next.body.items[0].id).not.toBe(list.body.items[0].id);
      expect(list.body.items[0].permissions).toEqual({ view: true, edit: false });

      const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Informal.', marks: [] }] }] }] };
      t.clock.advance(1000);
      const put = await t.request('PUT', `${O()}/translations/${id}`, { token: creator.token, body: { instructions } });
      expect(put.status).toBe(200);
      expect(put.body.instructions).toEqual(instructions);
      expect(put.body.updatedAt).not.toBe(put.body.createdAt);
      expect((await get(id)).body.instructions).toEqual(instructions);

      for (const body of [{}, { instructions: 'x' }, { instructions, language: 'de' }]) {
        const bad = await t.request('PUT', `${O()}/translations/${id}`, { token: creator.token, body });
        expect(bad.status).toBe(400);
      }
    });

    it('401 without a token, 403 for a read member (create, update, run, delete) and guests (read), 404 elsewhere', async () => {
      expect((await t.request('GET', `${O()}/translations`, { token: null })).status).toBe(401);
      expect((await t.request('POST', `${O()}/translations/${id}/run`, { token: null })).status).toBe(401);
      expect((await create({ source: { space: spaceId, language: 'en' }, language: 'fr' }, reader.token)).status).toBe(403);
      expect((await t.request('POST', `${O()}/translations/${id}/run`, { token: reader.token })).status).toBe(403);
      expect((await t.request('PUT', `${O()}/translations/${id}`, { token: reader.token, body: { instructions: { object: 'document', data: {}, nodes: [] } } })).status).toBe(403);
      expect((await t.request('DELETE', `${O()}/translations/${id}`, { token: reader.token })).status).toBe(403);
      expect((await t.request('GET', `${O()}/translations`, { token: guest.token })).status).toBe(403);
      expect((await t.request('GET', `${O()}/translations`, { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', `${O('nope')}/translations`, { token: admin.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/translations/nope`, { token: admin.token })).status).toBe(404);
      expect((await t.request('POST', `${O()}/translations/nope/run`, { token: admin.token })).status).toBe(404);
      expect((await t.request('PUT', `${O()}/translations/nope`, { token: admin.token, body: { instructions: { object: 'document', data: {}, nodes: [] } } })).status).toBe(404);
      expect((await get(id)).status).toBe(200);
    });

    it('deletes (204, also when absent); the result space stays', async () => {
      const res = await t.request('DELETE', `${O()}/translations/${id}`, { token: creator.token });
      expect(res.status).toBe(204);
      expect((await get(id)).status).toBe(404);
      expect((await t.request('DELETE', `${O()}/translations/${id}`, { token: creator.token })).status).toBe(204);
      expect((await t.request('POST', `${O()}/translations/${id}/run`, { token: creator.token })).status).toBe(404);
    });
  });

  describe('glossary endpoints', () => {
    it('lists (ordered by a language), gets, updates and deletes entries; refuses bad batches whole', async () => {
      const list = await t.request('GET', `${O()}/translations-glossary`, { token: reader.token, query: { orderBy: 'fr' } });
      expect(list.status).toBe(200);
      expect(list.body.items.map((e: any) => e.translations.fr)).toEqual(['paquet', 'Quire']);
      const [paquet] = list.body.items;
      expect(paquet).toMatchObject({ object: 'glossary-entry', translations: { en: 'package', fr: 'paquet' }, urls: { location: `http://quire.test/v1/orgs/${org.id}/translations-glossary/${paquet.id}` } });
      const one = await t.request('GET', `${O()}/translations-glossary/${paquet.id}`, { token: reader.token });
      expect(one.body).toEqual(paquet);

      t.clock.advance(1000);
      const update = await t.request('PUT', `${O()}/translations-glossary`, {
        token: admin.token,
        body: { operations: [{ type: 'update', id: paquet.id, translations: { en: 'package', fr: 'colis', de: 'Paket' } }, { type: 'insert', translations: { en: 'space' } }] },
      });
      expect(update.status).toBe(204);
      const changed = await t.request('GET', `${O()}/translations-glossary/${paquet.id}`, { token: reader.token });
      expect(changed.body.translations).toEqual({ en: 'package', fr: 'colis', de: 'Paket' });
      expect(changed.body.updatedAt).not.toBe(changed.body.createdAt);
      const paged = await t.request('GET', `${O()}/translations-glossary`, { token: reader.token, query: { limit: 2 } });
      expect(paged.body.count).toBe(3);
      expect(paged.body.items).toHaveLength(2);
      expect(paged.body.next).toBeDefined();

      const bad: [unknown, RegExp][] = [
        [{ operations: [{ type: 'insert', translations: {} }] }, /at least one language/],
        [{ operations: [{ type: 'insert', translations: { klingon: 'x' } }] }, /klingon/],
        [{ operations: [{ type: 'insert', translations: { en: 'a\nb' } }] }, /pattern|translations/],
        [{ operations: [{ type: 'insert', translations: { en: 'x'.repeat(256) } }] }, /translations/],
        [{ operations: [{ type: 'insert', translations: { en: 'ok' } }, { type: 'delete', id: 'nope' }] }, /operations\/1\/id/],
        [{ operations: [{ type: 'rename', id: paquet.id }] }, /operations/],
        [{}, /operations/],
      ];
      for (const [body, message] of bad) {
        const res = await t.request('PUT', `${O()}/translations-glossary`, { token: admin.token, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.message).toMatch(message);
      }
      expect((await t.request('GET', `${O()}/translations-glossary`, { token: reader.token })).body.count).toBe(3);

      const del = await t.request('PUT', `${O()}/translations-glossary`, { token: admin.token, body: { operations: [{ type: 'delete', id: paquet.id }] } });
      expect(del.status).toBe(204);
      expect((await t.request('GET', `${O()}/translations-glossary/${paquet.id}`, { token: reader.token })).status).toBe(404);
    });

    it('401, 403 (read members cannot edit, guests cannot read), 404', async () => {
      expect((await t.request('GET', `${O()}/translations-glossary`, { token: null })).status).toBe(401);
      expect((await t.request('PUT', `${O()}/translations-glossary`, { token: reader.token, body: { operations: [] } })).status).toBe(403);
      expect((await t.request('GET', `${O()}/translations-glossary`, { token: guest.token })).status).toBe(403);
      expect((await t.request('GET', `${O()}/translations-glossary`, { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', `${O()}/translations-glossary/nope`, { token: admin.token })).status).toBe(404);
    });
  });
});
