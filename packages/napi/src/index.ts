import { checkOptions, guardedCodec, type SnappyCodec } from "@snappykit/core";
import { externalBuffersTransferable, loadBackend } from "@snappykit/core/node";

type SnappyModule = typeof import("snappy");

/** Options for {@link createCodec}. */
export interface NapiCodecOptions {
  /**
   * Copy compressed output into a V8-owned buffer instead of handing back Rust's buffer as an
   * external one. External buffers are freed by finalizers on the event loop and fresh pages
   * made `compressSync` erratic (several times slower in some calls than copied output on
   * 64 KiB of repeating text; docs/findings/2026-11-napi-output-copy.md).
   * @default true
   */
  copyCompressOutput?: boolean;
  /**
   * The same for decompressed output. By default it is copied up to 256 KiB and external
   * above: up to there a copy is as fast or faster and steady, while external output's speed
   * varies from process to process by up to tens of times on a blob sidecar; on 1 MiB the
   * memcpy shows and external is faster (docs/findings/2026-11-napi-output-copy.md).
   * @default true up to 256 KiB of output, false above
   */
  copyUncompressOutput?: boolean;
}

// Node cannot move external buffers (22 and later throw DataCloneError, 20 copies them), so
// every output is copied whatever the options say: results must be transferable.
let external: boolean | undefined;
const externalAllowed = (snappy: SnappyModule) =>
  (external ??= externalBuffersTransferable(() =>
    snappy.compressSync(new Uint8Array(1), { copyOutputData: false }),
  ));

/** Decoded outputs up to this long are copied unless `copyUncompressOutput` says otherwise. */
const COPY_UNCOMPRESS_UP_TO = 256 * 1024;

/**
 * A {@link SnappyCodec} over `snappy@7`, the napi-rs binding of Rust `snap`, with its
 * thread-pool `compress`/`uncompress` as `compressAsync`/`uncompressAsync`. snap rejects
 * every bad stream itself but allocates the declared length first, so the codec runs the
 * length guard before it.
 * @throws SnappyError `UNSUPPORTED` when the native binding cannot be loaded,
 *   `INVALID_ARGUMENT` for an option it does not know.
 */
export async function createCodec(given: NapiCodecOptions = {}): Promise<SnappyCodec> {
  const options = checkOptions(given, ["copyCompressOutput", "copyUncompressOutput"]);
  const { module: snappy, library } = loadBackend<SnappyModule>("snappy", import.meta.url);
  const always = !externalAllowed(snappy);
  const encode = { copyOutputData: always || (options.copyCompressOutput ?? true) };
  const copied = { asBuffer: true, copyOutputData: true } as const;
  const shared = { asBuffer: true, copyOutputData: false } as const;
  const decode = (length: number) =>
    always || (options.copyUncompressOutput ?? length <= COPY_UNCOMPRESS_UP_TO) ? copied : shared;
  return guardedCodec({
    name: "napi",
    library,
    runtime: "native",
    guard: "length",
    // Each call's output is a Buffer of its own, exactly its length.
    freshOutput: true,
    // The thread pool reads the input after compress()/uncompress() return: a caller reusing
    // its buffer got a mix of old and new bytes, one transferring it a crash (SIGSEGV).
    asyncBorrowsInput: true,
    compress: (input) => snappy.compressSync(input, encode),
    uncompress: (input, length) => snappy.uncompressSync(input, decode(length)) as Buffer,
    compressAsync: (input) => snappy.compress(input, encode),
    uncompressAsync: async (input, length) =>
      (await snappy.uncompress(input, decode(length))) as Buffer,
  });
}

/**
 * The codec with the other output-copy choices, for the bench to show what the defaults
 * buy: `napi-external` never copies where external buffers can move (no Node line: there it
 * copies like the default), `napi-copy` always does.
 */
export async function createVariants(): Promise<SnappyCodec[]> {
  const external = await createCodec({ copyCompressOutput: false, copyUncompressOutput: false });
  const copy = await createCodec({ copyCompressOutput: true, copyUncompressOutput: true });
  return [
    { ...external, name: "napi-external" },
    { ...copy, name: "napi-copy" },
  ];
}
