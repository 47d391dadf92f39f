// Opening libsnappy and its calls on the caller's arrays, for the codec (index.ts) and the
// raw backend (raw.ts).
import { checkOptions, refuseWrappingLiterals, SnappyError } from "@snappykit/core";
import { runtimeFfi, type SnappyC, STATUS } from "./bindings.js";
import { locate } from "./library.js";

/** Options for `createCodec` and `createRaw`. */
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

export async function open(
  given: FfiCodecOptions | undefined,
): Promise<{ library: string; c: SnappyC }> {
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
export function callsOf(c: SnappyC) {
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
