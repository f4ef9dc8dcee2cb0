import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/markdown/parse.ts';
import { editSpaceContent } from '../../src/modules/content/content.service.ts';
import { createTestApp, type TestApp } from '../app.ts';
import { createOrganization, type TestOrganization } from '../factories.ts';

/*
 * Issue 30, item 6: a `javascript:` link with a tab, CR/LF or C0 control inside or before
 * its scheme passed the link check (a pattern over the raw text), and browsers, whose URL
 * parser drops those characters first, follow it as `javascript:`. Every surface that
 * emits a user-supplied link is tried here, and the HTML served is read as a browser does.
 */

const BYPASSES = ['java\tscript:alert(1)', '\u0001javascript:alert(1)', 'java\nscript:alert(1)', ' \u000ejavascript:alert(1)', 'javascript\r:alert(1)'];

/** Every href/src of a page as the browser reads it: entities decoded, then the URL parser's first step. */
function linksOf(html: string): string[] {
  const decode = (v: string) =>
    v
      .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => decode(m[1]!).replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, ''));
}
const scriptLinks = (html: string) => linksOf(html).filter((url) => /^javascript:/i.test(url));

describe('issue 30: one link check for every user-supplied link', () => {
  let t: TestApp;
  let org: TestOrganization;
  let siteId: string;
  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => t.request(method, url, { token: org.admin.token, body });
  const page = async (path: string) => {
    const res = await t.request('GET', `/sites/links/${path}`);
    expect(res.status).toBe(200);
    return res.text;
  };

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t);
    const space = (await req('POST', `/v1/orgs/${org.id}/spaces`, { title: 'Links' })).body.id;

    // A document whose links, images and embeds are each bypass (placeholders replaced in the JSON).
    const lines = BYPASSES.map((_, i) => `[doc link ${i}](https://placeholder.invalid/${i}) ![image ${i}](https://placeholder.invalid/${i})`);
    const embeds = BYPASSES.map((_, i) => `{% embed url="https://placeholder.invalid/${i}" %}\n{% endembed %}`);
    const document = JSON.parse(
      JSON.stringify(markdownToDocument(`${lines.join('\n\n')}\n\n${embeds.join('\n\n')}\n`)).replace(/https:\/\/placeholder\.invalid\/(\d)/g, (_, i) =>
        JSON.stringify(BYPASSES[Number(i)]).slice(1, -1),
      ),
    );
    expect(JSON.stringify(document)).not.toContain('placeholder.invalid');

    // Markdown carries the characters as character references, which CommonMark decodes in link destinations.
    const markdownLinks = '[md tab](java&#9;script:alert(1)) [md control](&#1;javascript:alert(1)) [md newline](java&#10;script:alert(1))\n';

    const spec = {
      openapi: '3.0.3',
      info: { title: 'Links', version: '1' },
      paths: {
        '/x': {
          get: {
            summary: 'Links in descriptions',
            description: `Operation: ${markdownLinks}`,
            parameters: [{ name: 'q', in: 'query', description: `Parameter: ${markdownLinks}`, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', description: `Schema: ${markdownLinks}`, properties: { a: { type: 'string' } } } } } } },
          },
        },
      },
    };
    expect((await req('POST', `/v1/orgs/${org.id}/openapi`, { slug: 'links', source: { text: JSON.stringify(spec) } })).status).toBe(201);
    await t.runJobsUntilIdle();

    await editSpaceContent(t.app.deps, space, org.admin.id, (e) => {
      e.insertPage({ title: 'Document', document });
      e.insertPage({ title: 'Markdown', markdown: markdownLinks });
      e.insertPage({ title: 'Reference', markdown: '{% openapi-operation spec="links" path="/x" method="get" %}\n{% endopenapi-operation %}\n' });
    });
    const site = await req('POST', `/v1/orgs/${org.id}/sites`, { title: 'Links', spaces: [space] });
    siteId = site.body.id;
    await req('PATCH', `/v1/orgs/${org.id}/sites/${siteId}`, { basename: 'links' });
    const link = (i: number) => ({ kind: 'url', url: BYPASSES[i % BYPASSES.length] });
    const customization = await req('PUT', `/v1/orgs/${org.id}/sites/${siteId}/customization`, {
      header: { links: BYPASSES.map((_, i) => ({ title: `header ${i}`, to: link(i), links: [{ title: `sub ${i}`, to: link(i + 1) }] })) },
      footer: { groups: [{ title: 'Group', links: BYPASSES.map((_, i) => ({ title: `footer ${i}`, to: link(i) })) }] },
      announcement: { enabled: true, message: 'Announced', style: 'info', link: { title: 'announcement link', to: link(0) } },
    });
    expect(customization.status).toBe(200);
    await req('POST', `/v1/orgs/${org.id}/sites/${siteId}/publish`);
  }, 120_000);
  afterAll(async () => {
    await t?.runJobsUntilIdle();
    await t?.close();
  });

  it('links, images and embeds of a document', async () => {
    const html = await page('document');
    for (let i = 0; i < BYPASSES.length; i++) expect(html).toContain(`doc link ${i}`);
    expect(scriptLinks(html)).toEqual([]);
  });

  it('links of a page written in markdown', async () => {
    const html = await page('markdown');
    expect(html).toContain('md tab');
    expect(scriptLinks(html)).toEqual([]);
  });

  it('links in an OpenAPI operation’s, parameter’s and schema’s descriptions', async () => {
    const html = await page('reference');
    for (const where of ['Operation:', 'Parameter:', 'Schema:']) expect(html).toContain(where);
    expect(scriptLinks(html)).toEqual([]);
  });

  it('site customization links: header, submenu, footer, announcement', async () => {
    const html = await page('');
    expect(html).toContain('Announced');
    expect(scriptLinks(html)).toEqual([]);
  });
});
