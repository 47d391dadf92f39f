// `--runtime browser`: each fork is a fresh Chromium page instead of a process. The page
// runs the adapter's browser build (its package's `browser` export condition), bundled with
// browser-fork.ts, and answers the same requests as a process fork (warm, sample,
// allocation), through page.evaluate. Adapters that cannot bundle or load in a browser
// (native addons) fail their forks with the reason, as in any other runtime.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Bundle, bundleForBrowser, openPage } from "@snappykit/workspace/chromium";
import type { Browser, Page } from "playwright-core";
import type { RowInputs, TargetSpec } from "../model/case.js";
import type { Allocation, TimingOptions, Turn } from "../model/timing.js";
import type { BenchFork } from "./browser-fork.js";
import { ForkError } from "./fork.js";
import type { CaseWorker } from "./local.js";

const PAGE_FORK = join(dirname(fileURLToPath(import.meta.url)), "browser-fork.js");

// Modules run.ts imports, replaced in the page bundle. It reads V8 heap statistics for
// allocation figures only when gc() exists, which it does not in a page (the figures are
// n/a there).
const SHIMS = {
  "node:v8": `export function getHeapStatistics() {
  throw new Error("no V8 heap statistics in a browser page");
}`,
};

/** The module a browser bundler would pick for the adapter entry (main or `./raw`) `entry`. */
function browserEntry(entry: string): string {
  const dir = resolve(dirname(entry), "..");
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    exports?: Record<string, { browser?: string; default?: string }>;
  };
  const exported = Object.values(pkg.exports ?? {}).find(
    (e) => e.default && join(dir, e.default) === entry,
  );
  return exported?.browser ? join(dir, exported.browser) : entry;
}

// As for a process fork (fork.ts): a page once missed 30 s on a loaded 2-core machine.
const START_TIMEOUT_MS = 60_000;

const bundles = new Map<string, Promise<Bundle>>();

/** One bundle per adapter for the whole run (a failed bundle fails every fork alike). */
function bundleFor(entry: string): Promise<Bundle> {
  let bundle = bundles.get(entry);
  if (!bundle) {
    bundle = bundleForBrowser(
      `import * as mod from ${JSON.stringify(browserEntry(entry))};
import { serveFork } from ${JSON.stringify(PAGE_FORK)};
serveFork(mod);`,
      dirname(PAGE_FORK),
      SHIMS,
    );
    bundles.set(entry, bundle);
  }
  return bundle;
}

const plain = new WeakMap<readonly RowInputs[], RowInputs[]>();

/**
 * The rows with every item a plain Uint8Array: Playwright serializes typed arrays, but a
 * Node Buffer (the gate's compressed inputs) arrives in the page as a plain object.
 */
function plainRows(rows: readonly RowInputs[]): RowInputs[] {
  let out = plain.get(rows);
  if (!out) {
    out = rows.map((r) => ({ ...r, items: r.items.map((item) => new Uint8Array(item)) }));
    plain.set(rows, out);
  }
  return out;
}

/** One target in a Chromium page. */
export class BrowserWorker implements CaseWorker {
  private constructor(
    readonly spec: TargetSpec,
    private readonly page: Page,
    private readonly timeoutMs: number,
  ) {}

  /** Open a page for `spec`, hand it the rows and wait until its target is built. */
  static async start(
    spec: TargetSpec,
    browser: Browser,
    rows: readonly RowInputs[],
    timing: TimingOptions,
    timeoutMs: number,
  ): Promise<BrowserWorker> {
    let page: Page;
    try {
      ({ page } = await openPage(
        browser,
        await bundleFor(spec.entry),
        "benchFork",
        START_TIMEOUT_MS,
      ));
    } catch (error) {
      throw new ForkError(`cannot load ${spec.codec}: ${(error as Error).message}`);
    }
    const worker = new BrowserWorker(spec, page, timeoutMs);
    try {
      await worker.call("start", spec, plainRows(rows), timing);
    } catch (error) {
      await page.close();
      throw error;
    }
    return worker;
  }

  /** Call `benchFork[cmd](...args)` in the page, within the request timeout. */
  private async call<C extends keyof BenchFork>(
    cmd: C,
    ...args: Parameters<BenchFork[C]>
  ): Promise<Awaited<ReturnType<BenchFork[C]>>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ForkError(`no answer to ${cmd} within ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      );
    });
    const request = this.page.evaluate(
      ([c, a]) => {
        type Call = (...args: unknown[]) => unknown;
        const fork = (globalThis as unknown as { benchFork: Record<string, Call> }).benchFork;
        return fork[c]!(...a);
      },
      [cmd, args] as const,
    ) as Promise<Awaited<ReturnType<BenchFork[C]>>>;
    try {
      return await Promise.race([request, timeout]);
    } catch (error) {
      throw error instanceof ForkError ? error : new ForkError((error as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  warm(row: number): Promise<number> {
    return this.call("warm", row);
  }

  sample(row: number): Promise<Turn> {
    return this.call("sample", row);
  }

  allocation(row: number): Promise<Allocation> {
    return this.call("allocation", row);
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}
