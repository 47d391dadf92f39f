#!/usr/bin/env node
// Builds Google's libsnappy for this machine, once: `npm run setup` runs it after the install.
//
//   node tools/libsnappy/build.mjs [--libsnappy <source dir>] [--force]
//
// Without --libsnappy (or SNAPPYKIT_LIBSNAPPY) it downloads libsnappy 1.2.2 from Debian's
// archive, checks its sha256, and builds that; when the download fails it builds the 1.1.7
// that snappy@6 vendors instead and says so in the manifest. With --libsnappy it builds that
// checkout. Each build is cmake's Release build with -march=native and, where /proc/cpuinfo
// lists AVX2 and BMI2, libsnappy's own SNAPPY_REQUIRE_AVX2 (its BMI2 and AVX2 paths), as a
// static library (the bench's cpp row links it) and a shared one exporting snappy-c.h (for
// FFI), into cache/<default|checkout-...>/ with a manifest.json of what was built. A build
// whose source, compiler, flags and this script are unchanged is kept: nothing runs.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { arch, cpus, platform } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildDir, CACHE, SOURCE_ENV } from "./index.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");

export const DEBIAN = {
  version: "1.2.2",
  url: "http://deb.debian.org/debian/pool/main/s/snappy/snappy_1.2.2.orig.tar.gz",
  sha256: "90f74bc1fbf78a6c56b3c4a082a05103b3a56bb17bca1a27e052ea11723292dc",
};
const HEADERS = ["snappy.h", "snappy-c.h", "snappy-sinksource.h"];

const log = (line) => console.log(`libsnappy: ${line}`);
const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** The CPU flags that change libsnappy's build, from /proc/cpuinfo (none where it is absent). */
export function cpuFeatures(
  cpuinfo = existsSync("/proc/cpuinfo") ? readFileSync("/proc/cpuinfo", "utf8") : "",
) {
  const line = cpuinfo.split("\n").find((l) => /^(flags|Features)\s*:/.test(l)) ?? "";
  const flags = new Set(line.split(":")[1]?.trim().split(/\s+/) ?? []);
  return ["sse4_2", "avx", "avx2", "bmi2"].filter((f) => flags.has(f));
}

/**
 * cmake's options for this CPU: -march=native and, where the source has them (1.1.9 on),
 * libsnappy's own AVX2 (with BMI2) or AVX switch.
 */
export function cmakeOptions(features, cmakeLists, machine = arch()) {
  const native = machine === "arm64" ? "-mcpu=native" : "-march=native";
  const options = [
    "-DCMAKE_BUILD_TYPE=Release",
    `-DCMAKE_CXX_FLAGS=-O3 ${native}`,
    "-DSNAPPY_BUILD_TESTS=OFF",
    "-DSNAPPY_BUILD_BENCHMARKS=OFF",
    "-DSNAPPY_INSTALL=OFF",
    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
  ];
  if (!cmakeLists.includes("SNAPPY_REQUIRE_AVX")) return options;
  if (features.includes("avx2") && features.includes("bmi2"))
    options.push("-DSNAPPY_REQUIRE_AVX2=ON");
  else if (features.includes("avx")) options.push("-DSNAPPY_REQUIRE_AVX=ON");
  return options;
}

/** The version a source tree declares: project(Snappy VERSION x.y.z ...) in its CMakeLists. */
export function sourceVersion(dir) {
  const cmake = readFileSync(join(dir, "CMakeLists.txt"), "utf8");
  const match = /project\(\s*Snappy\s+VERSION\s+(\d+\.\d+\.\d+)/i.exec(cmake);
  if (!match) throw new Error(`${dir}/CMakeLists.txt declares no Snappy version`);
  return match[1];
}

/** snappy@6's vendored libsnappy source (resolved from @snappykit/libsnappy, which binds it). */
function vendoredSource() {
  const fromAdapter = createRequire(join(root, "packages", "libsnappy", "package.json"));
  const deps = join(dirname(fromAdapter.resolve("snappy/package.json")), "deps", "snappy");
  const folder = readdirSync(deps).find((d) => /^snappy-\d+\.\d+\.\d+$/.test(d));
  if (!folder) throw new Error(`no snappy-<version> folder in ${deps}`);
  return join(deps, folder);
}

/** Download (once) and unpack 1.2.2; throws when the archive is unreachable or its hash differs. */
async function debianSource() {
  const tarball = join(CACHE, `snappy_${DEBIAN.version}.orig.tar.gz`);
  const dir = join(CACHE, `snappy-${DEBIAN.version}`);
  if (existsSync(join(dir, "CMakeLists.txt"))) return dir;
  mkdirSync(CACHE, { recursive: true });
  if (!existsSync(tarball) || sha256(readFileSync(tarball)) !== DEBIAN.sha256) {
    log(`downloading ${DEBIAN.url}`);
    const response = await fetch(DEBIAN.url, { signal: AbortSignal.timeout(60_000) });
    if (!response.ok) throw new Error(`${DEBIAN.url}: HTTP ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const got = sha256(bytes);
    if (got !== DEBIAN.sha256)
      throw new Error(`${DEBIAN.url}: sha256 ${got}, not ${DEBIAN.sha256}`);
    writeFileSync(tarball, bytes);
  }
  const partial = `${dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial);
  execFileSync("tar", ["-xzf", tarball, "-C", partial, "--strip-components=1"]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}

/** What decides whether a kept build still stands: source files, compiler, options, this script. */
function buildKey(sourceDir, compiler, options) {
  const hash = createHash("sha256");
  for (const f of ["CMakeLists.txt", "snappy.cc", "snappy.h", "snappy-internal.h", "snappy-c.cc"])
    hash.update(readFileSync(join(sourceDir, f)));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(JSON.stringify([compiler, options]));
  return hash.digest("hex").slice(0, 16);
}

/**
 * The shared build's extra flag. With -fPIC, GCC assumes any exported function may be
 * replaced at load time, so it neither inlines nor calls directly libsnappy's exported
 * helpers (SnappyDecompressor::RefillTag, MemCopy64, ...): they go through the PLT. In one
 * C++ process calling both builds' snappy_uncompress in interleaved rounds, the .so took 2.2×
 * the static library's time on the 109 KiB beacon block and 1.75× on a 240 B attestation;
 * with this flag, 1.0–1.3× (and the bench's ffi rows had been ~2× cpp's). It changes no
 * behaviour: nothing interposes libsnappy's internals.
 */
const SHARED_CXX_FLAG = "-fno-semantic-interposition";

/** cmake configure + build of one variant; returns the compile command of snappy.cc. */
function cmakeBuild(sourceDir, buildPath, options, shared) {
  const run = (args) => execFileSync("cmake", args, { stdio: ["ignore", "pipe", "pipe"] });
  const flags = options.map((o) =>
    shared && o.startsWith("-DCMAKE_CXX_FLAGS=") ? `${o} ${SHARED_CXX_FLAG}` : o,
  );
  run(["-S", sourceDir, "-B", buildPath, ...flags, `-DBUILD_SHARED_LIBS=${shared}`, "-Wno-dev"]);
  run(["--build", buildPath, "--target", "snappy", "--parallel", String(cpus().length)]);
  const commands = JSON.parse(readFileSync(join(buildPath, "compile_commands.json"), "utf8"));
  const entry = commands.find((c) => /(^|\/)snappy\.cc$/.test(c.file));
  return entry?.command ?? "";
}

/** The flags of the compile command that shape the code: -O, -m, -f and -D switches. */
export function codeFlags(command) {
  return command
    .split(/\s+/)
    .filter((a) => /^-(O\d|m|f|D)/.test(a) && !/^-DSNAPPY_|^-Dsnappy_EXPORTS/.test(a))
    .join(" ");
}

async function chooseSource(libsnappy) {
  if (libsnappy) {
    const dir = resolve(libsnappy);
    if (!existsSync(join(dir, "snappy.cc"))) throw new Error(`${dir} is not a libsnappy source`);
    return { dir, source: { kind: "checkout", dir } };
  }
  try {
    return {
      dir: await debianSource(),
      source: { kind: "debian", url: DEBIAN.url, sha256: DEBIAN.sha256 },
    };
  } catch (error) {
    const why = error.cause?.message ?? error.message;
    log(`1.2.2 unavailable (${why}); building snappy@6's vendored copy`);
    const dir = vendoredSource();
    return { dir, source: { kind: "vendored", dir, fallback: why } };
  }
}

/** Build (or keep) libsnappy for `libsnappy` (a checkout) or the default source; the manifest. */
export async function build({ libsnappy = process.env[SOURCE_ENV], force = false } = {}) {
  const out = buildDir(libsnappy || undefined);
  const manifestPath = join(out, "manifest.json");
  const write = (manifest) => {
    mkdirSync(out, { recursive: true });
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  };
  let chosen;
  let compiler;
  try {
    chosen = await chooseSource(libsnappy || undefined);
    const cxx = process.env.CXX ?? "c++";
    compiler = execFileSync(cxx, ["--version"], { encoding: "utf8" }).split("\n")[0].trim();
    execFileSync("cmake", ["--version"], { stdio: "ignore" });
  } catch (error) {
    return write({ ok: false, reason: `cannot build libsnappy: ${error.message.split("\n")[0]}` });
  }
  const features = cpuFeatures();
  const options = cmakeOptions(features, readFileSync(join(chosen.dir, "CMakeLists.txt"), "utf8"));
  const key = buildKey(chosen.dir, compiler, options);
  if (!force && existsSync(manifestPath)) {
    const kept = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (kept.ok && kept.key === key) {
      log(`libsnappy ${kept.version} already built (${out})`);
      return kept;
    }
  }
  const version = sourceVersion(chosen.dir);
  log(`building libsnappy ${version} from ${chosen.dir} (${options.slice(1).join(" ")})`);
  const work = `${out}.${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    const command = cmakeBuild(chosen.dir, join(work, "static"), options, false);
    const sharedCommand = cmakeBuild(chosen.dir, join(work, "shared"), options, true);
    const sharedName = platform() === "darwin" ? "libsnappy.dylib" : "libsnappy.so";
    const files = [
      ["static/libsnappy.a", "lib/libsnappy.a"],
      [`shared/${sharedName}`, `lib/${sharedName}`],
      ...HEADERS.map((h) => [join(chosen.dir, h), `include/${h}`]),
      // Generated by cmake from snappy-stubs-public.h.in (and config.h, which snappy.h never
      // includes).
      ["static/snappy-stubs-public.h", "include/snappy-stubs-public.h"],
    ];
    mkdirSync(join(work, "lib"));
    mkdirSync(join(work, "include"));
    for (const [from, to] of files) copyFileSync(resolve(work, from), join(work, to));
    rmSync(join(work, "static"), { recursive: true });
    rmSync(join(work, "shared"), { recursive: true });
    const manifest = {
      ok: true,
      version,
      source: chosen.source,
      flags: {
        compiler,
        cxxFlags: codeFlags(command),
        sharedCxxFlags: codeFlags(sharedCommand),
        cmake: options,
        cpu: features,
      },
      staticLib: "lib/libsnappy.a",
      sharedLib: `lib/${sharedName}`,
      includeDir: "include",
      key,
    };
    writeFileSync(join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    rmSync(out, { recursive: true, force: true });
    renameSync(work, out);
    log(`built libsnappy ${version} into ${out} (${manifest.flags.cxxFlags})`);
    return manifest;
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    const stderr = String(error.stderr ?? error.message)
      .split("\n")
      .find((l) => /error/i.test(l));
    return write({ ok: false, reason: `libsnappy ${version} did not build: ${stderr}` });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let values;
  try {
    ({ values } = parseArgs({
      options: { libsnappy: { type: "string" }, force: { type: "boolean", default: false } },
    }));
  } catch (error) {
    console.error(
      `libsnappy: ${error.message}\nusage: node tools/libsnappy/build.mjs [--libsnappy <source dir>] [--force]`,
    );
    process.exit(2);
  }
  const manifest = await build(values);
  if (!manifest.ok) {
    // Setup goes on without it: the bench lists cpp (and FFI) as unavailable with this reason.
    log(manifest.reason);
    process.exitCode = values.libsnappy ? 1 : 0;
  }
}
