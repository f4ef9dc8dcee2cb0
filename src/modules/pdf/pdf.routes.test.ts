import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { type TestOrganization, type TestUser } from '../../../test/factories.ts';
import { createRoleMatrix } from '../../../test/role-matrix.ts';
import type { Document } from '../../content/markdown/types.ts';
import { editSpaceContent } from '../content/content.service.ts';
import { PDF_TTL_MS, sweepExpiredPdfs } from './pdf.service.ts';

/*
 * PDF exports (GET {S}/pdf, GET {CR}/pdf): the URL answered, the file it serves read back
 * with poppler's pdftotext and pdfimages, GitBook's page selection, reuse per revision,
 * access, and expiry on the app clock. Runs on SQLite, and on PostgreSQL when
 * DATABASE_URL is set.
 */

/** CRC-32 of PNG chunks. */
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A valid RGB PNG of the given size (every pixel blue). */
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
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0, 0, 255]))])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const GUIDE = `Welcome to **Quire** with *emphasis* and \`inline code\` and <code class="expression">space.vars.product</code>.

## Configuration heading

- Unordered alpha
- Unordered beta
  - Nested gamma

1. Ordered first
2. Ordered second

- [x] Task done
- [ ] Task open

\`\`\`js
const answer = 42;
    indented();
\`\`\`

| Setting | Default |
| ------- | ------- |
| cellTimeout | cell30s |
| cellRetries | cell3 |

{% hint style="warning" %}
Hint boxed text
{% endhint %}

> Quoted wisdom

### Deep heading

Accents: Café, ő → done.

Closing paragraph.
`;

const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
const paragraph = (value: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [text(value)] });
const image = (file: string, caption?: string) => ({
  object: 'block',
  type: 'image',
  isVoid: true,
  data: { ref: { kind: 'file', file } },
  fragments: caption ? [{ object: 'fragment', fragment: 'caption', nodes: [paragraph(caption)] }] : [],
});

describe('PDF exports', () => {
  let t: TestApp;
  let org: TestOrganization;
  let admin: TestUser;
  let reader: TestUser;
  let editor: TestUser;
  let guest: TestUser;
  let outsider: TestUser;
  let spaceId: string;
  let guide: string;
  let install: string;
  let pictures: string;
  let tmp: string;

  beforeAll(async () => {
    t = await createTestApp();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pdf-'));
    ({ org, admin, reader, editor, guest, outsider } = await createRoleMatrix(t, { roles: ['read', 'edit', 'guest'] }));
    const created = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Handbook' } });
    expect(created.status).toBe(201);
    spaceId = created.body.id;
    t.clock.advance(1000);
    await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => {
      e.setVariables({ product: 'Quire Server' });
      guide = e.insertPage({ title: 'Getting started', description: 'First steps', markdown: GUIDE, pages: [{ title: 'Installation', markdown: 'Install with npm.\n' }] });
      install = e.childrenOf(guide)[0].id;
      const picture = e.addFile({ name: 'diagram.png', contentType: 'image/png', bytes: png(40, 20) });
      const notes = e.addFile({ name: 'notes.txt', contentType: 'text/plain', bytes: Buffer.from('not an image') });
      const document = {
        object: 'document',
        data: {},
        nodes: [
          paragraph('Pictures intro'),
          { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [image(picture.id, 'Diagram caption'), image(notes.id)] },
        ],
      } as unknown as Document;
      pictures = e.insertPage({ title: 'Pictures', document });
    });
    t.clock.advance(1000);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const S = () => `/v1/spaces/${spaceId}`;

  async function exportUrl(url: string, query: Record<string, string | boolean> = {}, token = reader.token): Promise<string> {
    const res = await t.request('GET', url, { token, query });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['url']);
    expect(res.body.url).toMatch(/^http:\/\/quire\.test\/v1\/exports\/pdf\/[A-Za-z0-9_-]{43}$/);
    return res.body.url;
  }

  const download = (url: string) => t.app.inject({ method: 'GET', url: url.replace('http://quire.test', '') });

  async function pdfBytes(url: string): Promise<Buffer> {
    const res = await download(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    return bytes;
  }

  function poppler(tool: 'pdftotext' | 'pdfimages', bytes: Buffer, args: string[]): string {
    const file = path.join(tmp, `${Math.random().toString(36).slice(2)}.pdf`);
    fs.writeFileSync(file, bytes);
    return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  }
  const pdfText = (bytes: Buffer) => poppler('pdftotext', bytes, []);
  /** Image rows of `pdfimages -list` (after its two header lines). */
  const pdfImages = (bytes: Buffer) =>
    poppler('pdfimages', bytes, ['-list'])
      .trim()
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '');

  // The export's bytes in the file store (whichever backend the run uses), by the hash its row names.
  const exportHash = async (url: string) =>
    (await t.db.selectFrom('pdf_exports').select('file_hash').where('id', '=', url.split('/').pop()!).executeTakeFirstOrThrow()).file_hash!;
  const stored = (hash: string) => t.app.deps.files.exists('exports', hash);

  describe('GET {S}/pdf (getSpacePDF)', () => {
    it('a URL to a PDF of every page in tree order: titles, text, headings, lists, code, tables, hints, quotes', async () => {
      const url = await exportUrl(`${S()}/pdf`);
      const res = await download(url);
      expect(res.headers['content-disposition']).toContain('Handbook.pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const content = pdfText(await pdfBytes(url));
      for (const expected of [
        'Getting started',
        'First steps',
        'Welcome to Quire with emphasis and inline code and Quire Server.',
        'Configuration heading',
        'Unordered alpha',
        'Unordered beta',
        'Nested gamma',
        'Ordered first',
        'Ordered second',
        'Task done',
        'Task open',
        'const answer = 42;',
        'indented();',
        'Setting',
        'Default',
        'cellTimeout',
        'cell30s',
        'cellRetries',
        'cell3',
        'Hint boxed text',
        'Quoted wisdom',
        'Deep heading',
        // Beyond WinAnsi: transliterated where Unicode allows.
        'Accents: Café, o -> done.',
        'Closing paragraph.',
        'Installation',
        'Install with npm.',
        'Pictures',
        'Pictures intro',
        'Diagram caption',
      ]) {
        expect(content, expected).toContain(expected);
      }
      expect(content).toMatch(/1\.\s+Ordered first/);
      const order = ['Getting started', 'Installation', 'Pictures intro'].map((s) => content.indexOf(s));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      // One PDF page per content page (at least), numbered.
      expect(content).toMatch(/\b1 ?\/ ?\d+\b/);
    });

    it('images of the revision are embedded (PNG and JPEG; other files skipped)', async () => {
      const whole = await pdfBytes(await exportUrl(`${S()}/pdf`));
      expect(pdfImages(whole)).toHaveLength(1);
      expect(pdfImages(whole)[0]).toMatch(/\b40\s+20\b/);
      const onlyPictures = await pdfBytes(await exportUrl(`${S()}/pdf`, { page: pictures, only: true }));
      expect(pdfImages(onlyPictures)).toHaveLength(1);
      const noPictures = await pdfBytes(await exportUrl(`${S()}/pdf`, { page: guide }));
      expect(pdfImages(noPictures)).toHaveLength(0);
    });

    it('page selection: `page` is the page and its subpages, with `only` the page alone; an unknown page is 404', async () => {
      const subtree = pdfText(await pdfBytes(await exportUrl(`${S()}/pdf`, { page: guide })));
      expect(subtree).toContain('Getting started');
      expect(subtree).toContain('Install with npm.');
      expect(subtree).not.toContain('Pictures intro');

      const single = pdfText(await pdfBytes(await exportUrl(`${S()}/pdf`, { page: guide, only: true })));
      expect(single).toContain('Getting started');
      expect(single).toContain('Closing paragraph.');
      expect(single).not.toContain('Install with npm.');
      expect(single).not.toContain('Pictures intro');

      const child = pdfText(await pdfBytes(await exportUrl(`${S()}/pdf`, { page: install, only: true })));
      expect(child).toContain('Install with npm.');
      expect(child).not.toContain('Closing paragraph.');

      // `only` without a page: every page.
      const all = pdfText(await pdfBytes(await exportUrl(`${S()}/pdf`, { only: true })));
      expect(all).toContain('Pictures intro');

      const missing = await t.request('GET', `${S()}/pdf`, { token: reader.token, query: { page: 'no-such-page' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: { code: 404, message: 'Page not found' } });
      expect((await t.request('GET', `${S()}/pdf`, { token: reader.token, query: { only: 'maybe' } })).status).toBe(400);
    });

    it('one file per revision and selection while it lives; a new revision makes a new one', async () => {
      const first = await exportUrl(`${S()}/pdf`, { page: guide });
      expect(await exportUrl(`${S()}/pdf`, { page: guide }, admin.token)).toBe(first);
      expect(await exportUrl(`${S()}/pdf`, { page: guide, only: true })).not.toBe(first);
      // Two requests at once make one file.
      const [a, b] = await Promise.all([exportUrl(`${S()}/pdf`, { page: install }), exportUrl(`${S()}/pdf`, { page: install })]);
      expect(a).toBe(b);

      await editSpaceContent(t.app.deps, spaceId, admin.id, (e) => e.updatePage(guide, { title: 'Getting started, revised' }));
      t.clock.advance(1000);
      const next = await exportUrl(`${S()}/pdf`, { page: guide });
      expect(next).not.toBe(first);
      expect(pdfText(await pdfBytes(next))).toContain('Getting started, revised');
      // The earlier file still serves the earlier revision until it expires.
      expect(pdfText(await pdfBytes(first))).not.toContain('revised');
    });

    it('401 without a token; 404 for guests without access, outsiders and unknown spaces; visitors of a public space may export it', async () => {
      expect((await t.request('GET', `${S()}/pdf`)).status).toBe(401);
      for (const token of [guest.token, outsider.token]) {
        const res = await t.request('GET', `${S()}/pdf`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: { code: 404, message: 'Space not found' } });
      }
      expect((await t.request('GET', '/v1/spaces/no-such-space/pdf', { token: admin.token })).status).toBe(404);

      const other = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Open book', visibility: 'public' } });
      expect(other.status).toBe(201);
      await editSpaceContent(t.app.deps, other.body.id, admin.id, (e) => e.insertPage({ title: 'Public page', markdown: 'Anyone may read.\n' }));
      const url = await exportUrl(`/v1/spaces/${other.body.id}/pdf`, {}, outsider.token);
      expect(pdfText(await pdfBytes(url))).toContain('Anyone may read.');
    });

    it('a space without pages still gives a PDF', async () => {
      const empty = await t.request('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Empty shelf' } });
      const content = pdfText(await pdfBytes(await exportUrl(`/v1/spaces/${empty.body.id}/pdf`, {}, admin.token)));
      expect(content).toContain('Empty shelf');
    });
  });

  describe('GET {CR}/pdf (getChangeRequestPDF)', () => {
    it('the change request’s draft content, by id or number, with page selection; access as for the change request', async () => {
      const opened = await t.request('POST', `${S()}/change-requests`, { token: editor.token, body: { subject: 'Draft work' } });
      expect(opened.status).toBe(201);
      const CR = `${S()}/change-requests/${opened.body.id}`;
      const batch = await t.request('POST', `${CR}/content`, {
        token: editor.token,
        query: { compat: false },
        body: { changes: [{ operation: 'insert_page', ref: 'draft', title: 'Draft page', document: { markdown: 'Only in the draft.\n' } }] },
      });
      expect(batch.status, batch.text).toBe(200);
      const draftPage = batch.body.changes[0].page.id;
      t.clock.advance(1000);

      const url = await exportUrl(`${CR}/pdf`);
      expect((await download(url)).headers['content-disposition']).toContain('Draft work.pdf');
      const content = pdfText(await pdfBytes(url));
      expect(content).toContain('Draft page');
      expect(content).toContain('Only in the draft.');
      expect(content).toContain('Getting started');
      expect(pdfText(await pdfBytes(await exportUrl(`${S()}/pdf`)))).not.toContain('Only in the draft.');

      const byNumber = await exportUrl(`${S()}/change-requests/${opened.body.number}/pdf`, { page: draftPage, only: true });
      const single = pdfText(await pdfBytes(byNumber));
      expect(single).toContain('Only in the draft.');
      expect(single).not.toContain('Getting started');

      expect((await t.request('GET', `${CR}/pdf`)).status).toBe(401);
      for (const token of [guest.token, outsider.token]) expect((await t.request('GET', `${CR}/pdf`, { token })).status).toBe(404);
      expect((await t.request('GET', `${S()}/change-requests/999/pdf`, { token: reader.token })).status).toBe(404);
      expect((await t.request('GET', `${CR}/pdf`, { token: reader.token, query: { page: 'nope' } })).status).toBe(404);
    });
  });

  describe('the download URL', () => {
    it('works for an hour on the app clock, then answers 404 and its file is gone; a new request makes a new URL', async () => {
      const url = await exportUrl(`${S()}/pdf`, { page: pictures });
      const hash = await exportHash(url);
      expect(await stored(hash)).toBe(true);
      t.clock.advance(PDF_TTL_MS - 1000);
      expect((await download(url)).statusCode).toBe(200);
      t.clock.advance(1000);
      const expired = await download(url);
      expect(expired.statusCode).toBe(404);
      expect(JSON.parse(expired.body)).toEqual({ error: { code: 404, message: 'Export not found' } });
      expect(await stored(hash)).toBe(false);
      expect(await t.db.selectFrom('pdf_exports').select('id').where('id', '=', url.split('/').pop()!).executeTakeFirst()).toBeUndefined();
      const again = await exportUrl(`${S()}/pdf`, { page: pictures });
      expect(again).not.toBe(url);
      expect((await download(again)).statusCode).toBe(200);
    });

    it('asking again for a live export moves its expiry to an hour from then', async () => {
      const url = await exportUrl(`${S()}/pdf`, { page: install, only: true });
      t.clock.advance(PDF_TTL_MS - 60_000);
      expect(await exportUrl(`${S()}/pdf`, { page: install, only: true })).toBe(url);
      t.clock.advance(30 * 60_000);
      expect((await download(url)).statusCode).toBe(200);
    });

    it('the sweep removes expired exports, rows and files', async () => {
      const url = await exportUrl(`${S()}/pdf`, { page: guide, only: true });
      const hash = await exportHash(url);
      t.clock.advance(PDF_TTL_MS);
      expect(await sweepExpiredPdfs(t.app.deps)).toBeGreaterThanOrEqual(1);
      expect(await stored(hash)).toBe(false);
      expect(await t.db.selectFrom('pdf_exports').select('id').where('expires_at', '<=', t.clock.now().toISOString()).execute()).toEqual([]);
      expect((await download(url)).statusCode).toBe(404);
    });

    it('404 for unknown ids and while the space is deleted; 400 for malformed ids; no token needed', async () => {
      const url = await exportUrl(`${S()}/pdf`, { page: install });
      expect((await download(url.replace(/[A-Za-z0-9_-]{43}$/, 'A'.repeat(43)))).statusCode).toBe(404);
      expect((await download(`${url}x`)).statusCode).toBe(400);
      expect((await t.request('DELETE', S(), { token: admin.token })).status).toBe(204);
      expect((await download(url)).statusCode).toBe(404);
      expect((await t.request('POST', `${S()}/restore`, { token: admin.token })).status).toBe(200);
      expect((await download(url)).statusCode).toBe(200);
    });
  });
});
