// The `cpp` codec: Google's C++ libsnappy without bindings, driven by apps/bench/native/timer.cc
// (no JavaScript in its timed code). It is built here with the C++ compiler on the PATH from
// the libsnappy 1.1.7 source `snappy@6` vendors (the library @snappykit/libsnappy binds), with
// that package's node-gyp Release flags, into apps/bench/build/native/<hash>/ (git-ignored),
// keyed by the sources, flags and compiler, so a run rebuilds only when one of them changed.
// Where no compiler or source is found, `cpp` is listed as unavailable with the reason and
// the rest of the bench runs.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { guardedCodec, type SnappyCodec } from "@snappykit/core";
import { repoRoot } from "@snappykit/workspace";
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
const SNAPPY_SOURCES = ["snappy.cc", "snappy-sinksource.cc", "snappy-stubs-internal.cc"];
// snappy@6's binding.gyp (deps/snappy/snappy.gyp, common.gypi): its Release flags, and the
// per-platform folder holding the config.h and snappy-stubs-public.h its configure made.
const FLAGS = [
  "-O3",
  "-fno-omit-frame-pointer",
  "-fno-strict-aliasing",
  "-fno-rtti",
  "-std=gnu++17",
  "-DHAVE_CONFIG_H=1",
  "-w",
];
const OS_INCLUDE: Partial<Record<NodeJS.Platform, string>> = {
  linux: "linux/generic",
  darwin: "mac",
  freebsd: "freebsd",
  sunos: "solaris",
};

/** The `cpp` codec ready to run, or why it is not. */
export type NativeLoad =
  | { readonly ok: true; readonly target: CodecTarget; readonly program: string }
  | {
      readonly ok: false;
      readonly id: string;
      readonly packageName: string;
      readonly reason: string;
    };

/** Where `snappy@6` keeps its libsnappy source: deps/snappy (resolved from @snappykit/libsnappy). */
function snappyDeps(): string {
  const fromAdapter = createRequire(join(repoRoot, "packages", "libsnappy", "package.json"));
  const pkg = fromAdapter.resolve("snappy/package.json");
  return join(dirname(pkg), "deps", "snappy");
}

function compilerVersion(cxx: string): string {
  return execFileSync(cxx, ["--version"], { encoding: "utf8" }).split("\n")[0]!.trim();
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
  const include = OS_INCLUDE[process.platform];
  if (include === undefined)
    return unavailable(`snappy@6 has no build config for ${process.platform}`);
  let deps: string;
  try {
    deps = snappyDeps();
  } catch (error) {
    return unavailable(`libsnappy source not found (snappy@6): ${(error as Error).message}`);
  }
  const source = readdirSync(deps).find((d) => /^snappy-\d+\.\d+\.\d+$/.test(d));
  if (!source) return unavailable(`no snappy-<version> folder in ${deps}`);
  const version = source.slice("snappy-".length);
  const files = [PROGRAM, ...SNAPPY_SOURCES.map((f) => join(deps, source, f))];
  const hash = createHash("sha256");
  for (const f of [...files, join(deps, source, "snappy.h"), join(deps, include, "config.h")]) {
    hash.update(readFileSync(f));
  }
  hash.update(JSON.stringify([cxx, compiler, FLAGS]));
  const dir = join(APP, "build", "native", hash.digest("hex").slice(0, 16));
  const program = join(dir, "timer");
  if (!existsSync(program)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${program}.${process.pid}`;
    try {
      execFileSync(
        cxx,
        [...FLAGS, `-I${join(deps, include)}`, `-I${join(deps, source)}`, ...files, "-o", partial],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
    } catch (error) {
      const stderr = String((error as { stderr?: unknown }).stderr ?? "").split("\n")[0];
      return unavailable(`${cxx} could not build ${NATIVE_PACKAGE}/timer.cc: ${stderr}`);
    }
    renameSync(partial, program);
  }
  const codec = nativeCodec(
    program,
    `libsnappy@${version} (C++ without bindings, no JavaScript; ${compiler})`,
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
