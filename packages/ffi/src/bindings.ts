// libsnappy's C API (snappy-c.h) through the FFI of the runtime this runs in: `node:ffi`
// (Node 26), `bun:ffi` or `Deno.dlopen`. Each passes a typed array as a pointer to its own
// memory (views at an offset, SharedArrayBuffer and resizable buffers included), so libsnappy
// reads the caller's input and writes the caller's output where they are: no copy either way.
// None of them checks a length against the array it describes: that is the caller's job
// (index.ts, before every call).

/** `snappy_status` (snappy-c.h): 0 is SNAPPY_OK. */
export const STATUS = ["SNAPPY_OK", "SNAPPY_INVALID_INPUT", "SNAPPY_BUFFER_TOO_SMALL"] as const;

/**
 * The five functions of snappy-c.h. `length` is a one-element `size_t` cell: set to the
 * output's room before `compress`/`uncompress`, it holds what they wrote afterwards.
 */
export interface SnappyC {
  /** Which FFI: `node:ffi`, `bun:ffi` or `Deno.dlopen`. */
  readonly ffi: string;
  /** The library's handle, held for as long as the calls are: collected, it may close. */
  readonly handle: unknown;
  compress(input: Uint8Array, output: Uint8Array, length: BigUint64Array): number;
  uncompress(input: Uint8Array, output: Uint8Array, length: BigUint64Array): number;
  maxCompressedLength(length: number): number;
  uncompressedLength(input: Uint8Array, length: BigUint64Array): number;
  validate(input: Uint8Array): number;
}

type Call = (...args: never[]) => unknown;
type Symbols = Record<string, Call>;
/** Type names each FFI uses for a pointer, `size_t` and `snappy_status`. */
interface Spelling {
  readonly pointer: string;
  readonly size: string;
  readonly status: string;
}

/** The five signatures, spelt in one FFI's type names. */
function signatures({ pointer, size, status }: Spelling) {
  return {
    snappy_compress: [[pointer, size, pointer, pointer], status],
    snappy_uncompress: [[pointer, size, pointer, pointer], status],
    snappy_max_compressed_length: [[size], size],
    snappy_uncompressed_length: [[pointer, size, pointer], status],
    snappy_validate_compressed_buffer: [[pointer, size], status],
  } as const;
}

/**
 * The calls over one FFI's symbols. `size` converts a length to what that FFI takes for
 * `size_t` (a bigint in `node:ffi`, a number in the others).
 */
function calls(
  ffi: string,
  handle: unknown,
  symbols: Symbols,
  size: (n: number) => number | bigint,
): SnappyC {
  // Casts at this one edge: each FFI types its symbols by the signatures given at run time.
  const s = symbols as Record<string, (...args: unknown[]) => number | bigint>;
  const c = s.snappy_compress!;
  const u = s.snappy_uncompress!;
  const max = s.snappy_max_compressed_length!;
  const declared = s.snappy_uncompressed_length!;
  const valid = s.snappy_validate_compressed_buffer!;
  return {
    ffi,
    handle,
    compress: (input, output, length) => Number(c(input, size(input.length), output, length)),
    uncompress: (input, output, length) => Number(u(input, size(input.length), output, length)),
    maxCompressedLength: (length) => Number(max(size(length))),
    uncompressedLength: (input, length) => Number(declared(input, size(input.length), length)),
    validate: (input) => Number(valid(input, size(input.length))),
  };
}

interface NodeFfi {
  dlopen(
    path: string,
    definitions: Record<string, { arguments: readonly string[]; return: string }>,
  ): { functions: Symbols };
}
interface BunFfi {
  dlopen(
    path: string,
    definitions: Record<string, { args: readonly string[]; returns: string }>,
  ): { symbols: Symbols };
}
interface DenoApi {
  dlopen(
    path: string,
    definitions: Record<string, { parameters: readonly string[]; result: string }>,
  ): { symbols: Symbols };
}

declare const Bun: unknown;
declare const Deno: DenoApi | undefined;

/** Definitions for one FFI: the five signatures under that FFI's property names. */
function definitions<T>(spelling: Spelling, make: (args: readonly string[], result: string) => T) {
  return Object.fromEntries(
    Object.entries(signatures(spelling)).map(([name, [args, result]]) => [
      name,
      make(args, result),
    ]),
  );
}

/**
 * An opener for the runtime's FFI, or why there is none: the reason goes into the
 * `UNSUPPORTED` error `createCodec` rejects with.
 */
export async function runtimeFfi(): Promise<((path: string) => SnappyC) | string> {
  if (typeof Deno !== "undefined" && typeof Deno.dlopen === "function") {
    const deno = Deno;
    return (path) => {
      const spelling = { pointer: "buffer", size: "usize", status: "i32" };
      const defs = definitions(spelling, (parameters, result) => ({ parameters, result }));
      const handle = deno.dlopen(path, defs);
      return calls("Deno.dlopen", handle, handle.symbols, (n) => n);
    };
  }
  if (typeof Bun !== "undefined") {
    // A specifier in a variable: bundlers and tsc leave it to the runtime.
    const specifier = "bun:ffi";
    const bun = (await import(specifier)) as BunFfi;
    return (path) => {
      const spelling = { pointer: "ptr", size: "u64", status: "i32" };
      const defs = definitions(spelling, (args, returns) => ({ args, returns }));
      const handle = bun.dlopen(path, defs);
      return calls("bun:ffi", handle, handle.symbols, (n) => n);
    };
  }
  const node = globalThis.process?.getBuiltinModule?.("node:ffi") as NodeFfi | undefined;
  if (!node) {
    return globalThis.process?.versions?.node
      ? `Node ${process.versions.node} has no node:ffi (Node 26 and later have it, unless run with --no-experimental-ffi)`
      : "this runtime has no FFI (node:ffi, bun:ffi or Deno.dlopen)";
  }
  return (path) => {
    const spelling = { pointer: "buffer", size: "uint64", status: "int32" };
    const defs = definitions(spelling, (args, result) => ({ arguments: args, return: result }));
    const handle = node.dlopen(path, defs);
    return calls("node:ffi", handle, handle.functions, BigInt);
  };
}
