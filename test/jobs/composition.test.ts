import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appJobs } from '../../src/composition.ts';
import { JobRegistry } from '../../src/jobs/registry.ts';

/*
 * The app's job composition (src/composition.ts, docs/decisions/jobs.md): every kind a
 * module defines is handled, once; the queue imports no module; a service enqueues
 * through its module's kinds and never imports the handlers that call it back.
 */

/** npm run graph's analysis (plain JavaScript, imported by path so it needs no types). */
const importGraph = path.join(import.meta.dirname, '../../scripts/import-graph.mjs');
const { analyse, readImports } = await import(importGraph);

const modulesDir = path.join(import.meta.dirname, '../../src/modules');
const jobKindFiles = fs
  .readdirSync(modulesDir)
  .flatMap((module) => fs.readdirSync(path.join(modulesDir, module)).filter((f) => f.endsWith('.job-kinds.ts')).map((f) => path.join(modulesDir, module, f)));

interface Edge {
  from: string;
  to: string;
}

describe('job composition', () => {
  it("handles every kind the modules define, each once, and the recurring jobs by name", async () => {
    const registry = new JobRegistry(appJobs);
    expect(jobKindFiles.length).toBeGreaterThanOrEqual(5);
    const defined: string[] = [];
    for (const file of jobKindFiles) {
      for (const value of Object.values(await import(file))) {
        if (value && typeof value === 'object' && 'kind' in value && 'handledBy' in value) defined.push((value as { kind: string }).kind);
      }
    }
    expect(defined.length).toBeGreaterThanOrEqual(7);
    for (const kind of defined) expect(registry.handler(kind), kind).toBeDefined();
    expect(registry.recurring().map((r) => r.name).sort()).toEqual(['jobs-housekeeping', 'openapi-refresh', 'pdf-sweep', 'space-purge']);
  });

  it('keeps the import rules: jobs/ imports no module; kinds import neither services nor handlers; services import no handlers', () => {
    expect(analyse().jobsImportModules).toEqual([]);
    const edges: Edge[] = readImports().edges;
    const kindsImports = edges.filter((e) => e.from.endsWith('.job-kinds.ts') && /\.(service|jobs)\.ts$/.test(e.to));
    expect(kindsImports).toEqual([]);
    const servicesImportingHandlers = edges.filter((e) => !e.from.endsWith('.jobs.ts') && e.to.endsWith('.jobs.ts') && e.from !== 'composition.ts');
    expect(servicesImportingHandlers).toEqual([]);
  });
});
