/*
 * What a search text means, independent of the database: words (letters and digits),
 * all required; the last word is also matched as a prefix (the user may still be typing
 * it). Stemming happens in the database (FTS5 porter, PostgreSQL `english`), and a
 * stemmer also stems a prefix ("installa" -> "installa", while "installation" is indexed
 * as "instal"), so the last word also matches, as whole words, its own prefixes down to
 * three letters: one of them is the stem of the word being typed. Each dialect renders
 * these groups in its own syntax (search.repository.ts).
 */

export interface QueryTerm {
  text: string;
  prefix: boolean;
}

/** A searched word as the database indexes it (stemmed); `prefix`: it also matches the words starting with it. */
export interface IndexedTerm {
  word: string;
  prefix: boolean;
}

/** All groups must match; a group matches when any of its terms does. */
export type SearchQuery = QueryTerm[][];

const MAX_WORDS = 32;

export function parseSearchQuery(text: string): SearchQuery {
  const words = (text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
  return words.map((word, i) => {
    if (i < words.length - 1) return [{ text: word, prefix: false }];
    const group: QueryTerm[] = [{ text: word, prefix: true }];
    const shortest = Math.max(3, word.length - 6);
    for (let n = word.length - 1; n >= shortest; n--) group.push({ text: word.slice(0, n), prefix: false });
    return group;
  });
}

/** An FTS5 string: quoted, so no operator can be smuggled in. */
export const fts5String = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** SQLite FTS5 syntax: quoted terms, `*` for prefixes. */
export function fts5Expression(query: SearchQuery): string {
  return query.map((group) => `(${group.map((t) => `${fts5String(t.text)}${t.prefix ? '*' : ''}`).join(' OR ')})`).join(' AND ');
}

/** PostgreSQL to_tsquery syntax, one expression per group: `|` between its terms, `:*` for prefixes. */
export function tsqueryGroups(query: SearchQuery): string[] {
  // Words hold only letters and digits, so they carry no tsquery operator.
  return query.map((group) => group.map((t) => `${t.text}${t.prefix ? ':*' : ''}`).join(' | '));
}

/** A whole query for to_tsquery from its groups (tsqueryGroups): every group (`&`). */
export const everyGroupTsquery = (groups: string[]) => groups.map((g) => `(${g})`).join(' & ');

/** The same terms, any of them (which sections of a matching page hold a searched word). */
export const anyTermOfGroups = (groups: string[]) => groups.join(' | ');

export const anyTermTsquery = (query: SearchQuery) => anyTermOfGroups(tsqueryGroups(query));

/** The terms of a tsquery as PostgreSQL prints it (`'configur':* | 'config'`): its lexemes, each a prefix when marked `:*`. */
export function tsqueryTerms(printed: string): IndexedTerm[] {
  return [...printed.matchAll(/'((?:[^']|'')*)'(:\*)?/g)].map((m) => ({ word: m[1].replace(/''/g, "'"), prefix: m[2] !== undefined }));
}

/** How much of a section's text an excerpt shows: a text this long or shorter is shown whole. */
export const EXCERPT_SIZE = 240;

/**
 * The part of a section's text to show: the text around the first match, at `matchAt` when
 * the database said where it is, else around the first word that starts like a searched
 * word (or its first three letters, which survive stemming), else its start.
 */
export function excerpt(body: string, query: SearchQuery, matchAt = -1, size = EXCERPT_SIZE): string {
  if (body.length <= size) return body;
  const at = matchAt >= 0 ? matchAt : firstWordLike(body, query);
  if (at < 0) return `${body.slice(0, size).trimEnd()}…`;
  const start = Math.max(0, at - Math.floor(size / 3));
  const end = Math.min(body.length, start + size);
  return `${start > 0 ? '…' : ''}${body.slice(start, end).trim()}${end < body.length ? '…' : ''}`;
}

function firstWordLike(body: string, query: SearchQuery): number {
  const lower = body.toLowerCase();
  let at = -1;
  for (const group of query) {
    for (const term of group) {
      const root = term.text.slice(0, Math.max(3, Math.min(term.text.length, term.text.length - 3)));
      const re = new RegExp(`(^|[^\\p{L}\\p{N}])${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u');
      const m = re.exec(lower);
      if (m && (at < 0 || m.index < at)) at = m.index + m[1].length;
    }
  }
  return at;
}
