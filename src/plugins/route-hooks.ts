/**
 * A route option's hooks (one, a list or none) as a new list, for plugins that add their
 * own to each route when it is added (an `onRoute` hook): per-route hooks cost a request
 * nothing on the routes that do not have them, and know their route without looking it up.
 */
export function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks];
}
