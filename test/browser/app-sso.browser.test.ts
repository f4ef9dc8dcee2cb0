import type { AddressInfo } from 'node:net';
import { verifyDomain } from '../../src/modules/organizations/organizations.service.ts';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../app.ts';
import { createOrganization, createUser, type TestOrganization } from '../factories.ts';
import { attr, buildResponse, decodeRedirect, generateIdpKeys, type TestIdpKeys } from '../saml-idp.ts';
import { loginUrl, spaceWith, TestBrowser } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * The app in Chromium: sign in through a small identity-provider page served by the test
 * (it signs a response with the test's key and posts it back, like a real IdP's
 * auto-submitting page), read a private space, make and revoke a token, sign out.
 */

const SHOTS = path.resolve(import.meta.dirname, '../../.screenshots');

describe('app area in a browser', () => {
  let t: TestApp;
  let url: string;
  let org: TestOrganization;
  let keys: TestIdpKeys;
  let idp: http.Server;
  let idpUrl: string;
  let browser: TestBrowser;
  let spaceId: string;
  let changeRequestPath = '';
  let provider: { service: { entityID: string; acsURL: string } };
  const signInEmail = 'ines@acme.test';

  beforeAll(async () => {
    ({ t, url } = await servedTestApp());
    keys = await generateIdpKeys();
    idp = http.createServer((req, res) => {
      // The IdP "authenticates" the test's person at once and posts a signed response back.
      const { xml, relayState } = decodeRedirect(`http://127.0.0.1${req.url}`);
      const response = buildResponse({
        issuer: 'http://idp.test',
        audience: provider.service.entityID,
        acsUrl: provider.service.acsURL,
        inResponseTo: attr(xml, 'ID')!,
        nameId: signInEmail,
        displayName: 'Ines Idp',
        keys,
      });
      const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
      res.setHeader('content-type', 'text/html');
      res.end(
        `<!doctype html><form method="post" action="${escape(provider.service.acsURL)}">` +
          `<input type="hidden" name="SAMLResponse" value="${Buffer.from(response).toString('base64')}">` +
          (relayState ? `<input type="hidden" name="RelayState" value="${escape(relayState)}">` : '') +
          `<button type="submit">Continue</button></form><script>document.forms[0].submit()</script>`,
      );
    });
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    idpUrl = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/sso`;

    org = await createOrganization(t, { title: 'Acme Docs' });
    spaceId = await spaceWith(t, org, 'Handbook', (e) => {
      e.insertPage({ title: 'Welcome', markdown: '# Welcome\n\nPrivate **handbook** text.\n\n- one\n- two\n' });
      e.insertPage({ title: 'Travel', markdown: 'Book trains.\n' });
    });
    const p = await t.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.admin.token,
      body: { label: 'Test IdP', entityID: 'http://idp.test', ssoURL: idpUrl, certificate: keys.certificate, defaultRole: 'read' },
    });
    provider = p.body;
    // The IdP creates accounts only on a domain verified for the organization (docs/security.md).
    await verifyDomain(t.db, t.clock, org.id, 'acme.test', null);
    browser = await TestBrowser.launch(SHOTS);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => idp?.close(resolve));
    await t?.close();
  });

  it('signs in through the IdP, reads a private space, makes and revokes a token, signs out', async () => {
    const context = await browser.context({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${url}/app/s/${spaceId}`);
    expect(new URL(page.url()).pathname).toBe('/app/signin');
    // The installation's page names no organization: the visitor gives theirs.
    await page.fill('input[name=org]', org.id);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Sign in with Test IdP').click();
    await page.waitForURL(`${url}/app/s/${spaceId}`);
    expect(await page.locator('main.content').innerText()).toContain('Private handbook text.');
    await page.screenshot({ path: `${SHOTS}/app-space-light.png`, fullPage: true });
    await page.click('#theme-toggle');
    expect(await page.evaluate('document.documentElement.getAttribute("data-theme")')).toBe('dark');
    await page.screenshot({ path: `${SHOTS}/app-space-dark.png`, fullPage: true });
    await page.getByRole('link', { name: 'Travel' }).click();
    expect(await page.locator('main.content h1').innerText()).toBe('Travel');

    // Search from the space's sidebar form.
    await page.fill('input[type=search]', 'handbook');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'Welcome' }).click();
    expect(await page.locator('main.content h1').innerText()).toBe('Welcome');

    // A change request at the address its urls.app gives: the diff of the changed page.
    const S = `/v1/spaces/${spaceId}`;
    const cr = (await t.request('POST', `${S}/change-requests`, { token: org.admin.token, body: { subject: 'Add refunds' } })).body;
    const welcome = (await t.request('GET', `${S}/content/path/welcome`, { token: org.admin.token })).body;
    await t.request('POST', `${S}/change-requests/${cr.id}/content`, {
      token: org.admin.token,
      // Written as the page is stored (`*` bullets): the API keeps a page's written form
      // (docs/decisions/markdown.md), so `-` bullets would be a change of the file, shown as one.
      body: { changes: [{ operation: 'update_page', page: welcome.id, document: { markdown: '## Welcome\n\nPrivate **handbook** text.\n\n* one\n* two\n* three\n\nRefunds take five days.\n' } }] },
    });
    await page.goto(cr.urls.app.replace('http://quire.test', url));
    const main = page.locator('main');
    expect(await main.locator('h1').innerText()).toContain('Add refunds');
    const added = await page.locator('tr.add').allInnerTexts();
    expect(added.map((line) => line.replace(/\s+/g, ' ').trim())).toEqual(expect.arrayContaining([expect.stringContaining('three'), expect.stringContaining('Refunds take five days.')]));
    expect(await page.locator('tr.remove').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/app-change-request-dark.png`, fullPage: true });
    await page.click('#theme-toggle');
    await page.screenshot({ path: `${SHOTS}/app-change-request-light.png`, fullPage: true });
    changeRequestPath = new URL(cr.urls.app).pathname;

    await page.goto(`${url}/app/account`);
    expect(await page.locator('main').innerText()).toContain(signInEmail);
    await page.fill('input[name=label]', 'browser token');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = await page.locator('[data-new-token]').innerText();
    expect(token).toMatch(/^qr_/);
    expect((await t.request('GET', '/v1/user', { token })).status).toBe(200);
    await page.screenshot({ path: `${SHOTS}/app-account-dark.png`, fullPage: true });
    await page.locator('tr', { hasText: 'browser token' }).getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${url}/app/account`);
    expect(await page.locator('main').innerText()).not.toContain('browser token');
    // Revoked in the database (the API stops accepting it within AUTH_CACHE_TTL_MS).
    const rows = await t.db.selectFrom('api_tokens').select('revoked_at').where('label', '=', 'browser token').execute();
    expect(rows.map((r) => r.revoked_at !== null)).toEqual([true]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${url}/app/signin`);
    await page.goto(`${url}/app/account`);
    expect(new URL(page.url()).pathname).toBe('/app/signin');
    await context.close();
  });

  it('refuses a non-member (404) and fits a phone screen', async () => {
    const stranger = await createUser(t, { displayName: 'Stranger' });
    const link = await loginUrl(t, url, stranger);
    const context = await browser.context({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    await page.goto(link);
    expect(new URL(page.url()).pathname).toBe('/app/account');
    await page.screenshot({ path: `${SHOTS}/app-account-phone.png`, fullPage: true });
    const res = await page.goto(`${url}/app/s/${spaceId}`);
    expect(res?.status()).toBe(404);
    expect((await page.goto(`${url}${changeRequestPath}`))?.status()).toBe(404);
    await page.goto(`${url}/app/s/${spaceId}`);
    expect(await page.locator('main').innerText()).not.toContain('handbook');
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await context.close();

    // A member on a phone: the change request's diff wraps within the screen.
    const phone = await browser.context({ viewport: { width: 390, height: 844 }, isMobile: true });
    const member = await phone.newPage();
    await member.goto(await loginUrl(t, url, org.admin));
    expect((await member.goto(`${url}${changeRequestPath}`))?.status()).toBe(200);
    expect(await member.locator('tr.add').count()).toBeGreaterThan(0);
    expect(await member.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await member.screenshot({ path: `${SHOTS}/app-change-request-phone.png`, fullPage: true });
    await phone.close();
  });
});
