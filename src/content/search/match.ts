import { stem as porter2 } from 'porter2';
import { stemmer } from 'stemmer';
import { boundedMemo } from '../../lib/memo.ts';
import { POSTGRES_ENGLISH_STOPWORDS } from './postgres-stopwords.ts';
import type { IndexedTerm, SearchQuery } from './query.ts';

/*
 * Where in a text the words of a search are, found as the database's full-text search
 * finds them, so the database is asked only which pages and sections match, never to
 * mark the words in them again (FTS5's highlight() and PostgreSQL's ts_headline() parse
 * and stem the whole text once more, which costs far more than this).
 *
 * - SQLite FTS5 with Quire's tokenizer (`porter unicode61 remove_diacritics 2`): tokens
 *   are runs of letters, digits and private-use characters, folded to lower case without
 *   diacritics, then stemmed with Porter's 1980 algorithm (the `stemmer` package);
 * - PostgreSQL's `english` configuration: words lower-cased, the snowball stop words left
 *   out, the rest stemmed with the snowball English (Porter2) algorithm (the `porter2`
 *   package); words holding digits are kept as they are (its `simple` dictionary).
 *
 * match.test.ts holds each to its database, offset for offset.
 */

/** How a database turns a token of text into the word it indexes. */
export interface Tokenizer {
  /** The token in lower case (and whatever else the database folds); plain ASCII is only lower-cased. */
  fold(token: string): string;
  /** The folded token as indexed ('': not indexed). */
  index(folded: string): string;
  /** Words whose stem does not start with the word's own first two letters (Porter2's exceptions): their stem's two, and the word's. */
  oddStarts?: ReadonlyMap<string, string>;
}

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;

/** unicode61 with remove_diacritics 2: lower case, marks dropped. */
const fold = (token: string) => {
  const lower = token.toLowerCase();
  // Most tokens are plain ASCII: nothing to decompose.
  return ASCII.test(lower) ? lower : lower.normalize('NFKD').replace(/\p{M}/gu, '');
};

/** FTS5's porter tokenizer leaves tokens under 3 or over 64 characters as they are. */
const MAX_STEMMED = 64;
// Memoized: a documentation corpus repeats a small vocabulary.
const fts5Stem = boundedMemo(stemmer, 50_000);
/** A folded word as FTS5's porter tokenizer stems it. */
export function stem(word: string): string {
  return word.length < 3 || word.length > MAX_STEMMED ? word : fts5Stem(word);
}

export const FTS5_PORTER: Tokenizer = { fold, index: stem };

const HOLDS_DIGIT = /\d/;
const postgresStem = boundedMemo(porter2, 50_000);

export const POSTGRES_ENGLISH: Tokenizer = {
  fold: (token) => token.toLowerCase(),
  index(lower) {
    if (HOLDS_DIGIT.test(lower)) return lower;
    return POSTGRES_ENGLISH_STOPWORDS.has(lower) ? '' : postgresStem(lower);
  },
  oddStarts: new Map([
    ['di', 'dy'],
    ['li', 'ly'],
    ['ti', 'ty'],
  ]),
};

/** A query's terms as FTS5 indexes them (it stems a prefix too). */
export const fts5Terms = (query: SearchQuery): IndexedTerm[] => query.flat().map((t) => ({ word: stem(fold(t.text)), prefix: t.prefix }));

/**
 * A function giving the offsets (in UTF-16 units) of the words of a text these terms
 * match (the first `most` of them): a word matches a whole-word term when both index
 * alike, and a prefix term when its indexed form starts with the term.
 */
export function matchFinder(terms: IndexedTerm[], tokenizer: Tokenizer = FTS5_PORTER): (text: string, most?: number) => number[] {
  const whole = new Set(terms.filter((t) => !t.prefix && t.word !== '').map((t) => t.word));
  const prefixes = terms.filter((t) => t.prefix && t.word !== '').map((t) => t.word);
  // Stemmers rewrite the end of a word, and a stem of two letters or more keeps the
  // word's first two (but for the exceptions the tokenizer names): a word can match only
  // when it starts as a term does, so most words are never stemmed. (Terms shorter than
  // two letters are compared by one.)
  const all = [...whole, ...prefixes];
  const starts = new Set(all.filter((s) => s.length >= 2).map((s) => s.slice(0, 2)));
  for (const s of [...starts]) {
    const odd = tokenizer.oddStarts?.get(s);
    if (odd) starts.add(odd);
  }
  const initials = new Set(all.filter((s) => s.length < 2).map((s) => s.slice(0, 1)));
  const matches = (folded: string) => {
    const indexed = tokenizer.index(folded);
    return indexed !== '' && (whole.has(indexed) || prefixes.some((p) => indexed.startsWith(p)));
  };
  // In plain ASCII text (most documentation) only the tokens starting as a term does are
  // visited: one pass of the regex engine, case-insensitive (only the tokens visited are
  // lower-cased, not the whole text), instead of a match object, a fold and a slice per
  // word. In ASCII a token is a run of [a-z0-9] (letters and digits are all \p{L} and
  // \p{N} hold there).
  const asciiStarts = [...starts, ...initials].filter((s) => /^[a-z0-9]+$/.test(s));
  const candidates = new RegExp(`(?<![a-z0-9])(?:${asciiStarts.join('|') || '(?!)'})[a-z0-9]*`, 'gi');
  return (text, most = Infinity) => {
    const found: number[] = [];
    if (ASCII.test(text)) {
      candidates.lastIndex = 0;
      for (let token = candidates.exec(text); token !== null; token = candidates.exec(text)) {
        if (matches(token[0].toLowerCase()) && found.push(token.index) >= most) break;
      }
      return found;
    }
    for (const token of text.matchAll(TOKEN)) {
      const folded = tokenizer.fold(token[0]);
      if (!starts.has(folded.slice(0, 2)) && !initials.has(folded.slice(0, 1))) continue;
      if (matches(folded) && found.push(token.index) >= most) break;
    }
    return found;
  };
}
