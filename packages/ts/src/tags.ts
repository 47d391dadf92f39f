// The raw format's numbers, named once (google/snappy format_description.txt):
// https://github.com/google/snappy/blob/main/format_description.txt
//
// The checked decoder (checked.ts) binds what it uses to constants of its own (see
// windows.ts); plain.ts reads them as they are.

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
