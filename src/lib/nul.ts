/** NUL characters in user input (PostgreSQL cannot store U+0000 in text or JSON). */

/**
 * The path (`body/title`, `params/spaceId`, `query/cursor`) of the first string or object
 * key holding a NUL character, or null. PostgreSQL cannot store U+0000 in text or JSON
 * ("invalid byte sequence for encoding UTF8: 0x00") while SQLite can: refusing it here,
 * once for every input, gives both databases the same answer and no query ever sees it.
 */
export function nulPath(value: unknown, at: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${at}/${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${at} (a field name)`;
    const found = nulPath(item, `${at}/${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Whether a string or object key anywhere in `value` holds a NUL; allocates nothing. */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64 || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsNul(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key.includes('\u0000') || holdsNul((value as Record<string, unknown>)[key], depth + 1)) return true;
  }
  return false;
}
