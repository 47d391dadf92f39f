// The per-runtime report and what makes `pnpm test:runtimes` fail.
import { type AdapterResult, FRAMING } from "./portable.js";

export type Runtime = "bun" | "deno" | "browser";

/** One runtime's run: its name and version as it reports them, and each target's result. */
export interface ChildReport {
  readonly runtime: string;
  readonly results: readonly AdapterResult[];
}

/**
 * Adapters that are known not to load in a runtime, and why. The run fails when one of
 * these loads after all (update the table) or when any other adapter cannot load.
 */
export const EXPECTED_CANNOT_LOAD: Record<string, Record<string, string>> = {
  bun: {
    libsnappy: "snappy@6 is a NAN addon (V8's C++ API); Bun loads only Node-API addons",
    "napi-wasi": "Bun's node:wasi has no WASI.initialize, which @napi-rs/wasm-runtime calls",
  },
  deno: {
    libsnappy: "snappy@6 is a NAN addon (V8's C++ API); Deno loads only Node-API addons",
  },
  browser: {
    libsnappy: "native addon (snappy@6, node-gyp): not loadable in the browser",
    napi: "native addon (snappy@7, napi-rs): not loadable in the browser",
    "napi-v1": "native addon (@napi-rs/snappy@1): not loadable in the browser",
    "napi-wasi":
      "the WASI build's browser binding uses top-level await and returns Node Buffers (needs a polyfill)",
  },
};

/** Print one runtime's summary and results; return its problems (empty when it is green). */
export function report(
  name: Runtime,
  { runtime, results }: ChildReport,
  expectedCannotLoad = EXPECTED_CANNOT_LOAD,
  log: (line: string) => void = console.log,
): string[] {
  const count = (status: AdapterResult["status"]) =>
    results.filter((r) => r.id !== FRAMING.id && r.status === status).length;
  log(
    `${runtime}: ${count("pass")} adapters pass, ${count("fail")} fail, ${count("cannot load")} cannot load`,
  );
  const problems: string[] = [];
  const expected = expectedCannotLoad[name] ?? {};
  for (const r of results) {
    if (r.status === "cannot load") {
      log(`  ${r.id.padEnd(12)} cannot load: ${expected[r.id] ?? ""}`);
      log(`  ${"".padEnd(12)}   ${r.reason}`);
      if (!expected[r.id]) problems.push(`${name}: ${r.id} cannot load (${r.reason})`);
      continue;
    }
    log(`  ${r.id.padEnd(12)} ${r.status}  ${r.checks} checks  ${r.library}`);
    for (const failure of r.failures) log(`  ${"".padEnd(12)}   ✗ ${failure}`);
    if (r.status === "fail") problems.push(`${name}: ${r.id} fails ${r.failures.length} checks`);
    if (expected[r.id]) problems.push(`${name}: ${r.id} loads; drop it from EXPECTED_CANNOT_LOAD`);
  }
  return problems;
}
