import { createTestApp, type TestApp } from './app.ts';
import { startGitServer, type GitServer } from './git-server.ts';

/*
 * Kept apart from git-server.ts, which the built-server smoke test imports without the app.
 */

/** A test app that may reach loopback addresses (the git server), and a git server for it. */
export async function gitSyncTestApp(
  config: Parameters<typeof createTestApp>[0] = {},
  auth?: { user: string; password: string },
): Promise<{ t: TestApp; server: GitServer }> {
  const t = await createTestApp({ outboundAllowPrivate: true, ...config });
  return { t, server: await startGitServer(auth) };
}
