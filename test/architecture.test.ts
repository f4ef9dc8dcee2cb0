import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The import rules the code keeps (docs/architecture.md, "Import rules"), checked on every
 * run from npm run graph's analysis. Hard rules must hold (no cycle; another module's service
 * only for a named orchestration); the ratchets are issue 33's figures as they stand and may
 * only go down (lower them when a change improves one).
 */

const importGraph = path.join(import.meta.dirname, '../scripts/import-graph.mjs');
const { analyse, readImports, unitOf } = await import(importGraph);

interface Edge {
  from: string;
  to: string;
}
const { edges } = readImports() as { edges: Edge[] };
const crossing = (from: (unit: string) => boolean, to: (unit: string) => boolean) =>
  edges.filter((e) => from(unitOf(e.from)) && to(unitOf(e.to)) && unitOf(e.from) !== unitOf(e.to)).map((e) => `${e.from} -> ${e.to}`);
const isModule = (unit: string) => unit.startsWith('modules/');

/** The imports of another module's service that remain: docs/architecture.md, "Import rules", says why each. */
const ORCHESTRATIONS = [
  'modules/app-area/app-area.change-requests.service.ts -> modules/change-requests/change-requests.service.ts',
  'modules/app-area/app-area.change-requests.service.ts -> modules/comments/comments.service.ts',
  'modules/app-area/app-area.change-requests.service.ts -> modules/content/content.service.ts',
  'modules/app-area/app-area.routes.ts -> modules/sessions/sessions.service.ts',
  'modules/app-area/app-area.service.ts -> modules/spaces/spaces.service.ts',
  'modules/app-area/app-area.service.ts -> modules/content/content.service.ts',
  'modules/app-area/app-area.service.ts -> modules/search/search.service.ts',
  'modules/collab/collab.service.ts -> modules/content/content.service.ts',
  'modules/published/reader-search.ts -> modules/search/search.service.ts',
  'modules/sso/sso.service.ts -> modules/sessions/sessions.service.ts',
];

/**
 * Files outside a module's routes and presenters that use a presenter, and why (docs/architecture.md,
 * "A request's four hops"): the published reader renders a page's fragments where it memoizes
 * them per revision, and the service names the fragments' types.
 */
const PRESENTING_OUTSIDE_ROUTES = [
  'modules/published/published.service.ts -> modules/published/published.presenter.ts',
  'modules/published/reader-page.ts -> modules/published/published.presenter.ts',
  'modules/published/reader-search.ts -> modules/published/published.presenter.ts',
];

describe('import boundaries', () => {
  it('the content engine, the editor, the access layer, the job queue and the plugins import no module, and the engine nothing of HTTP', () => {
    expect(crossing((u) => u === 'content', isModule)).toEqual([]);
    expect(crossing((u) => u === 'plugins', isModule)).toEqual([]);
    expect(crossing((u) => u === 'content', (u) => u === 'plugins' || u === 'context' || u === 'app')).toEqual([]);
    expect(crossing((u) => u === 'editor', isModule)).toEqual([]);
    expect(crossing((u) => u === 'access', isModule)).toEqual([]);
    expect(crossing((u) => u === 'jobs', isModule)).toEqual([]);
  });

  it('the layers below the API (db, lib, files, the content engine) import nothing of HTTP errors: they throw domain errors', () => {
    const lower = (u: string) => u === 'db' || u === 'lib' || u === 'files' || u === 'content';
    expect(crossing(lower, (u) => u === 'errors')).toEqual([]);
  });

  it('errors are mapped in one place: plugins/errors.ts holds the only setErrorHandler', () => {
    const sources = readdirSync(path.join(import.meta.dirname, '../src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .filter((f) => readFileSync(path.join(import.meta.dirname, '../src', f), 'utf8').includes('.setErrorHandler('));
    expect(sources.map((f) => f.split(path.sep).join('/'))).toEqual(['plugins/errors.ts']);
  });

  it('no cycle between units (modules, plugins, context, jobs, ...)', () => {
    expect(analyse().cycles).toEqual([]);
  });

  it("imports another module's service only for the orchestrations docs/architecture.md names, at most 10", () => {
    const { serviceImports } = analyse() as { serviceImports: string[] };
    expect(serviceImports.length).toBeLessThanOrEqual(10);
    expect(serviceImports.filter((edge) => !ORCHESTRATIONS.includes(edge))).toEqual([]);
  });

  it('services, repositories and models return domain results: only routes and presenters import a presenter', () => {
    const presenting = edges
      .filter((e) => e.from.startsWith('modules/') && e.to.endsWith('.presenter.ts'))
      .filter((e) => !/routes\.ts$|\.presenter\.ts$|\.test\.ts$/.test(e.from))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(presenting.filter((edge) => !PRESENTING_OUTSIDE_ROUTES.includes(edge))).toEqual([]);
  });

  it('keeps the rules of issue 33: no access loader imported by another module, no source file over 600 lines', () => {
    const result = analyse();
    expect(result.jobsImportModules).toEqual([]);
    expect(result.accessLoaderImports).toEqual([]);
    expect(result.longFiles).toEqual([]);
  });
});
