const reusableValues = new WeakSet<object>();

/**
 * Marks a computed result that is cached and served again unchanged (it must never be
 * mutated afterwards), so its serialized bytes can be reused too (plugins/serialization.ts).
 */
export function reusable<T extends object>(value: T): T {
  reusableValues.add(value);
  return value;
}

/** Whether `value` was marked reusable. */
export function isReusable(value: unknown): value is object {
  return typeof value === 'object' && value !== null && reusableValues.has(value);
}

const presentations = new WeakMap<object, WeakMap<object, object>>();

/**
 * The wire object of a domain result a service reuses (a cached read, the same object on
 * every hit): presented once per result and presenter, and marked reusable, so a hit is
 * neither presented nor serialized again. `present` must be one function for the app's
 * life (not a fresh closure per request), or nothing is remembered. A hit (a value) is
 * answered at once, with no promise; a miss when its read settles.
 */
export function presentReused<D extends object, W extends object>(result: D | Promise<D>, present: (value: D) => W): W | Promise<W> {
  if (result instanceof Promise) return result.then((value) => presentReused(value, present) as W);
  let byResult = presentations.get(present);
  if (byResult === undefined) presentations.set(present, (byResult = new WeakMap()));
  let wire = byResult.get(result) as W | undefined;
  if (wire === undefined) byResult.set(result, (wire = reusable(present(result))));
  return wire;
}
