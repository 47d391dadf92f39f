import { existsSync, readFileSync } from "node:fs";
import { expect, describe as group, it } from "vitest";
import { cmakeOptions, codeFlags, cpuFeatures, sourceVersion } from "./build.mjs";
import { buildDir, describe, locate } from "./index.mjs";

const AVX2 = 'option(SNAPPY_REQUIRE_AVX2 "Target processors with AVX2 support." OFF)';

group("build options", () => {
  it("reads the CPU flags that matter from /proc/cpuinfo", () => {
    const cpuinfo = "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 bmi1 bmi2 avx512f\n";
    expect(cpuFeatures(cpuinfo)).toEqual(["sse4_2", "avx", "avx2", "bmi2"]);
    expect(cpuFeatures("")).toEqual([]);
  });

  it("asks for libsnappy's AVX2 paths only with AVX2 and BMI2, and only where the source has them", () => {
    expect(cmakeOptions(["avx", "avx2", "bmi2"], AVX2, "x64")).toContain(
      "-DSNAPPY_REQUIRE_AVX2=ON",
    );
    expect(cmakeOptions(["avx", "avx2"], AVX2, "x64")).toContain("-DSNAPPY_REQUIRE_AVX=ON");
    const old = cmakeOptions(["avx", "avx2", "bmi2"], "project(Snappy VERSION 1.1.7)", "x64");
    expect(old.filter((o) => o.startsWith("-DSNAPPY_REQUIRE"))).toEqual([]);
    expect(old).toContain("-DCMAKE_CXX_FLAGS=-O3 -march=native");
    expect(cmakeOptions([], AVX2, "arm64")).toContain("-DCMAKE_CXX_FLAGS=-O3 -mcpu=native");
  });

  it("keeps the flags that shape the code from a compile command", () => {
    const command =
      "/usr/bin/c++ -DHAVE_CONFIG_H -Dsnappy_EXPORTS -I/b -O3 -march=native -mavx -mbmi2 -O3 -DNDEBUG -fPIC -std=c++11 -o x.o -c /s/snappy.cc";
    expect(codeFlags(command)).toBe(
      "-DHAVE_CONFIG_H -O3 -march=native -mavx -mbmi2 -O3 -DNDEBUG -fPIC",
    );
  });

  it("reads a source's version from its CMakeLists", () => {
    const dir = new URL("./cache/snappy-1.2.2", import.meta.url).pathname;
    if (existsSync(dir)) expect(sourceVersion(dir)).toBe("1.2.2");
    expect(() => sourceVersion(new URL(".", import.meta.url).pathname)).toThrow();
  });
});

group("locate", () => {
  it("says how to build a checkout that is not built", () => {
    const found = locate({ libsnappy: "/nonexistent/snappy" });
    expect(found).toEqual({ ok: false, reason: expect.stringContaining("--libsnappy") });
  });

  it("finds setup's build with its libraries, headers and flags", () => {
    const found = locate({ libsnappy: "" });
    const manifest = `${buildDir()}/manifest.json`;
    if (!existsSync(manifest)) return expect(found.ok).toBe(false);
    const written = JSON.parse(readFileSync(manifest, "utf8"));
    expect(found.ok).toBe(written.ok);
    if (!found.ok) return expect(found.reason).toBe(written.reason);
    for (const path of [found.staticLib, found.sharedLib, `${found.includeDir}/snappy-c.h`])
      expect(existsSync(path)).toBe(true);
    expect(describe(found)).toContain(`libsnappy ${written.version}`);
    expect(describe(found)).toContain(written.flags.cxxFlags);
  });
});
