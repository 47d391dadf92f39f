// The decoder's two windows, and the sizes that steer it. Shared with the modules that
// decode through them by a function, not by exported bindings: V8's optimiser folds a
// module's own constants into the code that reads them (a constant DataView's checks and
// data pointer drop out of the loop), but not an imported binding, nor one its module
// exports (both are read through a cell). With the windows exported from the fast path's
// module, uncompressInto ran 1.35-1.41x slower on beacon-block and 1.55-1.60x on
// json-log-256k (an A/B of the two builds in one process, p50 of the per-batch ratios). Each decoding module therefore takes the windows
// once, into constants of its own.

import { kernel } from "./kernel.js";

/** Literals at least this long use `set` (one call); shorter ones 8- or 4-byte moves. */
const LONG_LITERAL = 256;

// The decoder reads and writes only through two module constants, an input window `IN` and
// an output window `OUT`, each with a `DataView` made once; regions of the WebAssembly
// kernel's memory (kernel.ts), whose fast path decodes there, or without it arrays of
// their own. The optimiser folds a constant
// view in: no map check, a constant length, and no reload of either after each store, which
// it repeats for a view passed in (`--print-opt-code`: ~11 instructions around every 4-byte
// move instead of ~4). Against decoding through views of the caller's arrays,
// `uncompressInto` ÷ napi went from 1.35 to 1.01 on beacon-block and from 2.18 to 1.38 on
// json-log (docs/findings/2026-12-ts-wasm-kernel.md). The price: the output is copied out of `OUT` at the end (one
// `set`), and the input into `IN`.

/**
 * Input window: `IN[0..end)` holds `input[inBase..inBase + end)`. An input up to this size is
 * copied in whole; a longer one a window at a time, refilled when fewer than 17 bytes are
 * left in it.
 */
const IN_SIZE = 32 * 1024;

/**
 * The input window of a mostly incompressible stream (compressed to more than 7/8 of its
 * length) whose output is over {@link SMALL_OUTPUT}: its literals are read from the input
 * itself, so a smaller window copies less of them in vain. 512 B, not 4 KiB: a data column's
 * one long literal starts ~40 bytes in, and copying 4 KiB ahead of it was 6 % of its
 * uncompressInto (679 -> 637 ns; columns-32k-chunks 9.55 -> 9.11 µs; `pnpm bench --codec
 * ts,cpp --reference cpp --op uncompress-into`).
 */
const SPARSE_IN = 512;
const IN = kernel ? new Uint8Array(kernel.memory, kernel.inAt, IN_SIZE) : new Uint8Array(IN_SIZE);
const IN_VIEW = new DataView(IN.buffer, IN.byteOffset, IN_SIZE);

/**
 * Output window: `OUT[0..op)` holds output bytes `outBase..outBase + op`, of which
 * `OUT[0..flushed)` are already in the destination array too. Output up to this size is
 * decoded here in whole and copied out at the end. Longer output is flushed when the window
 * is full, keeping its last {@link KEEP} bytes for the copies that follow.
 */
const OUT_SIZE = 256 * 1024;
const OUT = kernel
  ? new Uint8Array(kernel.memory, kernel.outAt, OUT_SIZE)
  : new Uint8Array(OUT_SIZE);
const OUT_VIEW = new DataView(OUT.buffer, OUT.byteOffset, OUT_SIZE);

/**
 * Output kept in the window when it moves on: the longest offset libsnappy writes (its
 * fragments are 64 KiB). A copy from further back (copy-4) reads the destination array.
 */
const KEEP = 64 * 1024;

/**
 * In a mostly incompressible stream, literals at least this long go from the input straight
 * to the destination array, one copy as before the windows, and the window restarts empty
 * after them (a later copy from before it reads the destination). In other streams copies
 * from them are likely, so they go through the window (unless longer than its room). With
 * `OUT_SIZE >= KEEP + DIRECT` a full window always holds `KEEP` bytes to keep.
 */
const DIRECT = 4096;

/**
 * Results up to this size are decoded without a destination array (no literal goes direct,
 * the window never moves) and copied out of `OUT` with one `slice`.
 */
const SMALL_OUTPUT = 4096;

/** The windows and their sizes, for a module to keep as constants of its own (see the top). */
export function windows() {
  return {
    IN,
    IN_VIEW,
    OUT,
    OUT_VIEW,
    IN_SIZE,
    SPARSE_IN,
    OUT_SIZE,
    KEEP,
    DIRECT,
    SMALL_OUTPUT,
    LONG_LITERAL,
  } as const;
}
