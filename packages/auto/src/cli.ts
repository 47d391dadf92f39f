#!/usr/bin/env node
// `npx @snappykit/auto calibrate`: measure auto's thresholds in the user's own project and
// Node, and write the file `createCodec({ thresholds })` takes. measure.ts times; this file
// reads the command line, finds the bytes and the codecs, and writes the result.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { SnappyCodec } from "@snappykit/core";
import * as ts from "@snappykit/ts";
import { admit } from "./admit.js";
import { type CalibrationData, calibrate } from "./measure.js";

const USAGE = `Usage: npx @snappykit/auto calibrate [options]

Times @snappykit/ts against the native codec from 1 KiB to 1 MiB on block-like and on
incompressible bytes, and writes the thresholds createCodec({ thresholds }) takes.

Options:
  --out <file>        where to write the thresholds (default: thresholds.json)
  --data <folder>     your own messages, one per file (e.g. SSZ blocks and sidecars); each
                      file counts as compressible or not by how well Snappy shrinks it
                      (default: @snappykit/fixtures' blocks and sidecars, if installed)
  --backend <module>  a module whose createCodec() gives your own native codec (e.g. a Bun
                      FFI build); it must pass @snappykit/conformance's checks first
                      (default: @snappykit/napi, snappy@7)
  --rounds <n>        interleaved rounds (default 21; more narrows the intervals)
  -h, --help          this text`;

/** A file counts as compressible when Snappy saves at least a fifth of it (auto's rule). */
const COMPRESSIBLE = 1.25;

function filesOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile())
    .sort();
}

async function dataFrom(folder: string | undefined, codec: SnappyCodec): Promise<CalibrationData> {
  if (folder !== undefined) {
    const items = filesOf(folder).map((path) => new Uint8Array(readFileSync(path)));
    const compressible = items.filter(
      (b) => b.length > 0 && b.length >= COMPRESSIBLE * codec.compress(b).length,
    );
    const incompressible = items.filter((b) => b.length > 0 && !compressible.includes(b));
    for (const [kind, list] of Object.entries({ compressible, incompressible })) {
      if (list.length === 0) {
        throw new Error(
          `--data ${folder}: no ${kind} files (${items.length} files read); auto routes both kinds, so both are needed`,
        );
      }
    }
    return {
      compressible,
      incompressible,
      description: `--data ${folder}: ${compressible.length} compressible and ${incompressible.length} incompressible files, each kind laid end to end`,
    };
  }
  let fixtures: typeof import("@snappykit/fixtures");
  try {
    fixtures = await import("@snappykit/fixtures");
  } catch {
    throw new Error(
      "calibrate needs bytes to time: --data <folder of your own messages>, or npm install --save-dev @snappykit/fixtures",
    );
  }
  const items = (names: string[]) => names.flatMap((name) => fixtures.getPayload(name).items);
  return {
    compressible: items(["blocks-by-range"]),
    incompressible: items(["blob-sidecar", "data-column-sidecar", "columns-32k-chunks"]),
    description:
      "@snappykit/fixtures: the blocks of blocks-by-range, and blob-sidecar, data-column-sidecar and columns-32k-chunks, each laid end to end",
  };
}

async function nativeFrom(module: string | undefined, tsCodec: SnappyCodec): Promise<SnappyCodec> {
  if (module === undefined) {
    try {
      const napi = await import("@snappykit/napi");
      return await napi.createCodec();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(
        `the native codec does not load here (${detail}): auto sends every call to ts, so there is nothing to calibrate`,
      );
    }
  }
  // A path is taken from the working directory; anything else is a package name.
  const specifier =
    module.startsWith(".") || isAbsolute(module) ? pathToFileURL(resolve(module)).href : module;
  const loaded = (await import(specifier)) as { createCodec?: () => Promise<SnappyCodec> };
  if (typeof loaded.createCodec !== "function") {
    throw new Error(`--backend ${module} does not export createCodec()`);
  }
  return (await admit(await loaded.createCodec(), tsCodec)).codec;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: "string", default: "thresholds.json" },
      data: { type: "string" },
      backend: { type: "string" },
      rounds: { type: "string", default: "21" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals[0] !== "calibrate" || positionals.length > 1) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const rounds = Number(values.rounds);
  if (!Number.isSafeInteger(rounds) || rounds < 2)
    throw new Error("--rounds must be an integer ≥ 2");
  const tsCodec = await ts.createCodec();
  const native = await nativeFrom(values.backend, tsCodec);
  const data = await dataFrom(values.data, tsCodec);
  const command = ["npx @snappykit/auto", ...argv].join(" ");
  process.stderr.write(
    `calibrate: ${tsCodec.library} against ${native.library}, ${rounds} rounds\n`,
  );
  const file = await calibrate({
    ts: tsCodec,
    native,
    data,
    rounds,
    command,
    onRound: (done, total) => process.stderr.write(`\rround ${done}/${total}`),
  });
  process.stderr.write("\n");
  writeFileSync(values.out, `${JSON.stringify(file, null, 2)}\n`);
  const words = (t: number | null) => (t === null ? "never" : `from ${t} B`);
  for (const op of ["compress", "uncompress"] as const) {
    console.log(
      `${op}: native ${words(file[op].compressible)} (compressible), ${words(file[op].incompressible)} (incompressible)`,
    );
  }
  console.log(
    `wrote ${values.out}: createCodec({ thresholds: JSON.parse(readFileSync("${values.out}", "utf8")) })`,
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`calibrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
