// Headless Chromium: each adapter is bundled by esbuild for the browser (no Node
// polyfills, so a `node:` import or a Node-only dependency fails the bundle, and no
// top-level await) and run in its own page. A bundle or page error means the adapter cannot load there.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PayloadSet } from "@snappykit/conformance/cases";
import { build } from "esbuild";
import { type Browser, chromium } from "playwright-core";
import { type AdapterResult, importsOf, type Target } from "./portable.js";

const portable = join(dirname(fileURLToPath(import.meta.url)), "portable.js");
// localhost is a secure context, which cross-origin isolation needs; every request to it is
// answered by the route below (nothing listens there).
const ORIGIN = "http://localhost:9";

// No top-level await: bundlers targeting older browsers (Vite before 7 by default) and
// non-ESM output formats reject it, so a package that needs it does not bundle everywhere.
const BUILD = {
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2022",
  supported: { "top-level-await": false },
  write: false,
  metafile: true,
  logLevel: "silent",
} as const;

/**
 * A worker script a package starts with `new Worker(new URL("pkg/file.mjs",
 * import.meta.url))` (the Vite convention), bundled as Vite would: resolved as a package
 * path from the folders of the page bundle's inputs.
 */
async function bundleWorker(specifier: string, dirs: readonly string[]): Promise<string> {
  for (const resolveDir of dirs) {
    const result = await build({
      ...BUILD,
      stdin: { contents: `import ${JSON.stringify(specifier)};`, resolveDir, loader: "js" },
    }).catch(() => undefined);
    if (result) return result.outputFiles[0]!.text;
  }
  throw new Error(`cannot resolve ${specifier}`);
}

/** Bundle `target` with the runner, or the bundler's errors. */
async function bundle(target: Target): Promise<{ code: string; dirs: string[] } | string> {
  // Literal import() calls, so that esbuild bundles each package (lazily evaluated: an
  // error at evaluation rejects the import instead of breaking the page).
  const imports = importsOf(target)
    .map((s) => `${JSON.stringify(s)}: () => import(${JSON.stringify(s)})`)
    .join(", ");
  try {
    const result = await build({
      stdin: {
        contents: `import { runTarget } from ${JSON.stringify(portable)};
const imports = { ${imports} };
globalThis.runConformance = (target, payloads) =>
  runTarget(target, (specifier) => imports[specifier](), payloads);`,
        resolveDir: dirname(portable),
        loader: "js",
      },
      ...BUILD,
    });
    const dirs = new Set(Object.keys(result.metafile.inputs).map((file) => dirname(resolve(file))));
    return { code: result.outputFiles[0]!.text, dirs: [...dirs] };
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string } }[] }).errors;
    if (!errors) throw error;
    const lines = errors.map((e) => (e.location ? `${e.text} (in ${e.location.file})` : e.text));
    return `bundle failed: ${[...new Set(lines)].slice(0, 3).join("; ")}`;
  }
}

/**
 * Run one adapter in a fresh page. Files the bundle fetches relative to itself (wasm
 * modules loaded with `new URL(file, import.meta.url)`) are served from the folders of its
 * inputs, as a bundler's asset handling would ship them. The page is cross-origin
 * isolated so backends that need SharedArrayBuffer can have it.
 */
export async function runInPage(
  browser: Browser,
  target: Target,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  const { id } = target;
  const bundled = await bundle(target);
  if (typeof bundled === "string") return { id, status: "cannot load", reason: bundled };
  const page = await browser.newPage();
  try {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const headers = {
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
    };
    await page.route(`${ORIGIN}/**`, async (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === "/") {
        const html = '<!doctype html><script type="module" src="/runner.js"></script>';
        return route.fulfill({ contentType: "text/html", body: html, headers });
      }
      if (path === "/runner.js") {
        return route.fulfill({ contentType: "text/javascript", body: bundled.code, headers });
      }
      const file = bundled.dirs.map((dir) => join(dir, path)).find((f) => existsSync(f));
      if (!file && /\.m?js$/.test(path)) {
        const body = await bundleWorker(path.slice(1), bundled.dirs).catch(() => undefined);
        if (body) return route.fulfill({ contentType: "text/javascript", body, headers });
      }
      if (!file) return route.fulfill({ status: 404, headers });
      const contentType = file.endsWith(".wasm") ? "application/wasm" : "text/javascript";
      return route.fulfill({ path: file, contentType, headers });
    });
    await page.goto(`${ORIGIN}/`);
    try {
      await page.waitForFunction(() => "runConformance" in globalThis, undefined, {
        timeout: 30_000,
      });
    } catch {
      return { id, status: "cannot load", reason: errors.join("; ") || "the bundle never ran" };
    }
    const result = await page.evaluate(
      ([target, payloads]) =>
        (
          globalThis as unknown as {
            runConformance(t: Target, p: readonly PayloadSet[]): Promise<AdapterResult>;
          }
        ).runConformance(target, payloads),
      [target, payloads] as const,
    );
    return result.status === "cannot load" && errors.length
      ? { ...result, reason: `${result.reason} (page: ${errors.join("; ")})` }
      : result;
  } finally {
    await page.close();
  }
}

/** Launch headless Chromium from `executablePath`. */
export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath });
}
