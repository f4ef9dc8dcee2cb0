#!/usr/bin/env node
/*
 * `npm run graph [-- --json] [-- --edges] [-- --at <commit>]`: the shape of src/ as an engineer
 * joining sees it (issue 33):
 * the import graph between units (each module under src/modules is one unit, each other
 * top-level folder or file of src/ is one), its cycles, which modules import another
 * module's service or access loaders, and the source files over 600 lines. Type-only
 * imports count: they tie the code together as much as value imports do.
 * Plain JavaScript, reading the files as text (no build, no TypeScript program).
 * `--edges` adds the graph itself (each unit and the units it imports); `--at <commit>` reads
 * src/ as it was at that commit (git archive into a temporary folder), for a before/after.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
export const MAX_FILE_LINES = 600;

/** The unit a source file belongs to: `modules/<name>` or the first segment under src/. */
export function unitOf(relative) {
  const parts = relative.split('/');
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every relative import of every non-test source file: { from, to, typeOnly }. */
export function readImports(src = SRC) {
  const files = fs
    .readdirSync(src, { recursive: true })
    .map((f) => String(f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'));
  const edges = [];
  const lines = new Map();
  for (const file of files) {
    const text = fs.readFileSync(path.join(src, file), 'utf8');
    lines.set(file, text.split('\n').length);
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[2] ?? match[3];
      if (!specifier?.startsWith('.')) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      edges.push({ from: file, to: target, typeOnly: Boolean(match[1]) });
    }
  }
  return { files, edges, lines };
}

/** Strongly connected components of more than one unit (Tarjan). */
function cycles(graph) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (v) => {
    state.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!state.has(w)) {
        visit(w);
        state.get(v).low = Math.min(state.get(v).low, state.get(w).low);
      } else if (state.get(w).onStack) state.get(v).low = Math.min(state.get(v).low, state.get(w).index);
    }
    if (state.get(v).low === state.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        state.get(w).onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!state.has(v)) visit(v);
  return found;
}

const ACCESS_LOADERS = /\b(memberAccess|organizationAccess|contentAccess|accessResolver|collectionAccessResolver|reachableByGrants|loadSpace|loadSite|loadSiteToManage|loadChangeRequest|decideAccess)\b/;

/** The figures of issue 33. */
export function analyse(src = SRC) {
  const { edges, lines } = readImports(src);
  const graph = new Map();
  for (const { from, to } of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a).add(b);
  }
  const serviceImports = edges.filter(({ from, to }) => {
    const a = unitOf(from);
    const b = unitOf(to);
    return a !== b && a.startsWith('modules/') && b.startsWith('modules/') && /\.service\.ts$/.test(to);
  });
  const accessLoaderImports = [];
  for (const file of lines.keys()) {
    if (!file.startsWith('modules/') || !file.endsWith('.service.ts')) continue;
    const text = fs.readFileSync(path.join(src, file), 'utf8');
    for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/g)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[2]));
      // src/access is where the loaders belong (docs/architecture.md, "Authorization").
      if (unitOf(target) === unitOf(file) || unitOf(target) === 'access') continue;
      const names = match[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter((n) => ACCESS_LOADERS.test(n) && ACCESS_LOADERS.exec(n)[0] === n);
      for (const name of names) accessLoaderImports.push({ from: file, to: target, name });
    }
  }
  const longFiles = [...lines].filter(([, n]) => n > MAX_FILE_LINES).sort((a, b) => b[1] - a[1]);
  return {
    units: graph.size,
    edges: Object.fromEntries([...graph].sort(([a], [b]) => a.localeCompare(b)).map(([unit, targets]) => [unit, [...targets].sort()])),
    cycles: cycles(graph),
    jobsImportModules: edges.filter(({ from, to }) => unitOf(from) === 'jobs' && unitOf(to).startsWith('modules/')).map(({ from, to }) => `${from} -> ${to}`),
    serviceImports: serviceImports.map(({ from, to }) => `${from} -> ${to}`),
    accessLoaderImports: accessLoaderImports.map(({ from, to, name }) => `${from} -> ${to} (${name})`),
    longFiles: longFiles.map(([file, n]) => `${file} (${n})`),
  };
}

/** src/ of `commit`, extracted into a temporary folder (removed at exit). */
function sourcesAt(commit) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const archive = execFileSync('git', ['archive', '--format=tar', commit, 'src'], { cwd: ROOT, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  return path.join(dir, 'src');
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const at = process.argv.indexOf('--at');
  const result = analyse(at > 0 ? sourcesAt(process.argv[at + 1]) : SRC);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const list = (title, items) => console.log(`\n${title}: ${items.length}${items.length ? `\n  ${items.join('\n  ')}` : ''}`);
    // The figures of issue 33 on one line, for a closing note.
    console.log(
      `figures: ${result.cycles.length} cycles (largest ${Math.max(0, ...result.cycles.map((c) => c.length))} units), ` +
        `${result.serviceImports.length} imports of another module's service, ${result.jobsImportModules.length} jobs/ -> module imports, ` +
        `${result.accessLoaderImports.length} access loaders imported by another module's service, ${result.longFiles.length} files over ${MAX_FILE_LINES} lines`,
    );
    console.log(`units: ${result.units}`);
    if (process.argv.includes('--edges')) list('units and the units they import', Object.entries(result.edges).map(([unit, targets]) => `${unit} -> ${targets.join(', ')}`));
    list('cycles between units', result.cycles.map((c) => `${c.length} units: ${c.join(', ')}`));
    list('jobs/ importing a module', result.jobsImportModules);
    list("imports of another module's service", result.serviceImports);
    list("services importing another module's access loader", result.accessLoaderImports);
    list(`source files over ${MAX_FILE_LINES} lines`, result.longFiles);
  }
}
