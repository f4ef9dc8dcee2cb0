import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshEnvironment, startServer, type RunningServer } from './process.ts';
import { startS3 } from './s3.ts';

/*
 * Two server processes on one PostgreSQL database, each with its own DATA_DIR (no shared
 * disk): a file uploaded through one (change-request insert_files) downloads through the
 * other, and so does a PDF export made by one, with the default store (the database) and
 * with FILE_STORE=s3 against s3rver.
 */

const TOKEN = 'qr_files_processes_admin_token_1';

async function call(server: RunningServer, method: string, url: string, body?: unknown) {
  const res = await fetch(server.url + url, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A URL the server emitted (on PUBLIC_URL), fetched from `server` instead. */
async function download(server: RunningServer, emitted: string) {
  const url = new URL(emitted);
  const res = await fetch(server.url + url.pathname + url.search);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe.runIf(process.env.DATABASE_URL)('files across server processes on one PostgreSQL', { timeout: 420_000 }, () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function twoServers(extra: Record<string, string>): Promise<{ a: RunningServer; b: RunningServer; dirs: string[] }> {
    const e = await freshEnvironment();
    cleanups.push(() => e.cleanup());
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-proc-b-'));
    cleanups.push(async () => fs.rmSync(otherDir, { recursive: true, force: true }));
    const env = { ...e.env, ...extra, BOOTSTRAP_ADMIN_TOKEN: TOKEN };
    const a = await startServer(env);
    cleanups.push(() => a.stop('SIGKILL'));
    const b = await startServer({ ...env, DATA_DIR: otherDir });
    cleanups.push(() => b.stop('SIGKILL'));
    return { a, b, dirs: [e.dataDir, otherDir] };
  }

  async function uploadThroughOneDownloadThroughOther(a: RunningServer, b: RunningServer) {
    const org = (await call(a, 'GET', '/v1/orgs')).body.items[0];
    const space = await call(a, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Shared files' });
    expect(space.status).toBe(201);
    const cr = await call(a, 'POST', `/v1/spaces/${space.body.id}/change-requests`, {});
    const bytes = Buffer.alloc(700_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff;
    const inserted = await call(a, 'POST', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_files', files: [{ name: 'data.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }] },
        { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nPrinted by one process, served by the other.\n' } },
      ],
    });
    expect(inserted.status, JSON.stringify(inserted.body)).toBe(200);
    expect(inserted.body.insertedFiles).toHaveLength(1);

    // B lists the file and serves its bytes; B also serves the URL A signed.
    const files = await call(b, 'GET', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/content/files`);
    expect(files.status).toBe(200);
    const fromB = await download(b, files.body.items[0].downloadURL);
    expect(fromB.status).toBe(200);
    expect(fromB.bytes.equals(bytes)).toBe(true);
    expect(fromB.headers.get('content-disposition')).toMatch(/^attachment; /);
    const signedByA = await download(b, inserted.body.insertedFiles[0].downloadURL);
    expect(signedByA.status).toBe(200);
    expect(signedByA.bytes.equals(bytes)).toBe(true);

    // A PDF export made by A is served by B.
    const pdf = await call(a, 'GET', `/v1/spaces/${space.body.id}/change-requests/${cr.body.id}/pdf`);
    expect(pdf.status).toBe(200);
    const exported = await download(b, pdf.body.url);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/pdf');
    expect(exported.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  }

  it('default store (the database): no file on either disk', async () => {
    const { a, b, dirs } = await twoServers({});
    await uploadThroughOneDownloadThroughOther(a, b);
    for (const dir of dirs) {
      expect(fs.existsSync(path.join(dir, 'blobs'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'exports'))).toBe(false);
    }
  });

  it('FILE_STORE=s3 against s3rver', async () => {
    const s3 = await startS3();
    cleanups.push(() => s3.stop());
    const { a, b, dirs } = await twoServers(s3.env);
    await uploadThroughOneDownloadThroughOther(a, b);
    for (const dir of dirs) expect(fs.existsSync(path.join(dir, 'blobs'))).toBe(false);
  });
});
