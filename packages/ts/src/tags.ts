// The raw format's numbers, named once (google/snappy format_description.txt):
// https://github.com/google/snappy/blob/main/format_description.txt
//
// The hot loops do not read these bindings: V8's optimiser does not fold an imported
// binding into the code that reads it (see windows.ts), so each hot module binds what it
// uses to constants of its own (`const LITERAL = TAG_LITERAL`), which it does fold.

/** §2: the element type in a tag's two low bits. */
export const TAG_LITERAL = 0;
export const TAG_COPY1 = 1;
export const TAG_COPY2 = 2;
export const TAG_COPY4 = 3;

/**
 * §2.1 Literals: the tag's upper six bits hold length-1 below this; this value and the
 * three above it (60..63) mean length-1 follows in 1..4 little-endian bytes.
 */
export const LITERAL_LENGTH_IN_TAG = 60;

/** §2.2.1 Copy with 1-byte offset: lengths 4..11, offsets below 2048 (top 3 bits in the tag). */
export const COPY1_MIN_LENGTH = 4;
export const COPY1_MAX_LENGTH = 11;
export const COPY1_OFFSET_LIMIT = 2048;

/** §2.2.2 and §2.2.3: copies with 2- and 4-byte offsets hold length-1 in six bits: 1..64. */
export const COPY_MAX_LENGTH = 64;

/** libsnappy's kBlockSize: encoders compress 64 KiB fragments independently. */
export const BLOCK_SIZE = 1 << 16;

/**
 * The decoder's table: for each copy-1 and copy-2 tag (§2.2.1, §2.2.2), the copy's length
 * in bits 0–6, copy-1's top three offset bits (in place: bits 8–10), bit 12 set for copy-2
 * (one more offset byte), and from bit 16 the mask of the offset bytes that follow the tag
 * (0xff or 0xffff). Zero for the other tags (literals, copy-4). A builder, not a table:
 * the decoder keeps the table it builds as a constant of its own (see the top).
 */
export function copyTable(): Int32Array {
  const table = new Int32Array(256);
  for (let tag = 0; tag < 256; tag++) {
    if ((tag & 3) === TAG_COPY1) {
      table[tag] = (0xff << 16) | ((tag >>> 5) << 8) | (COPY1_MIN_LENGTH + ((tag >>> 2) & 7));
    } else if ((tag & 3) === TAG_COPY2) {
      table[tag] = (0xffff << 16) | (1 << 12) | ((tag >>> 2) + 1);
    }
  }
  return table;
}
