import { defineConfig } from "vitest/config";

// The runner's allocation figures need a callable gc(), as `pnpm bench` has.
export default defineConfig({
  test: { execArgv: ["--expose-gc"], testTimeout: 60_000, hookTimeout: 60_000 },
});
