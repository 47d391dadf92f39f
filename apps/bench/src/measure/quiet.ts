// Node prints an ExperimentalWarning whenever the WASI adapter (napi-wasi) starts WASI: in
// this process and in each worker thread its async API starts, once per fork: a screenful
// per run. Worker threads have their own `process`, so patching `emitWarning` cannot reach
// them, but their stderr is written through this process's `process.stderr`. Node 26
// prints one when an ffi fork opens node:ffi. The bench drops exactly those warnings (and
// the "--trace-warnings" hint after each) and lets every other line through.
export function quietWasiWarning(): void {
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  let dropHint = false;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (/ExperimentalWarning: (WASI|FFI)/.test(text)) {
      dropHint = !text.includes("--trace-warnings");
      return true;
    }
    if (dropHint && text.startsWith("(Use `node --trace-warnings")) {
      dropHint = false;
      return true;
    }
    dropHint = false;
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}
