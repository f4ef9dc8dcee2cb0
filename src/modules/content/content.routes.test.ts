import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import { editSpaceContent } from './content.service.ts';

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid RGB PNG of the given size (every pixel red). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([255, 0, 0]))])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const MARKDOWN = '# Hi\n\nHello <code class="expression">space.vars.name</code> from <code class="expression">page.vars.who</code>.\n';

describe('content reads', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let firstRevision: string;
  let revision: string;
  let pageA: string;
  let child: string;
  let pageB: string;
  let pngFile: { id: string; size: number };
  let textFile: { id: string };
  const image = png(3, 2);

  beforeAll(async () => {
    t = await createTestApp();
    ({ org, admin, reader, guest, outsider } = await createRoleMatrix(t, { roles: ['read', 'guest'] }));
    const created = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Docs' } });
    spaceId = created.body.id;
    firstRevision = created.body.revision;
    t.clock.advance(1000);
    revision = await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      pageA = e.insertPage({ title: 'A', markdown: MARKDOWN, variables: { who: 'World' }, pages: [{ title: 'Child', markdown: 'Child body.\n' }] });
      child = e.childrenOf(pageA)[0].id;
      pageB = e.insertPage({ title: 'B', description: 'Second page' });
      e.setVariables({ name: 'Quire' });
      pngFile = e.addFile({ name: 'a.png', contentType: 'image/png', bytes: image });
      textFile = e.addFile({ name: 'notes file.txt', contentType: 'text/plain', bytes: Buffer.from('some notes') });
    });
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await t.close();
  });

  const S = () => `/v1/spaces/${spaceId}`;
  const get = (url: string, options: Parameters<TestApp['request']>[2] = {}) => t.request('GET', url, { token: reader.token, ...options });
  const inject = (url: string) => t.app.inject({ method: 'GET', url: url.replace('http://quire.test', '') });

  describe('GET {S}/content (getCurrentRevision)', () => {
    it('the revision: pages tree, files with download URLs, variables, parents', async () => {
      const res = await get(`${S()}/content`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'revision',
        id: revision,
        parents: [firstRevision],
        files: expect.any(Array),
        reusableContents: [],
        tags: [],
        variables: { name: 'Quire' },
        type: 'edits',
        urls: { app: `http://quire.test/app/s/${spaceId}/revisions/${revision}` },
      });
      expect(res.body.pages.map((p: any) => [p.id, p.title, p.slug, p.path, p.type, p.kind])).toEqual([
        [pageA, 'A', 'a', 'a', 'document', 'sheet'],
        [pageB, 'B', 'b', 'b', 'document', 'sheet'],
      ]);
      const a = res.body.pages[0];
      expect(a.pages.map((p: any) => [p.id, p.path])).toEqual([[child, 'a/child']]);
      expect(a.document).toMatchObject({ object: 'document' });
      expect(a.variables).toEqual({ who: 'World' });
      expect(a.urls).toEqual({ app: `http://quire.test/app/s/${spaceId}/pages/${pageA}` });
      expect(res.body.pages[1]).toMatchObject({ description: 'Second page', document: { object: 'document', nodes: [] } });
      expect(res.body.files).toEqual([
        { id: pngFile.id, name: 'a.png', contentType: 'image/png', size: image.length, dimensions: { width: 3, height: 2 }, downloadURL: expect.any(String) },
        { id: textFile.id, name: 'notes file.txt', contentType: 'text/plain', size: 10, downloadURL: expect.any(String) },
      ]);
      // Same answer with metadata=false (no git metadata here either way).
      const noMeta = await get(`${S()}/content`, { query: { metadata: false } });
      expect(noMeta.status).toBe(200);
      expect(noMeta.body.id).toBe(revision);
      expect(noMeta.body.git).toBeUndefined();
    });

    it('downloadURL serves the bytes without a token, on the download path; any change to the URL is 404', async () => {
      const res = await get(`${S()}/content`);
      const [pngEntry, textEntry] = res.body.files;
      // Outside /v1 (and so outside the API and published sites' paths).
      expect(pngEntry.downloadURL.startsWith(`http://quire.test/downloads/blobs/${spaceId}/`)).toBe(true);
      const download = await inject(pngEntry.downloadURL);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('image/png');
      expect(download.headers['content-disposition']).toBe(`inline; filename*=UTF-8''a.png`);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
      expect(download.headers['content-security-policy']).toContain('sandbox');
      expect(download.rawPayload.equals(image)).toBe(true);
      const text = await inject(textEntry.downloadURL);
      expect(text.statusCode).toBe(200);
      expect(text.body).toBe('some notes');
      expect(text.headers['content-disposition']).toContain('notes%20file.txt');

      const url = new URL(pngEntry.downloadURL);
      const sig = url.searchParams.get('sig')!;
      const tampered = new URL(url);
      tampered.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
      expect((await inject(tampered.toString())).statusCode).toBe(404);
      const retyped = new URL(url);
      retyped.searchParams.set('type', 'text/html');
      expect((await inject(retyped.toString())).statusCode).toBe(404);
      // The file name segment is signed too: a renamed URL is refused.
      const renamed = new URL(url.toString().replace('/a.png?', '/a.html?'));
      expect(renamed.pathname.endsWith('/a.html')).toBe(true);
      expect((await inject(renamed.toString())).statusCode).toBe(404);
      // Nothing unsigned may ride along in the query.
      const extra = new URL(url);
      extra.searchParams.set('download', '1');
      expect((await inject(extra.toString())).statusCode).toBe(404);
      // The signature is bound to the space.
      const otherSpace = new URL(url.toString().replace(spaceId, 'another-space'));
      expect((await inject(otherSpace.toString())).statusCode).toBe(404);
      const unsigned = new URL(url);
      unsigned.searchParams.delete('sig');
      expect((await inject(unsigned.toString())).statusCode).toBe(404);
      // The old blob route under /v1 (name outside the signature) is gone.
      expect((await inject(`/v1/spaces/${spaceId}/blobs/${url.pathname.split('/')[4]}/a.png${url.search}`)).statusCode).toBe(404);
      // While the space is deleted its files are not served; restored, they are again.
      expect((await t.request('DELETE', S(), { token: org.admin.token })).status).toBe(204);
      expect((await inject(pngEntry.downloadURL)).statusCode).toBe(404);
      expect((await t.request('POST', `${S()}/restore`, { token: org.admin.token })).status).toBe(200);
      expect((await inject(pngEntry.downloadURL)).statusCode).toBe(200);
    });

    it('uploaded HTML, SVG and odd types never run on the origin: attachment, nosniff, sandboxing CSP', async () => {
      const space = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Active files' } });
      await editSpaceContent(t.app.deps, space.body.id, admin.id, (e) => {
        e.addFile({ name: 'page.html', contentType: 'text/html', bytes: Buffer.from('<script>alert(document.domain)</script>') });
        e.addFile({ name: 'logo.svg', contentType: 'image/svg+xml', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') });
        e.addFile({ name: 'x.xhtml', contentType: 'application/xhtml+xml; charset=utf-8', bytes: Buffer.from('<html/>') });
        e.addFile({ name: 'evil.bin', contentType: 'text/html\u0000, text/plain', bytes: Buffer.from('<b>x</b>') });
      });
      const files = await t.request('GET', `/v1/spaces/${space.body.id}/content/files`, { token: admin.token });
      expect(files.body.items).toHaveLength(4);
      const served: Record<string, string | undefined> = {};
      for (const file of files.body.items) {
        const res = await inject(file.downloadURL);
        expect(res.statusCode, file.name).toBe(200);
        expect(res.headers['content-disposition'], file.name).toMatch(/^attachment; /);
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.headers['content-security-policy']).toContain('sandbox');
        served[file.name] = res.headers['content-type'] as string;
      }
      expect(served).toEqual({ 'page.html': 'text/html', 'logo.svg': 'image/svg+xml', 'x.xhtml': 'application/xhtml+xml', 'evil.bin': 'application/octet-stream' });
    });

    it('401 without a token; 404 for guests without access, outsiders and unknown spaces', async () => {
      expect((await t.request('GET', `${S()}/content`)).status).toBe(401);
      for (const token of [guest.token, outsider.token]) {
        const res = await t.request('GET', `${S()}/content`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Space not found' } });
      }
      expect((await get(`/v1/spaces/no-such-space/content`)).status).toBe(404);
      for (const suffix of ['/pages', '/files', `/files/${pngFile.id}`, `/page/${pageA}`, '/path/a']) {
        expect((await t.request('GET', `${S()}/content${suffix}`)).status, suffix).toBe(401);
        expect((await t.request('GET', `${S()}/content${suffix}`, { token: guest.token })).status, suffix).toBe(404);
      }
    });
  });

  describe('GET {S}/content/pages and files', () => {
    it('pages: the tree', async () => {
      const res = await get(`${S()}/content/pages`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['pages']);
      expect(res.body.pages.map((p: any) => p.id)).toEqual([pageA, pageB]);
      expect(res.body.pages[0].pages[0].id).toBe(child);
    });

    it('files: by id, paginated with limit and next.page; a bad page cursor is 400', async () => {
      const all = await get(`${S()}/content/files`);
      expect(all.status).toBe(200);
      expect(all.body.count).toBe(2);
      expect(all.body.next).toBeUndefined();
      const ids = all.body.items.map((f: any) => f.id);
      expect(ids).toEqual([pngFile.id, textFile.id].sort());
      const first = await get(`${S()}/content/files`, { query: { limit: 1 } });
      expect(first.body.items.map((f: any) => f.id)).toEqual([ids[0]]);
      expect(first.body.count).toBe(2);
      expect(first.body.next.page).toEqual(expect.any(String));
      const second = await get(`${S()}/content/files`, { query: { limit: 1, page: first.body.next.page } });
      expect(second.status).toBe(200);
      expect(second.body.items.map((f: any) => f.id)).toEqual([ids[1]]);
      expect(second.body.next).toBeUndefined();
      expect((await get(`${S()}/content/files`, { query: { page: 'garbage!' } })).status).toBe(400);
      expect((await get(`${S()}/content/files`, { query: { limit: 0 } })).status).toBe(400);
    });

    it('files/{fileId}: one file, image dimensions from a real PNG; unknown file 404', async () => {
      const res = await get(`${S()}/content/files/${pngFile.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id: pngFile.id, name: 'a.png', contentType: 'image/png', size: image.length, dimensions: { width: 3, height: 2 }, downloadURL: expect.any(String) });
      expect((await inject(res.body.downloadURL)).rawPayload.equals(image)).toBe(true);
      const text = await get(`${S()}/content/files/${textFile.id}`);
      expect(text.body.dimensions).toBeUndefined();
      const missing = await get(`${S()}/content/files/no-such-file`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('File not found');
    });
  });

  describe('GET {S}/content/page/{pageId} and path/{pagePath}', () => {
    it('default format: the document; format=markdown: the markdown read back', async () => {
      const doc = await get(`${S()}/content/page/${pageA}`);
      expect(doc.status).toBe(200);
      expect(doc.body).toMatchObject({ id: pageA, title: 'A', path: 'a', type: 'document', document: { object: 'document' } });
      expect(doc.body.markdown).toBeUndefined();
      expect(doc.body.pages[0]).toMatchObject({ id: child, document: { object: 'document' } });
      const md = await get(`${S()}/content/page/${pageA}`, { query: { format: 'markdown' } });
      expect(md.status).toBe(200);
      expect(md.body.document).toBeUndefined();
      expect(md.body.markdown).toBe(MARKDOWN.replace('# Hi', '## Hi'));
      expect(md.body.pages[0].markdown).toBe('Child body.\n');
      const empty = await get(`${S()}/content/page/${pageB}`, { query: { format: 'markdown' } });
      expect(empty.body.markdown).toBe('');
      expect((await get(`${S()}/content/page/${pageA}`, { query: { format: 'html' } })).status).toBe(400);
    });

    it('evaluated=true and deterministic-only resolve space and page variables; false leaves them', async () => {
      for (const evaluated of [true, 'deterministic-only'] as const) {
        const res = await get(`${S()}/content/page/${pageA}`, { query: { format: 'markdown', evaluated } });
        expect(res.status).toBe(200);
        expect(res.body.markdown).toBe('## Hi\n\nHello Quire from World.\n');
      }
      const plain = await get(`${S()}/content/page/${pageA}`, { query: { format: 'markdown', evaluated: false } });
      expect(plain.body.markdown).toBe(MARKDOWN.replace('# Hi', '## Hi'));
      const evaluatedDoc = await get(`${S()}/content/page/${pageA}`, { query: { evaluated: true } });
      expect(JSON.stringify(evaluatedDoc.body.document)).toContain('Quire');
      expect(JSON.stringify(evaluatedDoc.body.document)).not.toContain('"expression"');
      const meta = await get(`${S()}/content/page/${pageA}`, { query: { metadata: false, format: 'markdown' } });
      expect(meta.status).toBe(200);
      expect(meta.body.markdown).toBe(MARKDOWN.replace('# Hi', '## Hi'));
    });

    it('path: URL-encoded (a%2Fchild) and raw (a/child), leading slash ignored; unknown 404', async () => {
      const encoded = await get(`${S()}/content/path/a%2Fchild`, { query: { format: 'markdown' } });
      expect(encoded.status).toBe(200);
      expect(encoded.body).toMatchObject({ id: child, path: 'a/child', markdown: 'Child body.\n' });
      const raw = await get(`${S()}/content/path/a/child`, { query: { format: 'markdown' } });
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual(encoded.body);
      expect((await get(`${S()}/content/path/a`)).body.id).toBe(pageA);
      expect((await get(`${S()}/content/path/%2Fa%2Fchild`)).body.id).toBe(child);
      expect((await get(`${S()}/content/path/a%2Fnope`)).status).toBe(404);
      expect((await get(`${S()}/content/path/a/child/deeper`)).status).toBe(404);
    });

    it('unknown page 404', async () => {
      const res = await get(`${S()}/content/page/no-such-page`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Page not found');
    });
  });

  describe('GET {S}/revisions/{revisionId}/...', () => {
    it('an older revision still shows the old content after an edit; the current one the new', async () => {
      const before = revision;
      const next = await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
        e.updatePage(pageA, { title: 'A renamed', markdown: 'New body.\n' });
        e.deletePage(pageB);
        e.removeFile(textFile.id);
        e.setVariables({ name: 'Later' });
      });
      t.clock.advance(1000);
      try {
        const current = await get(`${S()}/content`);
        expect(current.body.id).toBe(next);
        expect(current.body.parents).toEqual([before]);
        expect(current.body.pages.map((p: any) => p.title)).toEqual(['A renamed']);
        expect((await get(`${S()}`)).body.revision).toBe(next);

        const old = await get(`${S()}/revisions/${before}`);
        expect(old.status).toBe(200);
        expect(old.body.id).toBe(before);
        expect(old.body.variables).toEqual({ name: 'Quire' });
        expect(old.body.pages.map((p: any) => p.title)).toEqual(['A', 'B']);
        expect(old.body.files).toHaveLength(2);
        const oldPages = await get(`${S()}/revisions/${before}/pages`);
        expect(oldPages.body.pages.map((p: any) => p.id)).toEqual([pageA, pageB]);
        const oldPage = await get(`${S()}/revisions/${before}/page/${pageA}`, { query: { format: 'markdown', evaluated: true } });
        expect(oldPage.body.markdown).toBe('## Hi\n\nHello Quire from World.\n');
        const newPage = await get(`${S()}/content/page/${pageA}`, { query: { format: 'markdown' } });
        expect(newPage.body.markdown).toBe('New body.\n');
        expect((await get(`${S()}/revisions/${before}/path/a%2Fchild`)).body.id).toBe(child);
        expect((await get(`${S()}/revisions/${before}/path/a/child`)).body.id).toBe(child);
        expect((await get(`${S()}/revisions/${before}/path/b`)).body.id).toBe(pageB);
        expect((await get(`${S()}/content/path/b`)).status).toBe(404);
        expect((await get(`${S()}/revisions/${before}/files`)).body.count).toBe(2);
        expect((await get(`${S()}/revisions/${before}/files/${textFile.id}`)).body.name).toBe('notes file.txt');
        expect((await get(`${S()}/content/files/${textFile.id}`)).status).toBe(404);
        expect((await get(`${S()}/revisions/${before}/page/${pageB}`)).body.id).toBe(pageB);
        expect((await get(`${S()}/content/page/${pageB}`)).status).toBe(404);
        const empty = await get(`${S()}/revisions/${firstRevision}`);
        expect(empty.body).toMatchObject({ id: firstRevision, parents: [], pages: [], files: [] });
      } finally {
        revision = next;
      }
    });

    it('unknown revision 404, a revision of another space 404; 401; guests 404', async () => {
      const res = await get(`${S()}/revisions/no-such-revision`);
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('Revision not found');
      for (const suffix of ['/pages', '/files', `/files/${pngFile.id}`, `/page/${pageA}`, '/path/a']) {
        expect((await get(`${S()}/revisions/no-such-revision${suffix}`)).status, suffix).toBe(404);
      }
      const other = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: {} });
      expect((await get(`${S()}/revisions/${other.body.revision}`)).status).toBe(404);
      expect((await get(`/v1/spaces/${other.body.id}/revisions/${firstRevision}`)).status).toBe(404);
      expect((await t.request('GET', `${S()}/revisions/${firstRevision}`)).status).toBe(401);
      expect((await t.request('GET', `${S()}/revisions/${firstRevision}`, { token: guest.token })).status).toBe(404);
      expect((await get(`${S()}/revisions/${firstRevision}/page/no-such-page`)).status).toBe(404);
      expect((await get(`${S()}/revisions/${firstRevision}/files/no-such-file`)).status).toBe(404);
    });

    it('a public space is readable by a user of another organization; a share-link one with its key', async () => {
      await t.request('PATCH', S(), { token: admin.token, body: { visibility: 'public' } });
      expect((await t.request('GET', `${S()}/content/page/${pageA}`, { token: outsider.token })).status).toBe(200);
      await t.request('PATCH', S(), { token: admin.token, body: { visibility: 'share-link' } });
      expect((await t.request('GET', `${S()}/content/page/${pageA}`, { token: outsider.token })).status).toBe(404);
      const { share_key } = await t.db.selectFrom('spaces').select('share_key').where('id', '=', spaceId).executeTakeFirstOrThrow();
      expect((await t.request('GET', `${S()}/content/page/${pageA}`, { token: outsider.token, query: { shareKey: share_key } })).status).toBe(200);
      expect((await t.request('GET', `${S()}/content/path/a-renamed`, { token: outsider.token, query: { shareKey: share_key } })).status).toBe(200);
      await t.request('PATCH', S(), { token: admin.token, body: { visibility: 'private' } });
    });
  });
});
