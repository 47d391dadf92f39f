// Where an into-op's inputs and output sit in memory: each at a fixed offset in pages of its
// own, items at +64 and the output at +2112, the same offsets as the `cpp` program's
// (native/timer.cc). A load and a store at one address modulo 4096 stall on x86 (4K
// aliasing); with an item and the output at one offset libsnappy decoded a 19 KiB column
// sidecar 14x slower, so without this a row's speed depended on where the allocator put its
// arrays. A WebAssembly.Memory's buffer starts on a page (engines map it with the OS's page
// allocator), which a plain ArrayBuffer's does not promise, so the bytes live in one.

export const PAGE = 4096;
export const INPUT_OFFSET = 64;
export const OUTPUT_OFFSET = 2112;
const WASM_PAGE = 65536;

// The part of the WebAssembly JS API used here (the lib this app compiles against, ES2023
// without the DOM, does not declare it).
declare const WebAssembly: {
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
};

const pagesFor = (bytes: number, offset: number) => Math.ceil((offset + bytes) / PAGE) * PAGE;

/** The case's inputs copied to `INPUT_OFFSET` of pages of their own, its output at `OUTPUT_OFFSET`. */
export interface Placed {
  readonly inputs: readonly Uint8Array[];
  readonly output: Uint8Array;
}

/** Lay out `inputs` and an output of `outputLength` bytes (copies; the arguments are left as they are). */
export function place(inputs: readonly Uint8Array[], outputLength: number): Placed {
  const sizes = inputs.map((i) => pagesFor(i.length, INPUT_OFFSET));
  const total = sizes.reduce((a, b) => a + b, pagesFor(outputLength, OUTPUT_OFFSET));
  const { buffer } = new WebAssembly.Memory({ initial: Math.ceil(total / WASM_PAGE) });
  const output = new Uint8Array(buffer, OUTPUT_OFFSET, outputLength);
  let at = pagesFor(outputLength, OUTPUT_OFFSET);
  const placed = inputs.map((input, i) => {
    const view = new Uint8Array(buffer, at + INPUT_OFFSET, input.length);
    view.set(input);
    at += sizes[i]!;
    return view;
  });
  return { inputs: placed, output };
}
