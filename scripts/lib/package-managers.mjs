// The clean projects of `pnpm test:release` (scripts/release-test.mjs): npm, pnpm, Bun and
// Deno each install snappykit from the registry into an empty project outside the workspace,
// and consumer-program.mjs runs there, as a user's program would.
//
// snappy@6 (@snappykit/libsnappy) compiles with node-gyp when installed: npm and pnpm get
// npm_config_nodedir (this Node's headers, as scripts/setup.sh does) and pnpm an `allowBuilds`
// entry, as a user must. Bun and Deno cannot load it (its cannotLoad), so they skip it.

import { randomBytes } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { globSync } from "tinyglobby";
import { installedProblems } from "./release-checks.mjs";

const require = createRequire(join(repoRoot, "package.json"));
const bin = (name) => join(repoRoot, "node_modules", ".bin", name);
const framing = "@snappykit/framing";
const program = new URL("./consumer-program.mjs", import.meta.url);

/** Every entrypoint of `manifests` (their `exports` keys) a user can import. */
const entrypoints = (manifests) =>
  manifests.flatMap((manifest) =>
    Object.keys(manifest.exports ?? { ".": "" })
      .filter((key) => key !== "./package.json" && !key.includes("*"))
      .map((key) => ({
        name: manifest.name,
        spec: key === "." ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      })),
  );

/**
 * consumer.ts, written into `dir`: every entrypoint imported, each adapter assigned to the
 * contract as the installed core declares it. tsc checks it with NodeNext and skipLibCheck
 * off, so the shipped .d.ts files are checked too.
 */
function writeTypeCheck(dir, entrypoints, adapterNames) {
  const specs = entrypoints.map((e) => e.spec);
  const ts = [
    'import type { AdapterModule, SnappyCodec } from "@snappykit/core";',
    ...specs.map((s, i) => `import * as m${i} from "${s}";`),
    `export const entrypoints: readonly object[] = [${specs.map((_, i) => `m${i}`).join(", ")}];`,
    "export const adapters: Record<string, AdapterModule> = {",
    ...adapterNames.map((n) => `  "${n}": m${specs.indexOf(n)},`),
    "};",
    "export async function roundTrip(m: AdapterModule, input: Uint8Array): Promise<Uint8Array> {",
    "  const codec: SnappyCodec = await m.createCodec();",
    "  return codec.uncompress(codec.compress(input), { maxLength: input.length });",
    "}",
  ];
  writeFileSync(join(dir, "consumer.ts"), `${ts.join("\n")}\n`);
  const flags =
    "--target ES2022 --module NodeNext --moduleResolution NodeNext --types node --strict";
  return [require.resolve("typescript/bin/tsc"), ...flags.split(" "), "--noEmit", "consumer.ts"];
}

/**
 * Every @snappykit package under `dir`'s node_modules, once per copy on disk: npm's nested
 * copies, pnpm's .pnpm and Deno's .deno folders count, the links to them (never followed) do not.
 */
const installedManifests = (dir) =>
  globSync("node_modules/**/@snappykit/*/package.json", {
    cwd: dir,
    dot: true,
    followSymbolicLinks: false,
  }).map((path) => ({ path, manifest: JSON.parse(readFileSync(join(dir, path), "utf8")) }));

/**
 * The clean projects under `work`, installing from the registry at the url `registry` the
 * release whose `latest` maps name → version: `@snappykit/framing` and every adapter of `adapters`
 * (discoverAdapters), and in the npm project every other package of `packages` (the
 * publishable ones) too. `labels` names the projects; `check` installs and runs them all at
 * once and returns their problems.
 */
export function cleanProjects({ work, registry: registryUrl, latest, packages, adapters, run }) {
  const names = packages.map((p) => p.name);
  const env = {
    ...process.env,
    npm_config_registry: registryUrl,
    NPM_CONFIG_REGISTRY: registryUrl,
    // A user's npmrc without a token: users install anonymously.
    npm_config_userconfig: join(work, "npmrc-user"),
    // snappy@6's node-gyp build, offline: this Node's own headers (as scripts/setup.sh).
    npm_config_nodedir: process.env.npm_config_nodedir ?? dirname(dirname(process.execPath)),
    // Bun and Deno keep packages by name and version, not by registry: caches of their own,
    // so an earlier run's tarballs of the same versions cannot stand in for this run's.
    BUN_INSTALL_CACHE_DIR: join(work, "bun-cache"),
    DENO_DIR: join(work, "deno-dir"),
    NO_COLOR: "1",
  };
  const requested = [...adapters.map((a) => a.packageName), framing];
  const typesNode = JSON.parse(readFileSync(require.resolve("@types/node/package.json"), "utf8"));
  const node = (args) => [process.execPath, args];
  const projects = [
    {
      label: "npm",
      runtime: "node",
      // npm also installs every other package: every entrypoint is imported and type-checked.
      install: (specs) => [
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          ...new Set([...specs, ...names]),
          `@types/node@${typesNode.version}`,
        ],
      ],
      run: node,
      everyEntrypoint: true,
    },
    {
      label: "pnpm",
      runtime: "node",
      // pnpm runs no dependency's build script unless the project allows it (snappy@6).
      files: { "pnpm-workspace.yaml": "allowBuilds:\n  snappy: true\n" },
      // A store of its own: the shared one's side-effects cache would hand over a snappy@6
      // built before instead of building it here.
      install: (specs) => ["pnpm", ["add", "--store-dir", join(work, "pnpm-store"), ...specs]],
      run: node,
    },
    {
      label: "bun",
      runtime: "bun",
      install: (specs) => [bin("bun"), ["add", ...specs]],
      run: (args) => [bin("bun"), args],
    },
    {
      label: "deno",
      runtime: "deno",
      // Deno installs no version younger than a day unless told: these are minutes old.
      files: {
        "deno.json": `${JSON.stringify({ nodeModulesDir: "auto", minimumDependencyAge: 0 })}\n`,
      },
      spec: (name) => `npm:${name}@${latest[name]}`,
      install: (specs) => [bin("deno"), ["add", ...specs.map((n) => `npm:${n}`)]],
      run: (args) => [bin("deno"), ["run", "--allow-all", "--quiet", ...args]],
    },
    {
      // Most users install only this; it must need no build step (snappy@7 ships binaries).
      label: "npm, @snappykit/auto alone",
      runtime: "node",
      only: ["@snappykit/auto"],
      install: (specs) => ["npm", ["install", "--no-audit", "--no-fund", ...specs]],
      run: node,
      noInstallScripts: true,
      // Calibration where the package is installed, on the project's own bytes.
      calibrate: true,
    },
  ];

  /** One clean project: install, check what landed in node_modules, run the program. */
  async function consumer(project, dir) {
    const where = (what) => (why) => `[${project.label}] ${what}: ${why}`;
    const cannotLoad = (name) =>
      adapters.find((a) => a.packageName === name)?.metadata.cannotLoad?.[project.runtime];
    const skipped = requested.filter(cannotLoad);
    for (const n of skipped) console.log(`[${project.label}] leaves out ${n}: ${cannotLoad(n)}`);
    const specs = project.only ?? requested.filter((n) => !skipped.includes(n));
    mkdirSync(dir, { recursive: true });
    const files = {
      "package.json": `${JSON.stringify({ name: "consumer", private: true, type: "module" })}\n`,
      ".npmrc": `registry=${registryUrl}\n`,
      ...project.files,
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    const opts = { cwd: dir, env, label: project.label };
    try {
      await run(...project.install(specs), opts);
    } catch (error) {
      return [where("install")(error.message)];
    }
    const problems = installedProblems(installedManifests(dir), { latest, requested: specs }).map(
      where("installed manifests"),
    );
    if (project.noInstallScripts) {
      const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
      for (const [path, entry] of Object.entries(lock.packages)) {
        if (entry.hasInstallScript)
          problems.push(where("install")(`${path} has an install script`));
      }
    }
    const named = (name) => ({ name, spec: project.spec?.(name) ?? name });
    const adapterNames = specs.filter((n) => n !== framing);
    const every = project.everyEntrypoint ? entrypoints(packages.map((p) => p.pkg)) : [];
    copyFileSync(program, join(dir, "consumer-program.mjs"));
    const what = {
      adapters: adapterNames.map(named),
      ...(specs.includes(framing) && { framing: named(framing), codec: named("@snappykit/ts") }),
      entrypoints: every.filter((e) => !adapterNames.includes(e.spec)),
    };
    const args = [join(dir, "consumer-program.mjs"), JSON.stringify(what)];
    try {
      const output = await run(...project.run(args), { ...opts, timeout: 120_000 });
      for (const line of output.trim().split("\n"))
        console.log(`[${project.label}] ${line.replaceAll("\t", " ")}`);
    } catch (error) {
      // Its `FAIL\t<package>\t<step>\t<why>` lines.
      const failures = (error.output ?? "")
        .split("\n")
        .filter((line) => line.startsWith("FAIL\t"))
        .map((line) => line.split("\t").slice(1).join(": "));
      problems.push(
        ...(failures.length > 0 ? failures : [error.message]).map(where(`${project.runtime} run`)),
      );
    }
    if (project.calibrate) problems.push(...(await calibrateIn(dir, opts)).map(where("calibrate")));
    if (project.everyEntrypoint) {
      await run(process.execPath, writeTypeCheck(dir, every, adapterNames), opts).catch((error) =>
        problems.push(where("tsc over every entrypoint")(error.message)),
      );
    }
    return problems;
  }

  /** `npx @snappykit/auto calibrate --data` in an installed project: it writes thresholds. */
  async function calibrateIn(dir, opts) {
    const data = join(dir, "messages");
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, "text.txt"), "consensus ".repeat(20_000));
    writeFileSync(join(data, "random.bin"), randomBytes(300_000));
    const args = ["--no-install", "@snappykit/auto", "calibrate", "--data", data, "--rounds", "2"];
    const failed = await run("npx", args, opts).then(
      () => null,
      (error) => error.message,
    );
    if (failed) return [failed];
    const file = JSON.parse(readFileSync(join(dir, "thresholds.json"), "utf8"));
    return file.provenance?.source === "calibrated"
      ? []
      : ["thresholds.json is not a calibration's"];
  }

  return {
    labels: projects.map((p) => p.label),
    check: async () => {
      writeFileSync(env.npm_config_userconfig, `registry=${registryUrl}\n`);
      const problems = await Promise.all(
        projects.map((project, i) => consumer(project, join(work, "consumers", String(i)))),
      );
      return problems.flat();
    },
  };
}
