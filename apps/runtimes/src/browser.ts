// Headless Chromium: each adapter is bundled for the browser (no Node polyfills, so a
// `node:` import or a Node-only dependency fails the bundle, and no top-level await) and run
// in its own page. A bundle or page error means the adapter cannot load there.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PayloadSet } from "@snappykit/conformance/cases";
import { bundleForBrowser, openPage } from "@snappykit/workspace/chromium";
import type { Browser } from "playwright-core";
import { type AdapterResult, importsOf, type Target } from "./portable.js";

const portable = join(dirname(fileURLToPath(import.meta.url)), "portable.js");

/** The page module for `target`: the runner and literal imports of its packages. */
function pageModule(target: Target): string {
  // Literal import() calls, so that esbuild bundles each package (lazily evaluated: an
  // error at evaluation rejects the import instead of breaking the page).
  const imports = importsOf(target)
    .map((s) => `${JSON.stringify(s)}: () => import(${JSON.stringify(s)})`)
    .join(", ");
  return `import { runTarget } from ${JSON.stringify(portable)};
const imports = { ${imports} };
globalThis.runConformance = (target, payloads) =>
  runTarget(target, (specifier) => imports[specifier](), payloads);`;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Run one adapter in a fresh page. */
export async function runInPage(
  browser: Browser,
  target: Target,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  const { id } = target;
  let opened: Awaited<ReturnType<typeof openPage>>;
  try {
    const bundle = await bundleForBrowser(pageModule(target), dirname(portable));
    opened = await openPage(browser, bundle, "runConformance");
  } catch (error) {
    return { id, status: "cannot load", reason: message(error) };
  }
  const { page, errors } = opened;
  try {
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
