import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attr, buildResponse, decodeRedirect, generateIdpKeys, postBody, type TestIdpKeys } from './saml-idp.ts';
import { freshEnvironment, runCli, startServer, type Environment, type RunningServer } from './process.ts';

/*
 * Two server processes on one database (SQLite file or PostgreSQL schema): a sign-in
 * started on one completes on the other, a response accepted by one is refused by the
 * other, and neither logs a session id, a SAML response or an assertion.
 */
describe('SAML sign-in across server processes', () => {
  let e: Environment;
  let a: RunningServer;
  let b: RunningServer;
  let keys: TestIdpKeys;
  const token = 'qr_sso_process_test_admin_token_1234';
  let env: Record<string, string>;
  let provider: { id: string; service: { entityID: string; acsURL: string; startURL: string } };

  beforeAll(async () => {
    e = await freshEnvironment();
    env = { ...e.env, PUBLIC_URL: 'http://quire.test', BOOTSTRAP_ADMIN_TOKEN: token, LOG_LEVEL: 'debug' };
    keys = await generateIdpKeys();
    a = await startServer(env);
    b = await startServer(env);
    const orgs = await (await fetch(`${a.url}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } })).json();
    const created = await fetch(`${a.url}/v1/orgs/${orgs.items[0].id}/saml`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'IdP', entityID: 'http://idp.test', ssoURL: 'http://idp.test/sso', certificate: keys.certificate }),
    });
    expect(created.status).toBe(201);
    provider = await created.json();
    // The organization's IdP creates accounts only on a domain the operator verified for it.
    const verified = await runCli(env, ['orgs', 'verify-domain', '--org', orgs.items[0].id, '--domain', 'acme.test']);
    expect(verified.code, verified.stderr).toBe(0);
  }, 240_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await e?.cleanup();
  });

  const path = (url: string) => new URL(url).pathname;

  /** The sign-in nonce cookie of the browser that started the sign-in. */
  let browserCookie = '';

  async function startOn(server: RunningServer): Promise<string> {
    const res = await fetch(`${server.url}${path(provider.service.startURL)}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    browserCookie = res.headers.get('set-cookie')!.split(';')[0];
    return attr(decodeRedirect(res.headers.get('location')!).xml, 'ID')!;
  }

  const postTo = (server: RunningServer, form: string) =>
    fetch(`${server.url}${path(provider.service.acsURL)}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browserCookie },
      body: form,
    });

  it('completes on the other process, refuses the replay there, and logs no secret', async () => {
    const requestId = await startOn(a);
    const assertionId = `_a-process-${Date.now()}`;
    const xml = buildResponse({
      issuer: 'http://idp.test',
      audience: provider.service.entityID,
      acsUrl: provider.service.acsURL,
      inResponseTo: requestId,
      nameId: 'walker@acme.test',
      keys,
      assertionId,
    });
    const form = postBody(xml, '/app/account');

    const first = await postTo(b, form);
    expect(first.status).toBe(303);
    const cookie = first.headers.getSetCookie().join('\n');
    const sessionId = /quire_session=([^;]+)/.exec(cookie)![1];

    const replayed = await postTo(a, form);
    expect(replayed.status).toBe(400);
    expect(replayed.headers.get('set-cookie')).toBeNull();
    expect(await replayed.text()).toMatch(/Sign-in not started here|already used/);

    const samlResponse = new URLSearchParams(form).get('SAMLResponse')!;
    // Log lines reach the pipe a moment after the response.
    const deadline = Date.now() + 10_000;
    while (!a.lines.some((l) => l.includes('SAML sign-in refused')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const logs = [...a.lines, ...b.lines].join('\n');
    expect(logs).toContain('SAML sign-in refused');
    for (const secret of [sessionId, samlResponse.slice(0, 40), samlResponse.slice(-40), assertionId, 'walker@acme.test', '<saml']) {
      expect(logs).not.toContain(secret);
    }
  }, 120_000);

  it('cli users login-link prints a one-time link that opens a session on any process', async () => {
    const cli = await runCli(env, ['users', 'login-link', '--email', 'admin@quire.local', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const { url, expiresAt } = JSON.parse(cli.stdout);
    expect(url).toMatch(/^http:\/\/quire\.test\/app\/login\?link=[\w-]{40,}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    const local = url.replace('http://quire.test', a.url);
    const first = await fetch(local, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    const account = await fetch(`${b.url}/app/account`, { headers: { cookie }, redirect: 'manual' });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain('admin@quire.local');
    expect((await fetch(local, { redirect: 'manual' })).status).toBe(400);
    const secret = new URL(url).searchParams.get('link')!;
    expect([...a.lines, ...b.lines].join('\n')).not.toContain(secret);
  }, 120_000);
});
