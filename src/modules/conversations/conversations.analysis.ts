import { agnes } from 'ml-hclust';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { boundedMemo } from '../../lib/memo.ts';
import { CONCEPTS } from './conversations.concepts.ts';

/*
 * The offline pipeline of conversations (docs/decisions/conversations.md), free of I/O:
 * text -> stemmed terms -> TF-IDF vectors -> clusters, and a cluster's label from its most
 * distinctive terms. Deterministic: the same input in the same order gives the same result.
 */

/** Stem -> weight. An issue's vector has unit length before IDF; a centroid sums its members'. */
export type TermVector = Record<string, number>;
/** Stem -> the surface word it was most often written as (labels are written in words). */
export type WordMap = Record<string, string>;

/**
 * Minimum cosine similarity (TF-IDF) between an issue and a cluster's centroid for the
 * issue to join the cluster, and the average-linkage cut of new issues grouped together.
 * Tuned with CONCEPT_WEIGHT on the tuning part of conversations.corpus.ts: the same problem
 * asked in other words shares its concept ("~sso" for Okta, SAML, single sign-on), different
 * problems share generic words and broad concepts ("~api", "~signin"); pairwise F1 is the
 * same from 0.16 to 0.3 there, and 0.2 is the middle (docs/decisions/conversations.md).
 */
export const TERMS_THRESHOLD = 0.2;
/** The same for embeddings, whose cosines run higher for unrelated texts. */
export const EMBEDDING_THRESHOLD = 0.75;
/** Most new issues grouped by one agglomerative pass (its matrix grows with the square). */
export const BATCH_SIZE = 400;

/**
 * Words that carry no documentation problem: the stopword package's English list plus the
 * pleasantries and filler of support conversations.
 */
const STOP = new Set([
  ...eng,
  ...('hi hello hey thanks thank thx please pls help helps helping regards cheers dear team support anyone someone ' +
    'just also really still now get got getting way ok okay yes yeah sure know need needs want wants trying tried try ' +
    'like would could should might must can cannot cant dont doesnt didnt isnt wont im ive id youre thats theres ' +
    'us our ours me my mine we you your yours it its they them their what which who whom whose when where why how ' +
    'issue issues problem problems question questions wondering anybody something anything everything nothing ' +
    'one two use using used find found see seems seem able make made going go goes doing done does did do ' +
    'hope hoping good great fine well much many lot lots thing things time times today day please advise asap ' +
    'documentation docs doc'
  ).split(' '),
]);

const TOKEN = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** Lower-cased tokens of a text, diacritics dropped, every one (stop words and numbers too). */
function tokens(text: string): string[] {
  return Array.from(text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/’/g, "'").matchAll(TOKEN), (m) => m[0]);
}

/** Whether a token is a word worth a term: not a stop word, a number or one letter. */
const meaningful = (word: string) => word.length >= 2 && word.length <= 40 && !/^\d+$/.test(word) && !STOP.has(word.replace(/['-]/g, ''));

/** Lower-cased words of a text, without stop words, numbers or one-letter tokens. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const token of tokens(text)) {
    for (const word of token.split(/['-]/)) if (meaningful(word)) out.push(word);
  }
  return out;
}

/** A concept's term: `~` never starts a stem, so concepts and words cannot collide. */
const conceptTerm = (concept: string) => `~${concept}`;

/** Lexicon phrases by their tokens joined with spaces -> concept term; and the longest phrase. */
const PHRASES = new Map<string, string>();
let LONGEST_PHRASE = 1;
for (const [concept, phrases] of Object.entries(CONCEPTS)) {
  for (const phrase of phrases) {
    const key = tokens(phrase);
    if (key.length === 0) continue;
    PHRASES.set(key.join(' '), conceptTerm(concept));
    LONGEST_PHRASE = Math.max(LONGEST_PHRASE, key.length);
  }
}

/**
 * How much a concept counts against a word: more, since a concept stands for what several
 * wordings share, and it is what two phrasings of one problem have in common. Tuned on the
 * tuning part of conversations.corpus.ts.
 */
export const CONCEPT_WEIGHT = 2;

/** Porter stem of a word (the `stemmer` package), memoized: support vocabularies are small. */
const stem = boundedMemo((word) => (word.length < 3 ? word : stemmer(word)), 100_000);

/**
 * Counts the stems of a text given in pieces (a long text is analyzed a slice at a time, the
 * event loop free between slices), then gives its term vector.
 */
export class TermCounter {
  private readonly counts = new Map<string, number>();
  private readonly surfaces = new Map<string, Map<string, number>>();

  add(text: string): void {
    const list = tokens(text);
    for (let i = 0; i < list.length; ) {
      // The longest lexicon phrase starting here, if any.
      let matched = 0;
      for (let length = Math.min(LONGEST_PHRASE, list.length - i); length >= 1 && !matched; length--) {
        const phrase = length === 1 ? list[i]! : list.slice(i, i + length).join(' ');
        const concept = PHRASES.get(phrase);
        if (concept) {
          this.count(concept, phrase);
          matched = length;
        }
      }
      if (matched) {
        i += matched;
        continue;
      }
      for (const word of list[i]!.split(/['-]/)) if (meaningful(word)) this.count(stem(word), word);
      i++;
    }
  }

  private count(term: string, surface: string): void {
    this.counts.set(term, (this.counts.get(term) ?? 0) + 1);
    const forms = this.surfaces.get(term) ?? new Map<string, number>();
    forms.set(surface, (forms.get(surface) ?? 0) + 1);
    this.surfaces.set(term, forms);
  }

  /** The unit-length term vector (sublinear term frequency) and its stems' words; empty when no word counted. */
  result(): { terms: TermVector; words: WordMap } {
    const terms: TermVector = {};
    let norm = 0;
    for (const [s, n] of this.counts) {
      const weight = (1 + Math.log(n)) * (s.startsWith('~') ? CONCEPT_WEIGHT : 1);
      terms[s] = weight;
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    for (const s of Object.keys(terms)) terms[s] = terms[s]! / norm;
    const wordMap: WordMap = {};
    for (const [s, forms] of this.surfaces) wordMap[s] = mostFrequent(forms);
    return { terms, words: wordMap };
  }
}

/** The unit-length term vector of a text (sublinear term frequency) and its stems' words. */
export function analyze(text: string): { terms: TermVector; words: WordMap } {
  const counter = new TermCounter();
  counter.add(text);
  return counter.result();
}

/** A text in slices of about `size` characters, each cut after a space so no word is split. */
export function* slicesOf(text: string, size: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      const newline = text.lastIndexOf('\n', end);
      const cut = Math.max(space, newline);
      if (cut > start) end = cut + 1;
    }
    yield text.slice(start, end);
    start = end;
  }
}

function mostFrequent(counts: Map<string, number>): string {
  let best = '';
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount || (count === bestCount && key < best)) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

/** Smoothed inverse document frequency over the organization's issues. */
export class Idf {
  private readonly df = new Map<string, number>();
  private documents = 0;

  add(terms: TermVector): void {
    this.documents++;
    for (const s of Object.keys(terms)) this.df.set(s, (this.df.get(s) ?? 0) + 1);
  }

  weight(term: string): number {
    return Math.log((this.documents + 1) / ((this.df.get(term) ?? 0) + 1)) + 1;
  }
}

/** A vector weighted by IDF and scaled to unit length, as a sparse map. */
export function weighted(terms: TermVector, idf: Idf): Map<string, number> {
  const out = new Map<string, number>();
  let norm = 0;
  for (const [s, w] of Object.entries(terms)) {
    const v = w * idf.weight(s);
    out.set(s, v);
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [s, v] of out) out.set(s, v / norm);
  return out;
}

function sparseCosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [s, v] of small) {
    const w = large.get(s);
    if (w !== undefined) dot += v * w;
  }
  return dot;
}

export function denseCosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export function addTerms(into: TermVector, terms: TermVector): void {
  for (const [s, w] of Object.entries(terms)) into[s] = (into[s] ?? 0) + w;
}

export function addEmbedding(into: number[] | null, embedding: number[]): number[] {
  if (!into || into.length !== embedding.length) return into && into.length > 0 ? into : [...embedding];
  for (let i = 0; i < embedding.length; i++) into[i]! += embedding[i]!;
  return into;
}

export interface PendingIssue {
  id: string;
  terms: TermVector;
  embedding: number[] | null;
}

export interface ClusterCentroid {
  id: string;
  terms: TermVector;
  embedding: number[] | null;
}

export interface Placement {
  /** Issue id -> id of the existing cluster it joins. */
  joined: Map<string, string>;
  /** Groups of issue ids that start new clusters, in order of their first issue. */
  created: string[][];
}

/**
 * Places new issues. Existing clusters never split or renumber: each new issue, in order,
 * joins the most similar cluster when similar enough (its centroid moves with it); the
 * rest are grouped among themselves by agglomerative clustering (average linkage, cut at
 * the same similarity), BATCH_SIZE at a time, and each group becomes a new cluster that
 * later issues may join. Embeddings are compared when both sides have them, else terms.
 */
export function placeIssues(pending: PendingIssue[], clusters: ClusterCentroid[], idf: Idf): Placement {
  interface Live {
    key: string;
    terms: TermVector;
    embedding: number[] | null;
    weightedTerms: Map<string, number> | null;
  }
  const live: Live[] = clusters.map((c) => ({ key: c.id, terms: { ...c.terms }, embedding: c.embedding ? [...c.embedding] : null, weightedTerms: null }));
  // Term -> clusters holding it: an issue is only compared with clusters sharing a term.
  const byTerm = new Map<string, Set<Live>>();
  const index = (cluster: Live, terms: TermVector) => {
    for (const s of Object.keys(terms)) {
      let set = byTerm.get(s);
      if (!set) byTerm.set(s, (set = new Set()));
      set.add(cluster);
    }
  };
  for (const cluster of live) index(cluster, cluster.terms);
  const withEmbeddings = live.filter((c) => c.embedding);

  const placement: Placement = { joined: new Map(), created: [] };
  const similarity = (issue: PendingIssue, vector: Map<string, number>, cluster: Live): number => {
    if (issue.embedding && cluster.embedding) return denseCosine(issue.embedding, cluster.embedding);
    cluster.weightedTerms ??= weighted(cluster.terms, idf);
    return sparseCosine(vector, cluster.weightedTerms);
  };
  const join = (cluster: Live, issue: PendingIssue) => {
    addTerms(cluster.terms, issue.terms);
    cluster.weightedTerms = null;
    if (issue.embedding) {
      if (!cluster.embedding) withEmbeddings.push(cluster);
      cluster.embedding = addEmbedding(cluster.embedding, issue.embedding);
    }
    index(cluster, issue.terms);
  };

  for (let start = 0; start < pending.length; start += BATCH_SIZE) {
    const batch = pending.slice(start, start + BATCH_SIZE);
    const rest: { issue: PendingIssue; vector: Map<string, number> }[] = [];
    for (const issue of batch) {
      const vector = weighted(issue.terms, idf);
      const candidates = new Set<Live>(issue.embedding ? withEmbeddings : []);
      for (const s of vector.keys()) for (const c of byTerm.get(s) ?? []) candidates.add(c);
      let best: Live | undefined;
      let bestScore = -1;
      for (const cluster of candidates) {
        const score = similarity(issue, vector, cluster);
        const threshold = issue.embedding && cluster.embedding ? EMBEDDING_THRESHOLD : TERMS_THRESHOLD;
        if (score >= threshold && score > bestScore) {
          best = cluster;
          bestScore = score;
        }
      }
      if (best) {
        join(best, issue);
        if (!best.key.startsWith('\u0000')) placement.joined.set(issue.id, best.key);
        else placement.created[Number(best.key.slice(1))]!.push(issue.id);
      } else {
        rest.push({ issue, vector });
      }
    }
    for (const group of groupByLinkage(rest)) {
      const cluster: Live = { key: `\u0000${placement.created.length}`, terms: {}, embedding: null, weightedTerms: null };
      placement.created.push(group.map((g) => g.issue.id));
      for (const member of group) join(cluster, member.issue);
      live.push(cluster);
    }
  }
  return placement;
}

/** Average-linkage agglomerative clustering (ml-hclust) cut at the similarity thresholds. */
function groupByLinkage<T extends { issue: PendingIssue; vector: Map<string, number> }>(items: T[]): T[][] {
  if (items.length <= 1) return items.map((item) => [item]);
  const n = items.length;
  const distances: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = items[i]!;
      const b = items[j]!;
      // Distances are scaled so one cut serves both kinds: 1 at the threshold's similarity.
      const d =
        a.issue.embedding && b.issue.embedding
          ? (1 - denseCosine(a.issue.embedding, b.issue.embedding)) / (1 - EMBEDDING_THRESHOLD)
          : (1 - sparseCosine(a.vector, b.vector)) / (1 - TERMS_THRESHOLD);
      distances[i]![j] = d;
      distances[j]![i] = d;
    }
  }
  const tree = agnes(distances, { method: 'average', isDistanceMatrix: true });
  // cut() keeps the subtrees whose merge height is below the cut; 1 + epsilon admits pairs exactly at the threshold.
  const groups = tree.cut(1 + 1e-9).map((node) => node.indices().sort((x, y) => x - y));
  groups.sort((x, y) => x[0]! - y[0]!);
  return groups.map((indices) => indices.map((i) => items[i]!));
}

/** The most distinctive terms of a centroid: weight times IDF, highest first. */
export function distinctiveTerms(centroid: TermVector, idf: Idf, count: number): string[] {
  return Object.entries(centroid)
    .map(([s, w]) => [s, w * idf.weight(s)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, count)
    .map(([s]) => s);
}

/** A label from the cluster's most distinctive terms, in words: "Password, reset, email". */
export function labelOf(centroid: TermVector, wordsOf: WordMap, idf: Idf): string {
  const terms = distinctiveTerms(centroid, idf, 3).map((s) => wordsOf[s] ?? s);
  if (terms.length === 0) return 'Other questions';
  const label = terms.join(', ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Icons (GitBook's icon names) for common kinds of problems, by stem; the first match wins. */
const ICONS: [string[], string][] = [
  [['~sso', '~signin', '~password', '~twofactor', 'password', 'login', 'log', 'sign', 'sso', 'saml', 'auth', 'authent', '2fa', 'mfa', 'account'], 'lock'],
  [['~billing', 'bill', 'invoic', 'payment', 'pai', 'price', 'plan', 'subscript', 'refund', 'charg', 'card'], 'credit-card'],
  [['~api', '~apitoken', '~ratelimit', '~webhook', 'api', 'endpoint', 'token', 'sdk', 'webhook', 'rate', 'limit', 'request'], 'code'],
  [['~domain', 'domain', 'dns', 'ssl', 'certif', 'host', 'url', 'redirect'], 'globe'],
  [['~search', 'search', 'find'], 'magnifying-glass'],
  [['~pdf', '~import', 'export', 'pdf', 'download', 'import', 'upload', 'file'], 'file-export'],
  [['~git', 'integr', 'slack', 'github', 'gitlab', 'sync', 'git'], 'plug'],
  [['error', 'crash', 'bug', 'fail', 'broken', 'slow', 'timeout'], 'triangle-exclamation'],
  [['~access', 'permiss', 'role', 'access', 'invit', 'member', 'team', 'user'], 'users'],
];

export function iconOf(terms: string[]): string {
  for (const term of terms) for (const [stemsOf, icon] of ICONS) if (stemsOf.includes(term)) return icon;
  return 'circle-question';
}

/** Monday 00:00 UTC of the week holding `date`, as YYYY-MM-DD. */
export function weekStart(date: Date): string {
  const day = (date.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - day));
  return monday.toISOString().slice(0, 10);
}

/** Issues per week over the 13 weeks ending with the current one, oldest first. */
export function weeklyPulse(weeks: Record<string, number>, now: Date): number[] {
  const current = new Date(`${weekStart(now)}T00:00:00.000Z`).getTime();
  const pulse: number[] = [];
  for (let i = 12; i >= 0; i--) pulse.push(weeks[new Date(current - i * 7 * 86_400_000).toISOString().slice(0, 10)] ?? 0);
  return pulse;
}

/** First sentences of a text, at most `max` characters, cut at a word. */
export function excerpt(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** The first sentence of a text. */
export function firstSentence(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const match = /^(.+?[.?!])(\s|$)/.exec(clean);
  return match ? match[1]! : clean;
}
