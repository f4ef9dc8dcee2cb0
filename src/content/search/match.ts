import { stemmer } from 'stemmer';
import type { SearchQuery } from './query.ts';

/*
 * Where in a text the words of a search are, found as SQLite's FTS5 finds them with the
 * tokenizer Quire gives it (`porter unicode61 remove_diacritics 2`): tokens are runs of
 * letters, digits and private-use characters, folded to lower case without diacritics,
 * then stemmed with Porter's 1980 algorithm (the `stemmer` package implements the same
 * algorithm; match.test.ts checks both agree, word for word, against FTS5's highlight()).
 * The SQLite search ranks pages in FTS5 and finds the matched words of the pages it shows
 * here, which costs far less than asking FTS5 to highlight those pages again.
 */

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
const stems = new Map<string, string>();
/** A folded word as FTS5's porter tokenizer stems it. */
export function stem(word: string): string {
  if (word.length < 3 || word.length > MAX_STEMMED) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    // A bounded memo: a documentation corpus repeats a small vocabulary.
    if (stems.size >= 50_000) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * A function giving the offsets (in UTF-16 units) of the words of a text the query
 * matches: a word matches a whole-word term when both stem alike, and a prefix term
 * when its stem starts with the term's stem (FTS5 stems the prefix too).
 */
export function matchFinder(query: SearchQuery): (text: string) => number[] {
  const whole = new Set<string>();
  const prefixes: string[] = [];
  for (const term of query.flat()) {
    const stemmed = stem(fold(term.text));
    if (term.prefix) prefixes.push(stemmed);
    else whole.add(stemmed);
  }
  // Porter only rewrites the end of a word, and a stem of two letters or more keeps the
  // word's first two: a word can match only when it starts as a term's stem does, so most
  // words are never stemmed. (Stems shorter than two letters are compared by one.)
  const terms = [...whole, ...prefixes];
  const starts = new Set(terms.filter((s) => s.length >= 2).map((s) => s.slice(0, 2)));
  const initials = new Set(terms.filter((s) => s.length < 2).map((s) => s.slice(0, 1)));
  const matches = (folded: string) => {
    const stemmed = stem(folded);
    return whole.has(stemmed) || prefixes.some((p) => stemmed.startsWith(p));
  };
  // Plain ASCII text (most documentation) is lower-cased whole, which keeps every offset,
  // and only the tokens starting as a stem does are visited: one pass of the regex engine
  // instead of a match object, a fold and a slice per word. In ASCII a token is a run of
  // [a-z0-9] (letters and digits are all \p{L} and \p{N} hold there).
  const asciiStarts = [...starts, ...initials].filter((s) => /^[a-z0-9]+$/.test(s));
  const candidates = new RegExp(`(?<![a-z0-9])(?:${asciiStarts.join('|') || '(?!)'})[a-z0-9]*`, 'g');
  return (text) => {
    const found: number[] = [];
    if (ASCII.test(text)) {
      for (const token of text.toLowerCase().matchAll(candidates)) if (matches(token[0])) found.push(token.index);
      return found;
    }
    for (const token of text.matchAll(TOKEN)) {
      const folded = fold(token[0]);
      if (!starts.has(folded.slice(0, 2)) && !initials.has(folded.slice(0, 1))) continue;
      if (matches(folded)) found.push(token.index);
    }
    return found;
  };
}
