/*
 * The differing pages of the corpus's tuning half, classified (issue 31). Round-trips every
 * tuning page as bench/corpus.ts does and, for each page that differs, counts the kinds of
 * lines that differ (a page counts once per class). Only the tuning half: held-out pages are
 * for measuring (bench/corpus.ts), never for reading. With --out, each differing page's
 * source and written text go to that folder (outside the repository) for reading.
 *
 * Usage: node --import tsx bench/corpus-diffs.ts --dir /work/corpus [--repo owner/name] [--out /tmp/diffs] [--list]
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { diffArrays } from 'diff';
import { layoutConfig } from '../src/content/git-layout/read.ts';
import { canonical, roundTrip } from './corpus-measure.ts';

const { values: opts } = parseArgs({
  options: {
    dir: { type: 'string' },
    repo: { type: 'string', multiple: true },
    out: { type: 'string' },
    list: { type: 'boolean' },
  },
});
if (!opts.dir) {
  console.error('usage: node --import tsx bench/corpus-diffs.ts --dir <corpus folder> [--repo owner/name] [--out <folder>] [--list]');
  process.exit(2);
}
const corpus = opts.dir;
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8')) as { repositories: { repo: string; folder: string; half: string }[] };

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

function pagesOf(folder: string): string[] {
  const dir = join(corpus, folder);
  const config = existsSync(join(dir, '.gitbook.yaml')) ? readFileSync(join(dir, '.gitbook.yaml'), 'utf8') : undefined;
  const { root, summaryPath } = layoutConfig(config, undefined);
  return walk(dir)
    .filter((f) => f.endsWith('.md') && f !== summaryPath && posix.basename(f) !== 'SUMMARY.md' && (!root || f.startsWith(root.replace(/\/?$/, '/'))))
    .filter((f) => !f.split('/').some((part) => part.startsWith('.') && part !== '.gitbook'));
}

/** The kind of a differing line, from its shape. */
function lineClass(line: string): string {
  const t = line.trim();
  if (t === '') return 'blank lines';
  if (/^\s*(?:[*+-]|\d+[.)])\s/.test(line)) return /^\s+/.test(line) ? 'nested list item' : 'list item';
  if (/^\s{2,}\S/.test(line)) return 'indented (container body)';
  if (/^\|/.test(t)) return 'pipe table';
  if (/^<table|^<t[rdh]|^<\/t/.test(t)) return 'html table';
  if (/^\{%/.test(t)) return 'gitbook tag';
  if (/^#{1,6}\s/.test(t)) return 'heading';
  if (/^<(?:figure|img|picture|div)/.test(t)) return 'figure / html block';
  if (/^```|^~~~/.test(t)) return 'code fence';
  if (/^>/.test(t)) return 'quote';
  if (/^<[a-z]/i.test(t)) return 'other html';
  return 'prose';
}

const classes = new Map<string, number>();
const perRepo = new Map<string, { pages: number; differ: number }>();
let pages = 0;
let differ = 0;
for (const repo of manifest.repositories) {
  if (repo.half !== 'tuning') continue;
  if (opts.repo && !opts.repo.includes(repo.repo)) continue;
  const counts = { pages: 0, differ: 0 };
  perRepo.set(repo.repo, counts);
  for (const file of pagesOf(repo.folder)) {
    const source = readFileSync(join(corpus, repo.folder, file), 'utf8');
    const written = roundTrip(source).markdown;
    counts.pages++;
    pages++;
    if (canonical(written) === canonical(source)) continue;
    counts.differ++;
    differ++;
    const a = canonical(source).split('\n');
    const b = canonical(written).split('\n');
    const seen = new Set<string>();
    const parts = diffArrays(a, b);
    const onlyBlank = parts.every((p) => (!p.added && !p.removed) || p.value.every((l) => l.trim() === ''));
    if (onlyBlank) seen.add('ONLY blank lines');
    for (const part of parts) {
      if (!part.added && !part.removed) continue;
      for (const line of part.value) seen.add(lineClass(line));
    }
    for (const c of seen) classes.set(c, (classes.get(c) ?? 0) + 1);
    if (opts.list) console.log(`${repo.repo} ${file}: ${[...seen].join(', ')}`);
    if (opts.out) {
      const base = join(opts.out, repo.folder, file);
      mkdirSync(dirname(base), { recursive: true });
      writeFileSync(base + '.src', source);
      writeFileSync(base + '.out', written);
    }
  }
}
console.log(`tuning: ${pages} pages, ${differ} differ`);
for (const [repo, c] of perRepo) console.log(`  ${repo}: ${c.pages - c.differ}/${c.pages}`);
for (const [c, n] of [...classes].sort((x, y) => y[1] - x[1])) console.log(`${String(n).padStart(5)}  ${c}`);
