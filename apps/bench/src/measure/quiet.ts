// Node prints an ExperimentalWarning whenever the WASI adapter (napi-wasi) starts WASI: in
// this process and in each worker thread its async API starts, once per fork: a screenful
// per run. Worker threads have their own `process`, so patching `emitWarning` cannot reach
// them, but their stderr is written through this process's `process.stderr`. The bench
// drops exactly that warning (and the "--trace-warnings" hint after it) and lets every
// other line through.
export function quietWasiWarning(): void {
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  let dropHint = false;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes("ExperimentalWarning: WASI")) {
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
