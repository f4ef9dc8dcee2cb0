import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDERS_30_YAML, startSpecServer, UNPARSABLE, type SpecServer } from '../../src/modules/openapi-specs/openapi-specs.fixtures.ts';
import { LANGUAGES } from '../../src/site/highlight.ts';
import { createRepository, git, startGitServer, type GitServer } from '../git-server.ts';
import { freshEnvironment, startServer, type Environment, type RunningServer } from '../process.ts';
import { startS3, type TestS3 } from '../s3.ts';
import { attr, buildResponse, decodeRedirect, generateIdpKeys, postBody } from '../saml-idp.ts';
import { startProviderStandIn, type ProviderStandIn } from '../translation-providers.ts';

/*
 * Smoke suite of the server users run (issue 29): `npm start`'s command on dist/, one
 * process on a fresh SQLite folder or PostgreSQL schema (DATABASE_URL), spoken to only
 * over HTTP, through every feature whose code loads on first use (SAML, outbound fetches
 * for OpenAPI sources, translations and insert_files, the S3 store, PDF export, each
 * highlighted language, git over smart HTTP). Each outside party is a stand-in on
 * 127.0.0.1. The suite's own run is what `npm test` never proved: that the build loads
 * what the sources load.
 */

const TOKEN = 'qr_smoke_built_server_admin_token_1';
const PUBLIC_URL = 'http://quire.test';
const ADMIN_EMAIL = 'admin@quire.local';

/** One short sample per highlighted language, each with at least two kinds of token. */
const SAMPLES: Record<keyof typeof LANGUAGES, string> = {
  bash: 'if [ -n "$HOME" ]; then\n  echo "home is $HOME" # say so\nfi',
  c: '#include <stdio.h>\nint main(void) { return printf("hi\\n"); }',
  cpp: '#include <vector>\nclass Box { public: int size() const { return 42; } };',
  csharp: 'public class Box { public int Size => 42; }',
  css: '.box > a:hover { color: #ff0000; margin: 0 auto; }',
  diff: '--- a/file.txt\n+++ b/file.txt\n@@ -1 +1 @@\n-old line\n+new line',
  docker: 'FROM node:22-slim\nRUN npm ci --omit=dev\nCMD ["node", "server.js"]',
  go: 'package main\n\nfunc main() { fmt.Println("hi", 42) }',
  graphql: 'query Space($id: ID!) { space(id: $id) { title } }',
  html: '<a href="/docs" class="link">Docs</a>',
  http: 'GET /v1/orgs HTTP/1.1\nAuthorization: Bearer token',
  ini: '[server]\nport = 8080 ; the port',
  java: 'public class Box { private final int size = 42; }',
  javascript: 'const answer = 42; // the answer\nexport default function f() { return "x"; }',
  json: '{ "name": "quire", "port": 8080, "public": true }',
  jsx: 'const Link = () => <a href="/docs">Docs</a>;',
  kotlin: 'fun main() { val answer: Int = 42; println("hi") }',
  markdown: '# Title\n\nSome **bold** text and a [link](https://example.com).',
  php: '<?php\nfunction answer(): int { return 42; }',
  powershell: '$answer = 42\nWrite-Host "answer is $answer"',
  python: 'def answer(x: int) -> int:\n    return x + 42  # comment',
  ruby: 'def answer(x)\n  x + 42 # comment\nend',
  rust: 'fn main() { let answer: u32 = 42; println!("{}", answer); }',
  scss: '$main: #333;\n.box { color: $main; &:hover { color: red; } }',
  sql: "SELECT id, title FROM spaces WHERE title = 'Docs' LIMIT 10;",
  swift: 'let answer: Int = 42\nfunc hello() -> String { return "hi" }',
  toml: '[server]\nport = 8080\nname = "quire"',
  tsx: 'const Link = (props: { to: string }) => <a href={props.to}>Docs</a>;',
  typescript: 'interface Box { size: number }\nconst box: Box = { size: 42 };',
  xml: '<?xml version="1.0"?>\n<root attr="v"><child/></root>',
  yaml: 'server:\n  port: 8080\n  name: "quire" # comment',
};

describe('the built server (npm start on dist/)', { timeout: 120_000 }, () => {
  let e: Environment;
  let server: RunningServer;
  let s3: TestS3;
  let specs: SpecServer;
  let libre: ProviderStandIn;
  let gitServer: GitServer;
  let files: http.Server;
  let filesUrl: string;
  let orgId: string;
  let tmp: string;
  const FILE_BYTES = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>\n');

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-smoke-'));
    [s3, specs, libre, gitServer] = await Promise.all([
      startS3(),
      startSpecServer({ 'orders.yaml': ORDERS_30_YAML, 'broken.yaml': UNPARSABLE }),
      startProviderStandIn('libretranslate'),
      startGitServer(),
    ]);
    files = http.createServer((req, res) => {
      if (req.url === '/logo.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(FILE_BYTES);
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    e = await freshEnvironment();
    server = await startServer(
      {
        ...e.env,
        ...s3.env,
        PUBLIC_URL,
        BOOTSTRAP_ADMIN_TOKEN: TOKEN,
        OUTBOUND_ALLOW_PRIVATE: 'true',
        TRANSLATION_PROVIDER: 'libretranslate',
        TRANSLATION_API_URL: libre.url,
        JOBS_POLL_INTERVAL_MS: '100',
      },
      // Builds first when dist/ is older than src/; on a loaded machine that takes minutes.
      { built: true, startTimeoutMs: 600_000 },
    );
    orgId = (await api('GET', '/v1/orgs')).body.items[0].id;
  }, 660_000);

  afterAll(async () => {
    await server?.stop();
    await Promise.all([
      e?.cleanup(),
      s3?.stop(),
      specs?.close(),
      libre?.close(),
      gitServer?.close(),
      files && new Promise((resolve) => files.close(resolve)),
    ]);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }, 60_000);

  async function api(method: string, url: string, body?: unknown) {
    const res = await fetch(server.url + url, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: any;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text };
  }

  /** A URL the server emitted (on PUBLIC_URL) fetched from the server itself; others as they are. */
  async function download(emitted: string) {
    const target = emitted.startsWith(PUBLIC_URL) ? server.url + emitted.slice(PUBLIC_URL.length) : emitted;
    const res = await fetch(target);
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  /** Polls `read` until `done` holds of its value (jobs run in the server's own worker). */
  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function newSpace(title: string): Promise<string> {
    const res = await api('POST', `/v1/orgs/${orgId}/spaces`, { title });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  /** Pages added through a change request, merged; returns the space's page paths by title. */
  async function addPages(spaceId: string, pages: { title: string; markdown: string }[]): Promise<Record<string, string>> {
    const cr = await api('POST', `/v1/spaces/${spaceId}/change-requests`, {});
    expect(cr.status, cr.text).toBe(201);
    const applied = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })),
    });
    expect(applied.status, applied.text).toBe(200);
    const merged = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
    expect(merged.status, merged.text).toBe(200);
    const content = await api('GET', `/v1/spaces/${spaceId}/content`);
    expect(content.status).toBe(200);
    return Object.fromEntries(content.body.pages.map((p: any) => [p.title, p.path]));
  }

  /** Publishes the space as a site at /sites/<basename>/. */
  async function publish(spaceId: string, basename: string): Promise<void> {
    const site = await api('POST', `/v1/orgs/${orgId}/sites`, { title: basename, spaces: [spaceId] });
    expect(site.status, site.text).toBe(201);
    expect((await api('PATCH', `/v1/orgs/${orgId}/sites/${site.body.id}`, { basename })).status).toBe(200);
    const published = await api('POST', `/v1/orgs/${orgId}/sites/${site.body.id}/publish`);
    expect(published.status, published.text).toBeLessThan(300);
  }

  async function sitePage(basename: string, pagePath: string): Promise<string> {
    const res = await fetch(`${server.url}/sites/${basename}/${pagePath}`);
    const html = await res.text();
    expect(res.status, html.slice(0, 500)).toBe(200);
    return html;
  }

  it('SAML: start URL, signed response at the ACS, a session for the existing member', async () => {
    const keys = await generateIdpKeys();
    const created = await api('POST', `/v1/orgs/${orgId}/saml`, {
      label: 'IdP',
      entityID: 'http://idp.test',
      ssoURL: 'http://idp.test/sso',
      certificate: keys.certificate,
    });
    expect(created.status, created.text).toBe(201);
    const service = created.body.service as { entityID: string; acsURL: string; startURL: string };
    const local = (url: string) => server.url + new URL(url).pathname;

    const started = await fetch(local(service.startURL), { redirect: 'manual' });
    expect(started.status).toBe(303);
    // The sign-in is bound to the browser that started it (its nonce cookie, docs/security.md).
    const nonce = started.headers.get('set-cookie')!.split(';')[0];
    const request = decodeRedirect(started.headers.get('location')!);
    expect(request.url.toString()).toMatch(/^http:\/\/idp\.test\/sso\?/);
    const xml = buildResponse({
      issuer: 'http://idp.test',
      audience: service.entityID,
      acsUrl: service.acsURL,
      inResponseTo: attr(request.xml, 'ID')!,
      nameId: ADMIN_EMAIL,
      keys,
    });
    const signedIn = await fetch(local(service.acsURL), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: nonce },
      body: postBody(xml, '/app/account'),
    });
    expect(signedIn.status, await signedIn.clone().text()).toBe(303);
    const cookie = /quire_session=[^;]+/.exec(signedIn.headers.getSetCookie().join('\n'))?.[0];
    expect(cookie).toBeDefined();
    const account = await fetch(`${server.url}/app/account`, { headers: { cookie: cookie! }, redirect: 'manual' });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(ADMIN_EMAIL);
  });

  it('OpenAPI: a spec from source.url is processed and rendered on a published site; a broken one reaches PARSE_ERROR', async () => {
    const created = await api('POST', `/v1/orgs/${orgId}/openapi`, { slug: 'orders', source: { url: `${specs.url}/orders.yaml` } });
    expect(created.status, created.text).toBe(201);
    const broken = await api('POST', `/v1/orgs/${orgId}/openapi`, { slug: 'broken', source: { url: `${specs.url}/broken.yaml` } });
    expect(broken.status, broken.text).toBe(201);
    const done = (slug: string) =>
      until(`spec ${slug}`, async () => (await api('GET', `/v1/orgs/${orgId}/openapi/${slug}`)).body, (spec) => spec.processingState === 'complete');
    const [orders, failed] = await Promise.all([done('orders'), done('broken')]);
    expect(orders.lastProcessErrorCode).toBeUndefined();
    expect(orders.lastVersion).toBeDefined();
    expect(failed.lastProcessErrorCode).toBe('PARSE_ERROR');

    const spaceId = await newSpace('API');
    const paths = await addPages(spaceId, [
      { title: 'Orders', markdown: 'Change orders.\n\n{% openapi-operation spec="orders" path="/orders/{orderId}" method="patch" %}\n{% endopenapi-operation %}\n' },
    ]);
    await publish(spaceId, 'smoke-api');
    const html = await sitePage('smoke-api', paths.Orders);
    expect(html).toContain('<span class="oa-method oa-m-patch">PATCH</span><code class="oa-path">/orders/{orderId}</code>');
    expect(html).toContain('<h3 class="oa-summary">Update an order</h3>');
  });

  it('translation: a run through the LibreTranslate stand-in completes', async () => {
    const spaceId = await newSpace('Handbook');
    await addPages(spaceId, [{ title: 'Welcome', markdown: 'Hello **there**, reader.\n' }]);
    const created = await api('POST', `/v1/orgs/${orgId}/translations`, { source: { space: spaceId, language: 'en' }, language: 'fr' });
    expect(created.status, created.text).toBe(201);
    const translation = await until(
      'translation',
      async () => (await api('GET', `/v1/orgs/${orgId}/translations/${created.body.id}`)).body,
      (t) => t.status === 'completed' || t.status === 'failed',
    );
    expect(translation.status, JSON.stringify(translation)).toBe('completed');
    expect(translation.result?.space).toBeDefined();
    expect(libre.segments().join(' ')).toContain('reader');
  });

  it('change request insert_files from a URL stores the file (in S3) and serves it back', async () => {
    const spaceId = await newSpace('Files');
    const cr = await api('POST', `/v1/spaces/${spaceId}/change-requests`, {});
    const inserted = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'logo.svg', url: `${filesUrl}/logo.svg` }] }],
    });
    expect(inserted.status, inserted.text).toBe(200);
    expect(inserted.body.insertedFiles.map((f: any) => [f.name, f.contentType, f.size])).toEqual([['logo.svg', 'image/svg+xml', FILE_BYTES.length]]);
    const fetched = await download(inserted.body.insertedFiles[0].downloadURL);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(FILE_BYTES)).toBe(true);
  });

  it('S3 file store: an uploaded file lands in the bucket and downloads through its signed URL', async () => {
    const spaceId = await newSpace('Uploads');
    const cr = await api('POST', `/v1/spaces/${spaceId}/change-requests`, {});
    const bytes = Buffer.alloc(300_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    const inserted = await api('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'data.bin', contentType: 'application/octet-stream', base64: bytes.toString('base64') }] }],
    });
    expect(inserted.status, inserted.text).toBe(200);
    const listed = await api('GET', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/files`);
    expect(listed.status).toBe(200);
    const fetched = await download(listed.body.items[0].downloadURL);
    expect(fetched.status).toBe(200);
    expect(fetched.bytes.equals(bytes)).toBe(true);
    // Stored in the bucket, not on the server's disk.
    expect(fs.existsSync(path.join(e.dataDir, 'blobs'))).toBe(false);
    const listing = await fetch(`${s3.endpoint}/${s3.bucket}?list-type=2`);
    expect(listing.status).toBe(200);
    expect(await listing.text()).toMatch(/<Key>[^<]+<\/Key>/);
  });

  it('PDF export: the file is served and its text holds the page', async () => {
    const spaceId = await newSpace('Printed');
    await addPages(spaceId, [{ title: 'Printing', markdown: 'Quokkas print beautifully on paper.\n' }]);
    const exported = await api('GET', `/v1/spaces/${spaceId}/pdf`);
    expect(exported.status, exported.text).toBe(200);
    const pdf = await download(exported.body.url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const file = path.join(tmp, 'export.pdf');
    fs.writeFileSync(file, pdf.bytes);
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Printing');
    expect(text).toContain('Quokkas print beautifully on paper.');
  });

  it('highlights every language it claims to, each block with colored tokens', async () => {
    const languages = Object.keys(LANGUAGES) as (keyof typeof LANGUAGES)[];
    expect(Object.keys(SAMPLES).sort()).toEqual([...languages].sort());
    for (const named of ['bash', 'typescript', 'yaml', 'json', 'python']) expect(languages).toContain(named);
    const spaceId = await newSpace('Code');
    const markdown = languages.map((language) => `\`\`\`${language}\n${SAMPLES[language]}\n\`\`\`\n`).join('\n');
    const paths = await addPages(spaceId, [{ title: 'Samples', markdown }]);
    await publish(spaceId, 'smoke-code');
    const html = await sitePage('smoke-code', paths.Samples);

    const blocks = new Map<string, string>();
    for (const match of html.matchAll(/<pre class="shiki[^"]*"[^>]*><code class="language-([^"]+)">([\s\S]*?)<\/code><\/pre>/g)) blocks.set(match[1], match[2]);
    const plain: string[] = [];
    for (const language of languages) {
      const block = blocks.get(language);
      expect(block, `no code block for ${language}`).toBeDefined();
      // A grammar at work gives tokens of more than one color; an unloaded one gives none.
      const colors = new Set([...block!.matchAll(/<span style="color:(#[0-9A-Fa-f]+)/g)].map((m) => m[1].toUpperCase()));
      if (colors.size < 2) plain.push(`${language} (${colors.size} colors)`);
    }
    expect(plain).toEqual([]);
  });

  it('markdown past the inline allowance is read on a thread of the built server, and read back as written', async () => {
    // 40 KB: past MARKDOWN_READ_INLINE_BYTES, so the compiled read-thread.js runs, under npm start's own Node options.
    const section = (i: number) => `## Part ${i}\n\nSome _text_ with \`code\` and a [link](https://example.com/${i}).\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n`;
    const markdown = Array.from({ length: 400 }, (_, i) => section(i)).join('\n');
    const spaceId = await newSpace('Long page');
    await addPages(spaceId, [{ title: 'Long', markdown }]);
    const pages = await api('GET', `/v1/spaces/${spaceId}/content/pages`);
    const read = await api('GET', `/v1/spaces/${spaceId}/content/page/${pages.body.pages[0].id}?format=markdown`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.markdown).toBe(markdown);
  });

  it('git: imports a repository and exports the space over smart HTTP', async () => {
    const repo = createRepository(gitServer, 'smoke', {
      'README.md': '# Welcome\n\nImported from git.\n',
      'guide.md': '# Guide\n\nSteps to follow.\n',
    });
    const spaceId = await newSpace('From git');
    const imported = await api('POST', `/v1/spaces/${spaceId}/git/import`, { url: gitServer.url('smoke'), ref: 'refs/heads/main' });
    expect(imported.status, imported.text).toBe(204);
    const content = await until(
      'git import',
      async () => (await api('GET', `/v1/spaces/${spaceId}/content`)).body,
      (c) => c.git?.oid === git(repo.bare, 'rev-parse', 'main').trim(),
    );
    expect(content.pages.map((p: any) => p.title).sort()).toEqual(['Guide', 'Welcome']);

    await addPages(spaceId, [{ title: 'Added', markdown: 'Written in Quire.\n' }]);
    const exported = await api('POST', `/v1/spaces/${spaceId}/git/export`, { url: gitServer.url('smoke'), ref: 'refs/heads/exported', commitMessage: 'From Quire' });
    expect(exported.status, exported.text).toBe(204);
    await until(
      'git export',
      async () => git(repo.bare, 'for-each-ref', '--format=%(subject)', 'refs/heads/exported').trim(),
      (subject) => subject === 'From Quire',
    );
    const tree = git(repo.bare, 'ls-tree', '-r', '--name-only', 'refs/heads/exported');
    expect(tree).toMatch(/added\.md/);
    expect(git(repo.bare, 'show', 'refs/heads/exported:README.md')).toContain('Imported from git.');
  });
});
