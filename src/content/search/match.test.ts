import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fts5Terms, matchFinder, POSTGRES_ENGLISH } from './match.ts';
import { POSTGRES_ENGLISH_STOPWORDS } from './postgres-stopwords.ts';
import { anyTermTsquery, parseSearchQuery, tsqueryTerms, type SearchQuery } from './query.ts';

/*
 * matchFinder must find exactly the words the database matches: SQLite's FTS5 with
 * Quire's tokenizer, and (on the PostgreSQL run) PostgreSQL's `english` configuration.
 * Each is run over the same texts as the database (a frozen copy of the spec and early
 * decision notes, plus words picked for diacritics, case, digits and stemming) and must
 * agree on every offset the database marks. The copy is frozen so the test's cost does
 * not grow with the docs.
 */

/** Text whose matched words the database wrapped in \u0001 and \u0002: the text, and where the matches are. */
function readMarkedText(marked: string): { text: string; matches: number[] } {
  const [first, ...rest] = marked.split('\u0001');
  const matches: number[] = [];
  let text = first;
  for (const part of rest) {
    matches.push(text.length);
    text += part.replace('\u0002', '');
  }
  return { text, matches };
}

const CORPUS = path.resolve(import.meta.dirname, '../../../test/fixtures/search/corpus.md');
const paragraphs = [
  'Café crème, naïve façade: ÉLAN and Über-Größe.',
  'Relational generalization, happily running; the happiest runners ran.',
  'Version 4242 of v2 ships x86_64 builds; IPv6 and UTF-8 work.',
  'Flies flying fly; ponies, agreed, agreement, feeds, feed.',
  ...fs.readFileSync(CORPUS, 'utf8').split(/\n\s*\n/),
].filter((p) => p.trim().length > 0);

function ftsTable() {
  const db = new Database(':memory:');
  db.exec(`create virtual table t using fts5(body, tokenize='porter unicode61 remove_diacritics 2')`);
  const insert = db.prepare('insert into t (rowid, body) values (?, ?)');
  db.transaction(() => paragraphs.forEach((p, i) => insert.run(i + 1, p)))();
  return db;
}

/** What FTS5 says: for each paragraph it matches, the offsets of the words highlight() marks. */
function ftsMatches(db: Database.Database, query: SearchQuery): Map<number, number[]> {
  const expression = query.map((group) => `(${group.map((t) => `"${t.text}"${t.prefix ? '*' : ''}`).join(' OR ')})`).join(' OR ');
  const rows = db.prepare(`select rowid, highlight(t, 0, char(1), char(2)) as marked from t where t match ?`).all(expression) as { rowid: number; marked: string }[];
  return new Map(rows.map((r) => [r.rowid - 1, readMarkedText(r.marked).matches]));
}

describe('matchFinder', () => {
  const db = ftsTable();
  const words = [...new Set(paragraphs.flatMap((p) => p.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))].sort();

  const agree = (text: string) => {
    const query = parseSearchQuery(text);
    const expected = ftsMatches(db, query);
    const find = matchFinder(fts5Terms(query));
    const mismatches: string[] = [];
    paragraphs.forEach((paragraph, i) => {
      const ours = find(paragraph);
      const theirs = expected.get(i) ?? [];
      if (ours.join() !== theirs.join()) mismatches.push(`${JSON.stringify(text)} in paragraph ${i}: ours ${ours.join()} FTS5 ${theirs.join()}`);
    });
    return mismatches;
  };

  it('finds the words FTS5 finds, for whole words and prefixes of the corpus', () => {
    expect(paragraphs.length).toBeGreaterThan(300);
    expect(words.length).toBeGreaterThan(1500);
    const mismatches: string[] = [];
    // Every fifth word, whole (as a non-last word) and as typed prefixes of several lengths.
    for (const word of words.filter((_, i) => i % 5 === 0)) {
      mismatches.push(...agree(`${word} ${word}`));
      if (word.length >= 4) mismatches.push(...agree(word.slice(0, word.length - 1)));
      if (word.length >= 6) mismatches.push(...agree(word.slice(0, 4)));
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('folds case and diacritics and stems as FTS5 does', () => {
    for (const text of ['cafe', 'CRÈME', 'naive', 'elan', 'uber', 'grosse', 'relate', 'general', 'happy', 'run', 'fly', 'poni', 'agre', 'feed', '4242', 'ipv6', 'utf']) {
      expect(agree(text)).toEqual([]);
    }
    const find = matchFinder(fts5Terms(parseSearchQuery('happy')));
    expect(find('So happily, the happiest: HAPPY!')).toEqual([3, 16, 26]);
  });

  it('finds the same words in plain ASCII text (its fast path) as in any other text', () => {
    const ascii = paragraphs.filter((p) => /^[\x00-\x7f]*$/.test(p));
    expect(ascii.length).toBeGreaterThan(200);
    const differences: string[] = [];
    for (const word of words.filter((w, i) => i % 7 === 0 && /^[a-z0-9]+$/.test(w))) {
      for (const text of [word, word.slice(0, 3), `${word} x`, 'v2 x86']) {
        const find = matchFinder(fts5Terms(parseSearchQuery(text)));
        for (const paragraph of ascii) {
          // A trailing non-ASCII word sends the same text down the general path.
          const general = find(`${paragraph} é`).filter((offset) => offset < paragraph.length);
          if (find(paragraph).join() !== general.join()) differences.push(`${text} in ${paragraph.slice(0, 40)}`);
        }
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    // Tens of thousands of searches: about 19 s alone on a two-core machine, so more than the default 30 s when the machine is shared.
  }, 120_000);
});

/*
 * On PostgreSQL, matchFinder finds every word ts_headline marks, and also the words of
 * text its parser reads as something other than words: a path (`/v1/sites`), a host or
 * file name (`next.page`, `match.ts`), an HTML tag, a signed number (`-42`). Those are
 * searched words to a reader, and an excerpt centred on one shows the word; the test
 * asks the parser itself (ts_debug) that every extra word lies in such a token.
 */
describe.runIf(process.env.DATABASE_URL)('matchFinder for PostgreSQL', () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  const words = [...new Set(paragraphs.flatMap((p) => p.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []))].sort();
  /** Token types whose text the `english` configuration indexes as words. */
  const WORD_TOKENS = new Set(['asciiword', 'word', 'numword', 'hword_asciipart', 'hword_part', 'hword_numpart']);
  /** Token types the parser gives for a whole whose parts follow as tokens of their own (at the same offsets). */
  const WHOLES = new Set(['asciihword', 'hword', 'numhword', 'url']);
  const tokenTypes = new Map<number, (offset: number) => string | undefined>();

  /** The type of the token of paragraph `i` covering `offset`, as PostgreSQL's parser reads the paragraph. */
  async function tokenAt(i: number, offset: number): Promise<string | undefined> {
    if (!tokenTypes.has(i)) {
      const { rows } = await client.query<{ alias: string; token: string }>(`select alias, token from ts_debug('english', $1)`, [paragraphs[i]]);
      const spans: { start: number; end: number; alias: string }[] = [];
      let at = 0;
      for (const { alias, token } of rows) {
        spans.push({ start: at, end: at + token.length, alias });
        if (!WHOLES.has(alias)) at += token.length;
      }
      tokenTypes.set(i, (x) => spans.find((s) => !WHOLES.has(s.alias) && s.start <= x && x < s.end)?.alias);
    }
    return tokenTypes.get(i)!(offset);
  }

  beforeAll(async () => {
    await client.connect();
    await client.query(`create temporary table paragraphs (i int primary key, body text not null, tsv tsvector not null)`);
    await client.query(`insert into paragraphs select i - 1, body, to_tsvector('english', body) from unnest($1::text[]) with ordinality as p(body, i)`, [paragraphs]);
  });
  afterAll(() => client.end());

  /** Differences from ts_headline on the paragraphs the query matches (as readSections asks: any searched word). */
  const agree = async (text: string) => {
    const { rows } = await client.query<{ i: number; marked: string; searched: string }>(
      `select p.i, ts_headline('english', p.body, q.q, 'HighlightAll=true, StartSel="\u0001", StopSel="\u0002"') as marked, q.q::text as searched
       from paragraphs p, to_tsquery('english', $1) as q(q) where p.tsv @@ q.q order by p.i`,
      [anyTermTsquery(parseSearchQuery(text))],
    );
    const mismatches: string[] = [];
    let extra = 0;
    for (const row of rows) {
      const { text: body, matches } = readMarkedText(row.marked);
      const find = matchFinder(tsqueryTerms(row.searched), POSTGRES_ENGLISH);
      const ours = find(paragraphs[row.i]);
      const where = `${JSON.stringify(text)} in paragraph ${row.i}`;
      // readSections asks for the first only.
      if (find(paragraphs[row.i], 1).join() !== ours.slice(0, 1).join()) mismatches.push(`${where}: the first of ${ours.join()} is not ${find(paragraphs[row.i], 1).join()}`);
      if (body !== paragraphs[row.i]) mismatches.push(`${where}: ts_headline changed the text`);
      const missed = matches.filter((offset) => !ours.includes(offset));
      if (missed.length > 0) mismatches.push(`${where}: missed ${missed.join()}`);
      for (const offset of ours.filter((o) => !matches.includes(o))) {
        extra++;
        const type = await tokenAt(row.i, offset);
        if (type === undefined || WORD_TOKENS.has(type)) mismatches.push(`${where}: ${offset} is in a ${type ?? 'missing'} token, not marked`);
      }
    }
    return { matched: rows.length, extra, mismatches };
  };

  it('finds the words ts_headline marks, for whole words and prefixes of the corpus, and others only in tokens that are not words', async () => {
    const mismatches: string[] = [];
    let matched = 0;
    let extra = 0;
    for (const word of words.filter((_, i) => i % 5 === 0)) {
      for (const text of [`${word} ${word}`, ...(word.length >= 4 ? [word.slice(0, word.length - 1)] : []), ...(word.length >= 6 ? [word.slice(0, 4)] : [])]) {
        const result = await agree(text);
        matched += result.matched;
        extra += result.extra;
        mismatches.push(...result.mismatches);
      }
    }
    expect(matched).toBeGreaterThan(5000);
    // The corpus is a technical spec, full of paths: the extra words are a fact of it, and the check above explains each.
    expect(extra).toBeGreaterThan(0);
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  it('lowers case, keeps diacritics and words with digits, and leaves stop words out as PostgreSQL does', async () => {
    for (const text of ['cafe', 'café', 'CRÈME', 'naïve', 'élan', 'über', 'relate', 'general', 'happy', 'run', 'fly', 'poni', 'agre', 'feed', '4242', 'ipv6', 'utf', 'only', 'dying', 'skies', 'the']) {
      expect((await agree(text)).mismatches).toEqual([]);
    }
    // Porter2 stems happily and happiest apart from happy (Porter's 1980 algorithm, FTS5's, does not); dying is one of its exceptions.
    const { rows } = await client.query<{ searched: string }>(`select to_tsquery('english', 'happy | dying')::text as searched`);
    expect(matchFinder(tsqueryTerms(rows[0].searched), POSTGRES_ENGLISH)('So happily, the happiest: HAPPY! Died, dying.')).toEqual([26, 33, 39]);
  });

  it('holds the stop word list of the english dictionary', async () => {
    const { rows } = await client.query<{ word: string; stop: boolean }>(
      `select w as word, ts_lexize('english_stem', w) = '{}' as stop from unnest($1::text[]) as w`,
      [[...new Set([...words, ...POSTGRES_ENGLISH_STOPWORDS])]],
    );
    const differences = rows.filter((r) => r.stop !== POSTGRES_ENGLISH_STOPWORDS.has(r.word)).map((r) => r.word);
    expect(rows.length).toBeGreaterThan(1500);
    expect(differences).toEqual([]);
  });
});
