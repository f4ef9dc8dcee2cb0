/*
 * Runs the hand-written page generator (test/wild-markdown.ts) on N pages and prints, per
 * failure kind, how many pages failed and the distinct minimal cases (line-based ddmin).
 *   npx tsx bench/wild-fuzz.ts [pages=1000] [seed=1] [minimize=40] [--known] [--only=class,class]
 */
import { measureWild, minimize, wildPage, WILD_CLASSES, type WildClass, type WildFailure } from '../test/wild-markdown.ts';

// --known: leave out the classes already found (test/wild-markdown.ts WILD_CLASSES), to find new ones.
// --only=a,b: leave out every known class but these, to work on one class at a time.
const known = process.argv.includes('--known');
const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
for (const name of only ?? []) if (!(name in WILD_CLASSES)) throw new Error(`unknown class ${name}`);
const avoid = new Set<WildClass>(known || only ? (Object.keys(WILD_CLASSES) as WildClass[]).filter((name) => !only?.includes(name)) : []);
const [pages = 1000, seed = 1, toMinimize = 40] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map(Number);
const counts = new Map<WildFailure, number>();
const minimal = new Map<string, { failure: WildFailure; seeds: number[]; detail: string }>();
let minimized = 0;
for (let i = 0; i < pages; i++) {
  const pageSeed = seed * 1_000_003 + i;
  const source = wildPage(pageSeed, avoid);
  const result = measureWild(source);
  for (const failure of result.failures) {
    counts.set(failure, (counts.get(failure) ?? 0) + 1);
    if (minimized >= toMinimize) continue;
    minimized++;
    const small = minimize(source, failure);
    const again = measureWild(small);
    const detail = failure === 'lost-words' ? again.missing.join(' ') : failure === 'raw-markup' ? again.leaks.join(' ') : failure === 'throws' ? (again.error ?? '').split('\n')[0] : '';
    const key = `${failure}\n${small}`;
    const seen = minimal.get(key) ?? { failure, seeds: [], detail };
    seen.seeds.push(pageSeed);
    minimal.set(key, seen);
  }
}
console.log(`${pages} pages, seed ${seed}`);
for (const [failure, count] of counts) console.log(`  ${failure}: ${count} pages (${((count * 1000) / pages).toFixed(1)} per 1,000)`);
for (const [key, { failure, seeds, detail }] of minimal) {
  console.log(`\n=== ${failure} (${detail}) seeds ${seeds.slice(0, 3).join(',')}`);
  console.log(JSON.stringify(key.slice(failure.length + 1)));
}
