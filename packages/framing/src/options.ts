import { checkOptions } from "@snappykit/core";

/**
 * `options`' known keys, checked by core's `checkOptions` (own properties only, unknown keys
 * refused), in an object with no prototype: reading a key the caller did not set gives
 * `undefined`, never a value planted on `Object.prototype`.
 */
export function ownOptions<T extends object>(
  options: T | undefined,
  known: readonly string[],
  what?: string,
): Partial<T> {
  return Object.assign(Object.create(null) as Partial<T>, checkOptions(options, known, what));
}
