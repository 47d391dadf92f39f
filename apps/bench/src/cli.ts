#!/usr/bin/env node
// Entry point of `pnpm bench`: node --expose-gc apps/bench/dist/cli.js [flags].
import { main } from "./main.js";
import { quietWasiWarning } from "./measure/quiet.js";

quietWasiWarning();
process.exitCode = await main(process.argv.slice(2));
