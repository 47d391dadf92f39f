// A user's project with snappykit installed from a registry (release-test.mjs): the program it
// runs (consumer-program.mjs) and the TypeScript file it type-checks.
import { copyFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "@snappykit/workspace";

/** The repository's TypeScript compiler, for the consumer's type check. */
export const tsc = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");

/** Every entrypoint of `manifests` (their `exports` keys) a user can import, by package. */
export function entrypoints(manifests) {
  return manifests.flatMap((manifest) =>
    Object.keys(manifest.exports ?? { ".": "" })
      .filter((key) => key !== "./package.json" && !key.includes("*"))
      .map((key) => ({
        name: manifest.name,
        spec: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      })),
  );
}

/**
 * Copies consumer-program.mjs into `dir`; returns its arguments: the file, then what it
 * checks (see the program's header). Each item is `{ name, spec }`.
 */
export function programArgs(dir, { adapters, framing, codec, entrypoints = [] }) {
  const file = join(dir, "consumer-program.mjs");
  copyFileSync(fileURLToPath(new URL("./consumer-program.mjs", import.meta.url)), file);
  return [file, JSON.stringify({ adapters, framing, codec, entrypoints })];
}

/** The program's `FAIL` lines, as "<package>: <step>: <why>". */
export const programFailures = (output) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("FAIL\t"))
    .map((line) => line.split("\t").slice(1).join(": "));

/**
 * Writes consumer.ts and its tsconfig.json into `dir`: every entrypoint imported, each
 * adapter assigned to the contract as the installed core declares it (NodeNext, skipLibCheck
 * off, so the shipped .d.ts files are checked too). Returns tsc's arguments.
 */
export function writeTypeCheck(dir, specs, adapterNames) {
  const ts = [
    "// What a TypeScript user of snappykit writes (scripts/lib/consumer.mjs).",
    'import type { AdapterModule, SnappyCodec } from "@snappykit/core";',
    ...specs.map((s, i) => `import * as m${i} from "${s}";`),
    "",
    "export const entrypoints: readonly object[] = [",
    ...specs.map((_, i) => `  m${i},`),
    "];",
    "export const adapters: Record<string, AdapterModule> = {",
    ...adapterNames.map((n) => `  "${n}": m${specs.indexOf(n)},`),
    "};",
    "export async function roundTrip(m: AdapterModule, input: Uint8Array): Promise<Uint8Array> {",
    "  const codec: SnappyCodec = await m.createCodec();",
    "  return codec.uncompress(codec.compress(input), { maxLength: input.length });",
    "}",
    "",
  ].join("\n");
  writeFileSync(join(dir, "consumer.ts"), ts);
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
  };
  const tsconfig = join(dir, "tsconfig.json");
  writeFileSync(
    tsconfig,
    `${JSON.stringify({ compilerOptions, files: ["consumer.ts"] }, null, 2)}\n`,
  );
  return ["-p", tsconfig];
}
