/*
 * Table rows are ordered by `orderIndex` strings compared as plain strings. GitBook's editor
 * inserts rows with fractional indexing (keys like `a0`, `a1`, `b10`), so rows read from
 * markdown get keys in that format: a head letter giving the number of base-62 digits
 * (`a` = 1, `b` = 2, ...) followed by the digits. They sort in row order and leave room
 * for rows the editor puts between them later.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The order key of the row at zero-based position `index`. */
export function orderIndex(index: number): string {
  let digits = '';
  let rest = index;
  do {
    digits = DIGITS[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return String.fromCharCode('a'.charCodeAt(0) + digits.length - 1) + digits;
}
