import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../app.ts';

/**
 * A test app listening on a free loopback port, its PUBLIC_URL that address (the app's
 * links, cookies and origin checks must match what the browser opens).
 */
export async function servedTestApp(config: Parameters<typeof createTestApp>[0] = {}): Promise<{ t: TestApp; url: string }> {
  const t = await createTestApp({ publicUrl: 'http://127.0.0.1', ...config });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  t.config.publicUrl = url;
  return { t, url };
}
