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
