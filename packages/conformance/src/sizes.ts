// The sizes the boundary checks test: every size constant the code under test defines, and
// every power of two, each with its neighbours (±1). A codec treats a size specially at a
// constant (a window, a block, a threshold); the bug sits at the constant or one off it.

/** A named number read from the code under test, e.g. `ts/decompress.ts SMALL_OUTPUT`. */
export interface SizeConstant {
  readonly name: string;
  readonly value: number;
}

/** One size to test, and why: the constants (or power of two) it is at or next to. */
export interface BoundarySize {
  readonly size: number;
  readonly because: readonly string[];
}

/** What {@link boundarySizes} chose, and what it left out as too large to round-trip. */
export interface BoundaryPlan {
  readonly sizes: readonly BoundarySize[];
  /** Constants whose sizes are over {@link BoundaryLimits.maxSize}, by name and value. */
  readonly tooLarge: readonly SizeConstant[];
}

export interface BoundaryLimits {
  /**
   * The largest size tested at all (constants over it are listed in `tooLarge`).
   * @default 16 MiB + 1
   */
  readonly maxSize?: number;
  /**
   * Powers of two from 2^0 up to this one are tested too (with their neighbours).
   * @default 2^20
   */
  readonly maxPowerOfTwo?: number;
}

export const DEFAULT_MAX_SIZE = 16 * 2 ** 20 + 1;
const DEFAULT_MAX_POWER = 2 ** 20;

/**
 * The sizes to test for `constants`: each constant (rounded, if fractional) and its
 * neighbours, and every power of two up to `maxPowerOfTwo` and its neighbours, in ascending
 * order, each naming why it is there.
 */
export function boundarySizes(
  constants: readonly SizeConstant[],
  limits: BoundaryLimits = {},
): BoundaryPlan {
  const maxSize = limits.maxSize ?? DEFAULT_MAX_SIZE;
  const reasons = new Map<number, string[]>();
  const at = (value: number, because: string) => {
    for (const size of [value - 1, value, value + 1]) {
      if (size < 0 || size > maxSize) continue;
      const list = reasons.get(size) ?? [];
      const why = size === value ? because : `${because} ${size < value ? "-" : "+"} 1`;
      if (!list.includes(why)) list.push(why);
      reasons.set(size, list);
    }
  };
  for (let p = 1; p <= (limits.maxPowerOfTwo ?? DEFAULT_MAX_POWER); p *= 2)
    at(p, `2^${Math.log2(p)}`);
  const tooLarge: SizeConstant[] = [];
  for (const constant of constants) {
    const value = Math.round(constant.value);
    if (!Number.isFinite(value) || value < 0) continue;
    if (value - 1 > maxSize) tooLarge.push(constant);
    else at(value, `${constant.name} (${constant.value})`);
  }
  const sizes = [...reasons]
    .sort(([a], [b]) => a - b)
    .map(([size, because]) => ({ size, because }));
  return { sizes, tooLarge };
}
