import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';

/*
 * The spec's endpoint list (docs/spec/seed-endpoints.tsv, copied from the spec) against the
 * routes Quire serves. IMPLEMENTED names the spec sections (and exclusions) done so far;
 * each issue that lands widens it, and a missing route then fails here.
 */
const IMPLEMENTED: { section: string; except?: RegExp }[] = [
  // 4.7 in full (SAML providers and GET {O}/sso: issue 17).
  { section: '4.7' },
  // 4.1 and 4.2 in full (links, backlinks and search included).
  { section: '4.1' },
  { section: '4.2' },
  // 4.3 in full (links and backlinks of change requests included).
  { section: '4.3' },
  // 4.5: sites, sections, section groups, site spaces.
  { section: '4.5' },
  // 4.4: comments and replies on spaces and change requests, commenters.
  { section: '4.4' },
  // Conversations, git sync and translations of 4.8 (issues 19, 15 and 18).
  { section: '4.8' },
  // 4.6 OpenAPI specs (issue 16).
  { section: '4.6' },
];

interface SpecRow {
  section: string;
  method: string;
  path: string;
  success: string;
  operationId: string;
}

function specRows(): SpecRow[] {
  const text = fs.readFileSync(path.resolve(import.meta.dirname, '../docs/spec/seed-endpoints.tsv'), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [section, method, p, success, operationId] = line.split('\t');
      return { section, method, path: p, success, operationId };
    });
}

describe('spec endpoints', () => {
  let t: TestApp;
  let served: Map<string, { operationId: string; statuses: string[] }>;
  beforeAll(async () => {
    t = await createTestApp();
    const doc = (await t.request('GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    served = new Map(
      Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.entries(methods).map(([m, op]) => [
          `${m.toUpperCase()} ${p}`,
          { operationId: op.operationId, statuses: Object.keys(op.responses) },
        ]),
      ),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves every endpoint of the implemented sections, with its success status', () => {
    const rows = specRows().filter((row) =>
      IMPLEMENTED.some((s) => s.section === row.section && !(s.except && s.except.test(row.path))),
    );
    expect(rows.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const row of rows) {
      const route = served.get(`${row.method} ${row.path}`);
      if (!route) {
        missing.push(`${row.method} ${row.path}`);
        continue;
      }
      if (row.operationId !== '-') expect(route.operationId, `${row.method} ${row.path}`).toBe(row.operationId);
      // "200 ...", "201 ...", "204 ..." must be declared; "no content" means 204; n/s follows GitBook.
      const status = /^(\d{3})/.exec(row.success)?.[1] ?? (row.success.startsWith('no content') ? '204' : undefined);
      if (status) expect(route.statuses, `${row.method} ${row.path}`).toContain(status);
    }
    expect(missing).toEqual([]);
  });
});
