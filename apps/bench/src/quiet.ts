// Node prints an ExperimentalWarning when the WASI adapter (napi-wasi) loads, once per
// process: with a process per fork that was a screenful per run. The bench drops exactly
// that warning and lets every other one through.
export function quietWasiWarning(): void {
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
    const text = warning instanceof Error ? warning.message : String(warning);
    if (/WASI/.test(text)) return;
    emit(warning, ...rest);
  }) as typeof process.emitWarning;
}
