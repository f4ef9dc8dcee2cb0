import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editSpaceContent } from '../src/modules/content/content.service.ts';
import { providerSettings } from '../src/modules/translations/translations.run.ts';
import { createTestApp, type TestApp } from './app.ts';
import { gitbookComponentErrors, gitbookSchemaErrors } from './gitbook-schema.ts';
import { createOrganization, type TestOrganization } from './factories.ts';
import { startProviderStandIn, type ProviderStandIn } from './translation-providers.ts';

/*
 * GitBook's official client, unchanged but for `endpoint`, drives translations (create,
 * get, list, update, run, delete) and the glossary against a listening Quire translating
 * with a LibreTranslate stand-in; GitBook's schemas validate every response.
 */
describe("GitBook's official client: translations", () => {
  let t: TestApp;
  let org: TestOrganization;
  let api: GitBookAPI;
  let libre: ProviderStandIn;
  let spaceId: string;

  beforeAll(async () => {
    providerSettings.backoffMs = 5;
    libre = await startProviderStandIn('libretranslate');
    t = await createTestApp({ translationProvider: 'libretranslate', translationApiUrl: libre.url });
    org = await createOrganization(t, { title: 'Client Org' });
    const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: org.admin.token, body: { title: 'Docs' } });
    spaceId = space.body.id;
    await editSpaceContent(t.app.deps, spaceId, org.admin.id, (e) => {
      e.insertPage({ title: 'Welcome', markdown: 'Hello **there**, see `code`.\n' });
    });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = new GitBookAPI({ endpoint: address, authToken: org.admin.token });
  });
  afterAll(async () => {
    await t.runJobsUntilIdle();
    await t.close();
    await libre.close();
  });

  const valid = (method: string, path: string, status: number, body: unknown) => expect(gitbookSchemaErrors(method, `/v1${path}`, status, body)).toBeNull();

  it('creates, gets, lists, updates, runs and deletes a translation', async () => {
    const created = await api.orgs.createTranslation(org.id, { source: { space: spaceId, language: 'en' as any }, language: 'fr' as any });
    expect(created.status).toBe(201);
    valid('POST', `/orgs/${org.id}/translations`, 201, created.data);
    expect(created.data).toMatchObject({ object: 'translation', status: 'pending', language: 'fr' });
    const id = created.data.id;
    await t.runJobsUntilIdle();

    const got = await api.orgs.getTranslation(org.id, id);
    valid('GET', `/orgs/${org.id}/translations/${id}`, 200, got.data);
    expect(got.data.status).toBe('completed');
    expect(got.data.result?.space).toBeDefined();
    expect(gitbookComponentErrors('Translation', got.data)).toBeNull();

    const list = await api.orgs.listTranslations(org.id, { limit: 10 });
    valid('GET', `/orgs/${org.id}/translations`, 200, list.data);
    expect(list.data.items.map((i) => i.id)).toEqual([id]);

    const instructions = { object: 'document' as const, data: {}, nodes: [{ object: 'block' as const, type: 'paragraph' as const, data: {}, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Be brief.', marks: [] }] }] }] };
    const updated = await api.orgs.updateTranslation(org.id, id, { instructions: instructions as any });
    valid('PUT', `/orgs/${org.id}/translations/${id}`, 200, updated.data);
    expect(updated.data.instructions).toEqual(instructions);

    const ran = await api.orgs.runTranslation(org.id, id);
    expect(ran.status).toBe(204);
    await t.runJobsUntilIdle();
    expect((await api.orgs.getTranslation(org.id, id)).data.stats.runs).toBe(2);

    const deleted = await api.orgs.deleteTranslation(org.id, id);
    expect(deleted.status).toBe(204);
    const missing = await api.orgs.getTranslation(org.id, id).catch((error) => error);
    expect(missing).toBeInstanceOf(GitBookAPIError);
    expect(missing.code).toBe(404);
  });

  it('updates, lists and gets glossary entries', async () => {
    const updated = await api.orgs.updateGlossaryEntries(org.id, { operations: [{ type: 'insert', translations: { en: 'Quire', fr: 'Quire' } }] });
    expect(updated.status).toBe(204);
    const list = await api.orgs.listGlossaryEntries(org.id, { orderBy: 'en' as any });
    valid('GET', `/orgs/${org.id}/translations-glossary`, 200, list.data);
    expect(list.data.items).toHaveLength(1);
    const entry = await api.orgs.getGlossaryEntry(org.id, list.data.items[0].id);
    valid('GET', `/orgs/${org.id}/translations-glossary/${entry.data.id}`, 200, entry.data);
    expect(entry.data.translations).toEqual({ en: 'Quire', fr: 'Quire' });
  });
});
