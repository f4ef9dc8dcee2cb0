import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createOrganization, type TestOrganization } from '../../../test/factories.ts';
import { editSpaceContent } from '../content/content.service.ts';

/*
 * The management API and the published site read one structure model (src/site/structure.ts):
 * sites built through the API only, then what the API says (order, default section, default
 * site spaces, URLs) compared with what a visitor gets.
 */

describe('API and published site agree on the structure', () => {
  let t: TestApp;
  let org: TestOrganization;
  const spaces: Record<string, string> = {};

  const O = () => `/v1/orgs/${org.id}`;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });

  /** The <h1> of a published page (each space has one page titled after the space). */
  async function landing(path: string): Promise<string> {
    const res = await t.request('GET', path);
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
    return /<article><h1>([^<]*)<\/h1>/.exec(res.text)?.[1] ?? '';
  }

  /** Section tabs of the header, in the order the visitor sees them. */
  async function visitorSections(path: string): Promise<string[]> {
    const res = await t.request('GET', path);
    const nav = /<nav class="sections"[^>]*>(.*?)<\/nav>/s.exec(res.text)?.[1] ?? '';
    return [...nav.matchAll(/<a href="[^"]*"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
  }

  /** The API's sections in visiting order (depth first through groups), with their site spaces. */
  function apiSections(structure: any[]): any[] {
    return structure.flatMap((item) => (item.object === 'site-section-group' ? apiSections(item.children) : [item]));
  }

  const pathOf = (url: string) => new URL(url).pathname;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    for (const name of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) {
      spaces[name] = (await req('POST', `${O()}/spaces`, { title: name })).body.id;
      await editSpaceContent(t.app.deps, spaces[name], org.admin.id, (e) => {
        e.insertPage({ title: `${name} page`, markdown: `About ${name}.\n` });
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('defaults, groups and order: the visitor lands where the API says, in the API order', async () => {
    const site = await req('POST', `${O()}/sites`, { title: 'Agreement', spaces: [spaces.Alpha] });
    expect(site.status, site.text).toBe(201);
    const SITE = `${O()}/sites/${site.body.id}`;
    expect((await req('POST', `${SITE}/publish`)).status).toBe(200);
    const beta = (await req('POST', `${SITE}/sections`, { spaceId: spaces.Beta, title: 'Beta' })).body;
    const gamma = (await req('POST', `${SITE}/sections`, { spaceId: spaces.Gamma, title: 'Gamma' })).body;
    const delta = (await req('POST', `${SITE}/sections`, { spaceId: spaces.Delta, title: 'Delta' })).body;
    // A group holding Delta then Gamma: the published order follows the group's.
    const group = await req('POST', `${SITE}/section-groups`, { title: 'More', sections: [delta.id, gamma.id] });
    expect(group.status, group.text).toBe(201);
    // A second site space in Beta, made its default through the section (the reported bug).
    const second = await req('POST', `${SITE}/site-spaces`, { spaceId: spaces.Epsilon, sectionId: beta.id });
    expect(second.status, second.text).toBe(201);
    expect((await req('PATCH', `${SITE}/sections/${beta.id}`, { defaultSiteSpace: second.body.id })).status).toBe(200);
    expect((await req('PATCH', SITE, { defaultSiteSection: beta.id })).status).toBe(200);

    const published = await req('GET', `${SITE}/published`);
    expect(published.status).toBe(200);
    const sections = apiSections(published.body.structure.structure);
    const sitePath = pathOf(published.body.site.urls.published);

    // Order: the header's tabs list the sections as the API orders them, and groups are menus.
    expect(sections.map((s) => s.title)).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect(await visitorSections(sitePath)).toEqual(sections.map((s) => s.title));

    // Defaults: the site's root is the API's default section's default site space.
    const defaultSection = sections.find((s) => s.default);
    expect(defaultSection.id).toBe(beta.id);
    const defaultSpace = defaultSection.siteSpaces.find((s: any) => s.default);
    expect(defaultSpace.id).toBe(second.body.id);
    expect(await landing(sitePath)).toBe('Epsilon page');

    // Every section and site space URL the API names serves that section's default / that space.
    for (const section of sections) {
      const home = section.siteSpaces.find((s: any) => s.default);
      expect(await landing(pathOf(section.urls.published))).toBe(`${home.space.title} page`);
      for (const siteSpace of section.siteSpaces) expect(await landing(pathOf(siteSpace.urls.published))).toBe(`${siteSpace.space.title} page`);
    }

    // The site-spaces list says the same defaults.
    const list = await req('GET', `${SITE}/site-spaces`);
    const defaults = list.body.items.filter((s: any) => s.default).map((s: any) => s.id);
    expect(defaults).toEqual(sections.map((s) => s.siteSpaces.find((x: any) => x.default).id));

    // Moving the default site space back changes both sides at once.
    expect((await req('PATCH', `${SITE}/sections/${beta.id}`, { defaultSiteSpace: beta.siteSpaces[0].id })).status).toBe(200);
    const after = apiSections((await req('GET', `${SITE}/published`)).body.structure.structure);
    expect(after.find((s) => s.id === beta.id).siteSpaces.find((s: any) => s.default).id).toBe(beta.siteSpaces[0].id);
    expect(await landing(sitePath)).toBe('Beta page');
  });

  it('the order is the same on every read, also with ties of positions', async () => {
    const site = await req('POST', `${O()}/sites`, { title: 'Ties', spaces: [spaces.Alpha] });
    const SITE = `${O()}/sites/${site.body.id}`;
    await req('POST', `${SITE}/publish`);
    for (const name of ['Beta', 'Gamma', 'Delta']) await req('POST', `${SITE}/sections`, { spaceId: spaces[name], title: name });
    const ids = apiSections((await req('GET', `${SITE}/structure`)).body.structure).map((s) => s.id);
    await req('POST', `${SITE}/section-groups`, { title: 'G1', sections: [ids[1]] });
    await req('POST', `${SITE}/section-groups`, { title: 'G2', sections: [ids[3]] });
    // Force equal positions: the model breaks ties by id on both sides.
    await t.db.updateTable('site_sections').set({ position: 0 }).where('site_id', '=', site.body.id).execute();
    await t.db.updateTable('site_section_groups').set({ position: 0 }).where('site_id', '=', site.body.id).execute();
    const first = apiSections((await req('GET', `${SITE}/structure`)).body.structure).map((s) => s.title);
    const sitePath = pathOf((await req('GET', `${SITE}/published`)).body.site.urls.published);
    for (let run = 0; run < 3; run++) {
      expect(apiSections((await req('GET', `${SITE}/structure`)).body.structure).map((s) => s.title)).toEqual(first);
      expect(await visitorSections(sitePath)).toEqual(first);
    }
  });

  it('a site without sections: the root default site space is the landing page', async () => {
    const site = await req('POST', `${O()}/sites`, { title: 'Flat', spaces: [spaces.Alpha, spaces.Beta, spaces.Gamma] });
    const SITE = `${O()}/sites/${site.body.id}`;
    await req('POST', `${SITE}/publish`);
    const listed = (await req('GET', `${SITE}/site-spaces`)).body.items;
    expect((await req('PATCH', SITE, { defaultSiteSpace: listed[2].id })).status).toBe(200);
    const published = (await req('GET', `${SITE}/published`)).body;
    const root = published.structure.structure;
    expect(root.map((s: any) => s.default)).toEqual([false, false, true]);
    const sitePath = pathOf(published.site.urls.published);
    expect(await landing(sitePath)).toBe('Gamma page');
    for (const s of root) expect(await landing(pathOf(s.urls.published))).toBe(`${s.space.title} page`);
  });
});
