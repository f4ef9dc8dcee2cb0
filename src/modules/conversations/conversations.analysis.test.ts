import { describe, expect, it } from 'vitest';
import { addTerms, analyze, Idf, labelOf, placeIssues, weeklyPulse, weekStart, type TermVector, type WordMap } from './conversations.analysis.ts';
import { PROBLEMS } from './conversations.fixtures.ts';

const items = Object.entries(PROBLEMS).flatMap(([problem, list]) =>
  list.map((c, i) => ({ id: `${problem}-${i}`, problem, ...analyze(`${c.subject}\n${c.body}`), embedding: null })),
);

interface Cluster {
  id: string;
  terms: TermVector;
  words: WordMap;
  embedding: null;
  members: string[];
}

/** Clusters the twelve questions arriving in runs: the first `first`, then `step` at a time. */
function clusterInRuns(first: number, step: number) {
  const clusters: Cluster[] = [];
  const idf = new Idf();
  const runs = [items.slice(0, first)];
  for (let i = first; i < items.length; i += step) runs.push(items.slice(i, i + step));
  for (const run of runs) {
    for (const item of run) idf.add(item.terms);
    const placement = placeIssues(run, clusters, idf);
    const add = (cluster: Cluster, id: string) => {
      const item = items.find((x) => x.id === id)!;
      cluster.members.push(id);
      addTerms(cluster.terms, item.terms);
      Object.assign(cluster.words, item.words);
    };
    for (const [issue, clusterId] of placement.joined) add(clusters.find((c) => c.id === clusterId)!, issue);
    for (const group of placement.created) {
      const cluster: Cluster = { id: `c${clusters.length}`, terms: {}, words: {}, embedding: null, members: [] };
      for (const id of group) add(cluster, id);
      clusters.push(cluster);
    }
  }
  return { clusters, idf };
}

describe('conversation clustering (offline)', () => {
  it('finds the three problems however the twelve questions are split into clustering runs', () => {
    for (let first = 1; first <= items.length; first++) {
      for (const step of [1, 2, 3, 5, 12]) {
        const { clusters, idf } = clusterInRuns(first, step);
        expect(clusters.map((c) => c.members.length).sort(), `runs ${first}+${step}`).toHaveLength(3);
        const labels: Record<string, RegExp> = { password: /password|reset/i, rateLimit: /rate|limit|api|request/i, domain: /domain|dns|ssl/i };
        for (const cluster of clusters) {
          const counts = new Map<string, number>();
          for (const id of cluster.members) counts.set(id.split('-')[0]!, (counts.get(id.split('-')[0]!) ?? 0) + 1);
          const [problem, size] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
          expect(size).toBeGreaterThanOrEqual(3);
          expect(labelOf(cluster.terms, cluster.words, idf)).toMatch(labels[problem]!);
        }
      }
    }
  });

  it('is deterministic', () => {
    const a = clusterInRuns(4, 2).clusters.map((c) => c.members);
    const b = clusterInRuns(4, 2).clusters.map((c) => c.members);
    expect(a).toEqual(b);
  });

  it('weekly pulse: 13 calendar weeks, oldest first, the current week last', () => {
    const now = new Date('2026-03-18T12:00:00.000Z'); // a Wednesday
    expect(weekStart(now)).toBe('2026-03-16');
    const pulse = weeklyPulse({ '2026-03-16': 2, '2026-03-09': 1, '2025-12-22': 5, '2025-12-15': 7 }, now);
    expect(pulse).toHaveLength(13);
    expect(pulse[12]).toBe(2);
    expect(pulse[11]).toBe(1);
    expect(pulse[0]).toBe(5); // 12 weeks before the current one
    expect(pulse.reduce((a, b) => a + b, 0)).toBe(8); // the week before is out of range
  });
});
