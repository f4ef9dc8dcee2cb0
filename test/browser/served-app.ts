import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createTestApp, secondServer, testDialect, type TestApp } from '../app.ts';
import type { RevisionEditor } from '../../src/content/store/editor.ts';
import { createOrganization } from '../factories.ts';
import { freePort } from '../process.ts';
import { publishSite, spaceWith, TestBrowser } from './fixtures.ts';

/**
 * A test app listening on a free loopback port, its PUBLIC_URL that address (the app's
 * links, cookies and origin checks must match what the browser opens). With `downloads`,
 * DOWNLOAD_URL is that address too: signed download URLs (uploads, images, covers) are made
 * with it, read at start, so the port is chosen before the app is built.
 */
export async function servedTestApp(
  config: Parameters<typeof createTestApp>[0] = {},
  options: { downloads?: boolean } = {},
): Promise<{ t: TestApp; url: string }> {
  if (options.downloads) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const t = await createTestApp({ publicUrl: url, downloadUrl: url, ...config });
    await t.app.listen({ port, host: '127.0.0.1' });
    return { t, url };
  }
  const t = await createTestApp({ publicUrl: 'http://127.0.0.1', ...config });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.config.publicUrl = url;
  return { t, url };
}

/**
 * On PostgreSQL, a second server process on the test app's database at its own address
 * (what two members behind a load balancer reach); undefined on SQLite, whose database is
 * this process's alone.
 */
export async function secondProcess(t: TestApp): Promise<{ app: FastifyInstance; url: string } | undefined> {
  if (testDialect !== 'postgres') return undefined;
  // Its own config: its PUBLIC_URL is its own address, set once it listens.
  const config = { ...t.config };
  const { app, port } = await secondServer(t, config);
  const url = `http://127.0.0.1:${port}`;
  config.publicUrl = url;
  return { app, url };
}

/**
 * A served app with one organization's space, its content written by `fill`, published at
 * /sites/{basename}, and Chromium (its screenshots in `shots`): the start of a test of what a
 * published page shows. `downloads`: as servedTestApp's (the space's files served signed).
 */
export async function publishedSpace(
  input: { title: string; basename: string; shots: string; downloads?: boolean },
  fill: (e: RevisionEditor) => unknown,
): Promise<{ t: TestApp; url: string; browser: TestBrowser }> {
  const { t, url } = await servedTestApp({}, { downloads: input.downloads });
  const org = await createOrganization(t);
  const space = await spaceWith(t, org, input.title, fill);
  await publishSite(t, org, { title: input.title, basename: input.basename, spaces: [space] });
  return { t, url, browser: await TestBrowser.launch(input.shots) };
}
