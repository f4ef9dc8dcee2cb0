import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { matchFinder } from './match.ts';
import { parseSearchQuery, readMarkedText, type SearchQuery } from './query.ts';

/*
 * matchFinder must find exactly the words SQLite's FTS5 matches with Quire's tokenizer:
 * both are run over the same texts (a frozen copy of the spec and early decision notes,
 * plus words picked for diacritics, case, digits and stemming) and must agree on every
 * offset. The copy is frozen so the test's cost does not grow with the docs.
 */

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
    const find = matchFinder(query);
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
    const find = matchFinder(parseSearchQuery('happy'));
    expect(find('So happily, the happiest: HAPPY!')).toEqual([3, 16, 26]);
  });

  it('finds the same words in plain ASCII text (its fast path) as in any other text', () => {
    const ascii = paragraphs.filter((p) => /^[\x00-\x7f]*$/.test(p));
    expect(ascii.length).toBeGreaterThan(200);
    const differences: string[] = [];
    for (const word of words.filter((w, i) => i % 7 === 0 && /^[a-z0-9]+$/.test(w))) {
      for (const text of [word, word.slice(0, 3), `${word} x`, 'v2 x86']) {
        const find = matchFinder(parseSearchQuery(text));
        for (const paragraph of ascii) {
          // A trailing non-ASCII word sends the same text down the general path.
          const general = find(`${paragraph} é`).filter((offset) => offset < paragraph.length);
          if (find(paragraph).join() !== general.join()) differences.push(`${text} in ${paragraph.slice(0, 40)}`);
        }
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });
});
