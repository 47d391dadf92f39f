// The `cpp` codec: Google's C++ libsnappy without bindings, driven by apps/bench/native/timer.cc
// (no JavaScript in its timed code). It links the libsnappy tools/libsnappy built for this
// machine at setup (1.2.2 with -march=native and libsnappy's AVX2/BMI2 paths; snappy@6's
// vendored 1.1.7 where the download failed, which its library line then says), or the build
// of the checkout SNAPPYKIT_LIBSNAPPY names. The program is compiled here with the C++
// compiler on the PATH into apps/bench/build/native/<hash>/ (git-ignored), keyed by the
// program, the library's build, the flags and the compiler, so a run rebuilds it only when one
// of them changed. Where no compiler or library is found, `cpp` is listed as unavailable with
// the reason and the rest of the bench runs.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import {
  BUILD_SCRIPT,
  describe,
  type LibsnappyLocation,
  locate,
  SOURCE_ENV,
} from "@snappykit/libsnappy-build";
import type { FailedAdapter } from "@snappykit/workspace";
import type { CodecTarget } from "@snappykit/workspace/targets";

/** The codec's id in reports and on the command line. */
export const NATIVE_ID = "cpp";
/** The ops timer.cc times (inputs/ops.ts ids): libsnappy's owned-result and into calls. */
export const NATIVE_OPS: readonly string[] = [
  "compress",
  "uncompress",
  "compress-into",
  "uncompress-into",
];
/** What the report lists as its package: the folder its program lives in. */
export const NATIVE_PACKAGE = "apps/bench/native";

const APP = fileURLToPath(new URL("../..", import.meta.url));
const PROGRAM = join(APP, "native", "timer.cc");
// The program's own flags: it only loops over libsnappy's calls, built as the library is.
const FLAGS = ["-O3", "-march=native", "-std=gnu++17", "-w"];

/** The `cpp` codec ready to run, or why it is not. */
export type NativeLoad =
  | { readonly ok: true; readonly target: CodecTarget; readonly program: string }
  | ({ readonly ok: false } & Pick<FailedAdapter, "id" | "packageName" | "reason">);

function compilerVersion(cxx: string): string {
  return execFileSync(cxx, ["--version"], { encoding: "utf8" }).split("\n")[0]!.trim();
}

/**
 * The libsnappy build to link: setup's, or the checkout's that `SNAPPYKIT_LIBSNAPPY` names,
 * built first when it is not (tools/libsnappy keeps a build whose inputs are unchanged).
 */
function libsnappy(env: NodeJS.ProcessEnv): LibsnappyLocation {
  const checkout = env[SOURCE_ENV] || undefined;
  const found = locate({ libsnappy: checkout });
  if (found.ok || !found.reason.includes("not built")) return found;
  const args = [BUILD_SCRIPT, ...(checkout ? ["--libsnappy", checkout] : [])];
  const run = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (run.status !== 0) return { ok: false, reason: run.stderr.toString().trim() };
  return locate({ libsnappy: checkout });
}

/**
 * Build (or find the cached build of) the timing program, then wrap it as a codec: its
 * `compress`/`uncompress`/into-calls run the program once per call (`timer gate`), for the
 * gate and the size table only; timing runs it as a fork (measure/fork.ts).
 */
export function loadNative(env: NodeJS.ProcessEnv = process.env): NativeLoad {
  const unavailable = (reason: string): NativeLoad => ({
    ok: false,
    id: NATIVE_ID,
    packageName: NATIVE_PACKAGE,
    reason,
  });
  const cxx = env.CXX ?? "g++";
  let compiler: string;
  try {
    compiler = compilerVersion(cxx);
  } catch {
    return unavailable(`no C++ compiler (${cxx}) on the PATH: native, no JavaScript, not measured`);
  }
  const lib = libsnappy(env);
  if (!lib.ok) return unavailable(lib.reason);
  const hash = createHash("sha256");
  for (const f of [PROGRAM, lib.manifest, lib.staticLib]) hash.update(readFileSync(f));
  hash.update(JSON.stringify([cxx, compiler, FLAGS]));
  const dir = join(APP, "build", "native", hash.digest("hex").slice(0, 16));
  const program = join(dir, "timer");
  if (!existsSync(program)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${program}.${process.pid}`;
    try {
      execFileSync(cxx, [...FLAGS, `-I${lib.includeDir}`, PROGRAM, lib.staticLib, "-o", partial], {
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? "").split("\n")[0];
      return unavailable(`${cxx} could not build ${NATIVE_PACKAGE}/timer.cc: ${stderr}`);
    }
    renameSync(partial, program);
  }
  const codec = nativeCodec(
    program,
    `${describe(lib)}, C++ without bindings, no JavaScript; timer.cc: ${FLAGS.slice(0, 2).join(" ")}`,
  );
  return {
    ok: true,
    program,
    target: {
      id: NATIVE_ID,
      adapter: NATIVE_ID,
      packageName: NATIVE_PACKAGE,
      entry: program,
      impl: "adapter",
      codec,
    },
  };
}

/** One call of `timer gate`: "c"ompress or "u"ncompress `input`. */
function gateCall(program: string, op: "c" | "u", input: Uint8Array): Uint8Array {
  const header = Buffer.from(`${op}${input.length}\n`);
  const run = spawnSync(program, ["gate"], {
    input: Buffer.concat([header, input]),
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`${program} gate: ${run.stderr.toString().trim()}`);
  const out = run.stdout;
  const nl = out.indexOf(10);
  const length = Number(out.subarray(0, nl).toString());
  if (length < 0) throw new Error("libsnappy rejected the stream");
  return new Uint8Array(out.subarray(nl + 1, nl + 1 + length));
}

/**
 * The program as a codec the gate can check (one process per call, each a call of
 * libsnappy's own `Compress`/`Uncompress`). It has no into-calls: those exist only in the
 * program's timed code (`NATIVE_OPS`), never as a copy here.
 */
function nativeCodec(program: string, library: string): SnappyCodec {
  return guardedCodec({
    name: NATIVE_ID,
    library,
    runtime: "native",
    guard: "length",
    compress: (input) => gateCall(program, "c", input),
    uncompress: (input) => gateCall(program, "u", input),
  });
}
