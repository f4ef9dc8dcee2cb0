import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createOrganization } from './factories.ts';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  it('serves an org', async () => {
    const org = await createOrganization(t);
    const res = await t.request('GET', `/v1/orgs/${org.id}`, { token: org.admin.token });
    expect(res.status).toBe(200);
    const list = await t.request('GET', `/v1/orgs`, { token: org.admin.token });
    expect(list.body.items).toHaveLength(1);
    const info = await t.request('GET', `/v1/`);
    expect(info.status).toBe(200);
    const doc = await t.request('GET', `/v1/openapi.json`);
    expect(doc.status).toBe(200);
    console.log(Object.keys(doc.body.components.schemas), JSON.stringify(doc.body.paths['/v1/orgs/{organizationId}']).slice(0, 500));
  });
});
