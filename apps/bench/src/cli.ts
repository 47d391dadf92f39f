#!/usr/bin/env node
// Entry point of `pnpm bench`: node --expose-gc apps/bench/dist/cli.js [flags].
import { provideFfiLibrary } from "@snappykit/workspace/ffi-library";
import { main } from "./main.js";
import { quietWasiWarning } from "./measure/quiet.js";

quietWasiWarning();
// @snappykit/ffi opens tools/libsnappy's build, the library cpp links, here and in every fork.
provideFfiLibrary();
process.exitCode = await main(process.argv.slice(2));
