// The test settings every workspace package shares; each package's vitest.config.ts re-exports
// (or extends) this file. Generous timeouts: native addons load, fixtures are read and whole
// 64 MiB streams go through on a loaded 2-core machine; speed is the bench's job, not a test's.
// `gc()` exposed: the conformance checks collect garbage right after transferring an async
// call's input, where a backend still reading it would crash.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { testTimeout: 120_000, hookTimeout: 120_000, execArgv: ["--expose-gc"] },
});
