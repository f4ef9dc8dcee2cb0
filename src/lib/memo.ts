/**
 * A memo of a pure function of a string, emptied whenever it holds `max` results: for
 * work over a small vocabulary (word stems) that must not grow without bound.
 */
export function boundedMemo<T>(fn: (key: string) => T, max: number): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    let result = kept.get(key);
    if (result === undefined) {
      result = fn(key);
      if (kept.size >= max) kept.clear();
      kept.set(key, result);
    }
    return result;
  };
}
