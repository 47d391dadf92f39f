/**
 * snappykit adapter for Google's libsnappy called through the runtime's own FFI (`node:ffi`
 * on Node 26, `bun:ffi`, `Deno.dlopen`): snappy-c.h's functions on the caller's memory, no
 * binding in between.
 * @packageDocumentation
 */
import {
  checkOptions,
  guardedCodec,
  type RawBackend,
  refuseWrappingLiterals,
  type SnappyCodec,
  SnappyError,
} from "@snappykit/core";
import { runtimeFfi, type SnappyC, STATUS } from "./bindings.js";
import { LIBRARY_ENV, locate, VERSION_ENV } from "./library.js";

export { LIBRARY_ENV, VERSION_ENV };

/** Short id of this adapter in reports and CLI filters. */
export const name = "ffi";

/** Options for {@link createCodec}. */
export interface FfiCodecOptions {
  /**
   * Path of the libsnappy shared library to open (`libsnappy.so.1`, `libsnappy.dylib`,
   * `snappy.dll`). Default: the one the `SNAPPYKIT_FFI_LIBRARY` environment variable names,
   * else the system's (Debian/Ubuntu, Fedora and Homebrew locations).
   */
  library?: string;
  /**
   * The version of `library`, for the codec's `library` string (`libsnappy@1.2.2`) where
   * the file's name does not say it (the C API has no version call). With the environment
   * variable, `SNAPPYKIT_FFI_VERSION`.
   */
  version?: string;
}

/** Libraries opened in this process, by path: each is opened once. */
const opened = new Map<string, SnappyC>();

async function open(given: FfiCodecOptions | undefined): Promise<{ library: string; c: SnappyC }> {
  const options = checkOptions(given, ["library", "version"]);
  if (options.library !== undefined && typeof options.library !== "string") {
    throw new SnappyError("bad-options", "library must be the path of a shared library");
  }
  if (options.version !== undefined && !/^\d+\.\d+\.\d+$/.test(String(options.version))) {
    throw new SnappyError("bad-options", "version must be major.minor.patch, as 1.2.2");
  }
  const ffi = await runtimeFfi();
  if (typeof ffi === "string") throw new SnappyError("unsupported", `no FFI: ${ffi}`);
  const { candidates, searched } = locate(options.library, options.version);
  const failures: string[] = [];
  for (const { path, library } of candidates) {
    try {
      const c = opened.get(path) ?? ffi(path);
      opened.set(path, c);
      return { library: `${library} (${c.ffi})`, c };
    } catch (error) {
      failures.push(`${path}: ${error instanceof Error ? error.message : error}`);
    }
  }
  throw new SnappyError(
    "unsupported",
    `no libsnappy to open: looked at ${searched}${failures.length ? `; ${failures.join("; ")}` : ""}`,
  );
}

/** Throw libsnappy's status as an error unless it is SNAPPY_OK. */
function ok(status: number, call: string): void {
  if (status !== 0) throw new Error(`${call} returned ${STATUS[status] ?? status}`);
}

/** Calls on the caller's arrays, with the lengths libsnappy is told checked first. */
function callsOf(c: SnappyC) {
  // One size_t cell per library, reused: every call is synchronous.
  const cell = new BigUint64Array(1);
  const written = (room: number) => {
    cell[0] = BigInt(room);
    return cell;
  };
  // No compressInto: libsnappy uses the output as working room and writes past the end of
  // the stream it returns (16-byte copies of literals), which the contract forbids on a
  // caller's array. compress writes into an array of its own, and its result is copied out.
  const compressed = (input: Uint8Array, output: Uint8Array) => {
    ok(c.compress(input, output, written(output.length)), "snappy_compress");
    return Number(cell[0]);
  };
  /** Into `output`, as long as the stream declares: libsnappy's word, unchecked. */
  const decodeInto = (input: Uint8Array, output: Uint8Array) => {
    ok(c.uncompress(input, output, written(output.length)), "snappy_uncompress");
    return Number(cell[0]);
  };
  /** The same once core's walk has refused a literal length libsnappy would wrap. */
  const uncompressInto = (input: Uint8Array, output: Uint8Array) => {
    refuseWrappingLiterals(input, output.length);
    return decodeInto(input, output);
  };
  const compress = (input: Uint8Array) => {
    const output = new Uint8Array(c.maxCompressedLength(input.length));
    return output.subarray(0, compressed(input, output));
  };
  const into = (decode: typeof decodeInto) => (input: Uint8Array, length: number) => {
    const output = new Uint8Array(length);
    decode(input, output);
    return output;
  };
  /** The length the stream declares, as libsnappy reads it: unbounded, for createRaw only. */
  const declared = (input: Uint8Array) => {
    ok(c.uncompressedLength(input, written(0)), "snappy_uncompressed_length");
    return Number(cell[0]);
  };
  const uncompress = into(uncompressInto);
  const raw = {
    compress,
    uncompress: (input: Uint8Array) => into(decodeInto)(input, declared(input)),
  };
  return { compress, uncompress, uncompressInto, raw };
}

/**
 * A {@link SnappyCodec} over libsnappy's C API through this runtime's FFI: `node:ffi`
 * (Node 26, experimental), `bun:ffi` or `Deno.dlopen`. libsnappy decodes into an array of
 * the length the caller gives it and rejects every bad stream itself, so the codec runs the
 * length guard (maxLength and the expansion bound) before it allocates the declared
 * length; every length libsnappy is told is the array's own. A literal length libsnappy
 * wraps to 0 (`fc ff ff ff ff`) is refused by core's walk first. `uncompressInto` hands
 * libsnappy the caller's array (no copy); there is no `compressInto`, since libsnappy writes
 * past the end of its output, and `compress` copies its result out of a buffer of
 * `maxCompressedLength` bytes.
 * @throws SnappyError `UNSUPPORTED` when the runtime has no FFI or no libsnappy opens (the
 *   message says which), `INVALID_ARGUMENT` for an unknown option.
 */
export async function createCodec(options?: FfiCodecOptions): Promise<SnappyCodec> {
  const { library, c } = await open(options);
  const calls = callsOf(c);
  return guardedCodec({
    name,
    library,
    runtime: "native",
    guard: "length",
    compress: calls.compress,
    uncompress: calls.uncompress,
    uncompressInto: calls.uncompressInto,
  });
}

/**
 * libsnappy through the FFI with no guard and no error mapping, for the bench and the
 * fuzzer: `uncompress` allocates whatever length the stream declares (4 GiB for a 5-byte
 * preamble). Never use it on untrusted input.
 */
export async function createRaw(options?: FfiCodecOptions): Promise<RawBackend> {
  const { library, c } = await open(options);
  return { library, ...callsOf(c).raw };
}
