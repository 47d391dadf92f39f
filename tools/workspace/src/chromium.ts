// Headless Chromium for the apps (the bench's `--runtime browser`, apps/runtimes): find (or
// apt-install) Debian's Chromium, bundle code for the browser with esbuild (no Node polyfills,
// no top-level await) and open it in a page of its own.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";

/** Path of a Chromium binary, installing Debian's package when it is missing and we can. */
export function chromiumPath(log: (line: string) => void = console.log): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (found) return found;
  const canApt = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canApt) {
    throw new Error(
      "Chromium not found. Install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) " +
        "or set CHROMIUM_PATH to a Chromium or Chrome binary.",
    );
  }
  log("installing Chromium with apt-get (Debian package `chromium`)");
  const apt = (...args: string[]) =>
    execFileSync("apt-get", args, {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  // An install interrupted earlier (a CI run stopped mid-way) leaves dpkg half-configured,
  // and apt-get then refuses every install until this has run.
  execFileSync("dpkg", ["--configure", "-a"], { stdio: ["ignore", "ignore", "inherit"] });
  apt("update", "-qq");
  apt("install", "-y", "-qq", "chromium");
  return "/usr/bin/chromium";
}

/** Launch headless Chromium (installing it first if need be). */
export function launchChromium(log?: (line: string) => void): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(log) });
}

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

/** A page bundle, and the folders of its inputs (to serve files it fetches next to itself). */
export interface Bundle {
  readonly code: string;
  readonly dirs: readonly string[];
}

/**
 * Bundle the module `contents` (imports resolved from `resolveDir`); throws with the
 * bundler's errors. `shims` gives the source of modules to use in place of the named
 * imports (e.g. a `node:` module the code imports but does not call in a browser).
 */
export async function bundleForBrowser(
  contents: string,
  resolveDir: string,
  shims: Record<string, string> = {},
): Promise<Bundle> {
  const shim: Plugin = {
    name: "shims",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) =>
        args.path in shims ? { path: args.path, namespace: "shim" } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "shim" }, (args) => ({
        contents: shims[args.path],
        loader: "js",
        resolveDir,
      }));
    },
  };
  try {
    const result = await build({
      stdin: { contents, resolveDir, loader: "js" },
      ...BUILD,
      plugins: [shim],
    });
    const dirs = new Set(Object.keys(result.metafile.inputs).map((file) => dirname(resolve(file))));
    return { code: result.outputFiles[0]!.text, dirs: [...dirs] };
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string } }[] }).errors;
    if (!errors) throw error;
    const lines = errors.map((e) => (e.location ? `${e.text} (in ${e.location.file})` : e.text));
    throw new Error(`bundle failed: ${[...new Set(lines)].slice(0, 3).join("; ")}`);
  }
}

/**
 * A worker script a package starts with `new Worker(new URL("pkg/file.mjs",
 * import.meta.url))` (the Vite convention), bundled as Vite would: resolved as a package
 * path from the folders of the page bundle's inputs.
 */
async function bundleWorker(specifier: string, dirs: readonly string[]): Promise<string> {
  for (const dir of dirs) {
    const bundle = await bundleForBrowser(`import ${JSON.stringify(specifier)};`, dir).catch(
      () => undefined,
    );
    if (bundle) return bundle.code;
  }
  throw new Error(`cannot resolve ${specifier}`);
}

// localhost is a secure context, which cross-origin isolation needs; every request to it is
// answered by the route below (nothing listens there).
const ORIGIN = "http://localhost:9";

/**
 * A fresh page running `bundle` as a module, with the page errors it reports. Files the
 * bundle fetches relative to itself (wasm modules loaded with `new URL(file,
 * import.meta.url)`, worker scripts) are served from the folders of its inputs, as a
 * bundler's asset handling would ship them. The page is cross-origin isolated so backends
 * that need SharedArrayBuffer can have it. Resolves once `ready` (a global the bundle sets)
 * exists; rejects with the page's errors if it never does.
 */
export async function openPage(
  browser: Browser,
  bundle: Bundle,
  ready: string,
  timeoutMs = 30_000,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const headers = {
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-embedder-policy": "require-corp",
  };
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/") {
      const html = '<!doctype html><script type="module" src="/main.js"></script>';
      return route.fulfill({ contentType: "text/html", body: html, headers });
    }
    if (path === "/main.js") {
      return route.fulfill({ contentType: "text/javascript", body: bundle.code, headers });
    }
    const file = bundle.dirs.map((dir) => join(dir, path)).find((f) => existsSync(f));
    if (!file && /\.m?js$/.test(path)) {
      const body = await bundleWorker(path.slice(1), bundle.dirs).catch(() => undefined);
      if (body) return route.fulfill({ contentType: "text/javascript", body, headers });
    }
    if (!file) return route.fulfill({ status: 404, headers });
    const contentType = file.endsWith(".wasm") ? "application/wasm" : "text/javascript";
    return route.fulfill({ path: file, contentType, headers });
  });
  await page.goto(`${ORIGIN}/`);
  try {
    await page.waitForFunction((name) => name in globalThis, ready, { timeout: timeoutMs });
  } catch {
    await page.close();
    throw new Error(errors.join("; ") || "the bundle never ran");
  }
  return { page, errors };
}
