import { sql, type Expression, type ExpressionBuilder, type RawBuilder } from 'kysely';

/** `value` as a LIKE pattern matching it anywhere, with LIKE's wildcards taken literally. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `lower(column) LIKE %value%`: a case-insensitive "contains" on both dialects. ESCAPE is
 * explicit because SQLite has no default escape character.
 */
export function lowerContains(eb: ExpressionBuilder<any, any>, column: string, value: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${eb.ref(column)}) like ${containsPattern(value.toLowerCase())} escape '\\'`;
}

/** `column LIKE %value%`, case-sensitive, wildcards in `value` taken literally. */
export function contains(column: Expression<string> | RawBuilder<string>, value: string): RawBuilder<boolean> {
  return sql<boolean>`${column} like ${containsPattern(value)} escape '\\'`;
}
