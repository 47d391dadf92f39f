import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The runner's allocation figures need a callable gc(), as `pnpm bench` has.
export default mergeConfig(shared, defineConfig({ test: { execArgv: ["--expose-gc"] } }));
