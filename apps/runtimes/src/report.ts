// The per-runtime report and what makes `pnpm test:runtimes` fail.
import type { NodeLine } from "@snappykit/workspace/node-lines";
import { type AdapterResult, PACKAGES } from "./portable.js";

/** Where the checks run: a Node LTS line (tools/node-lines), Bun, Deno or Chromium. */
export type Runtime = NodeLine | "bun" | "deno" | "browser";

/** One runtime's run: its name and version as it reports them, and each target's result. */
export interface ChildReport {
  readonly runtime: string;
  readonly results: readonly AdapterResult[];
}

/**
 * Adapters known not to load in a runtime, and why: runtime → adapter id → reason, from each
 * adapter's package.json (`"snappykit": { "cannotLoad": { "<runtime>": "<reason>" } }`).
 * The run fails when one of these loads after all or when any other adapter cannot load.
 */
export type ExpectedCannotLoad = Readonly<Record<string, Readonly<Record<string, string>>>>;

/**
 * Runtime → adapter id → why it cannot load there: what each adapter's package.json says,
 * and for each Node line, a native addon among the adapter's dependencies that did not build
 * for it (`addonFailure(line, dependency)`: scripts/node-addons.mjs's record).
 */
export function expectedCannotLoad(
  adapters: readonly {
    readonly id: string;
    readonly cannotLoad: Readonly<Record<string, string>>;
    readonly dependencies: readonly string[];
  }[],
  lines: readonly NodeLine[],
  addonFailure: (line: NodeLine, dependency: string) => string | undefined,
): ExpectedCannotLoad {
  const expected: Record<string, Record<string, string>> = {};
  const add = (runtime: string, id: string, reason: string) => {
    expected[runtime] = { ...expected[runtime], [id]: reason };
  };
  for (const { id, cannotLoad, dependencies } of adapters) {
    for (const [runtime, reason] of Object.entries(cannotLoad)) add(runtime, id, reason);
    for (const line of lines) {
      for (const dependency of dependencies) {
        const reason = addonFailure(line, dependency);
        if (reason) add(line, id, reason);
      }
    }
  }
  return expected;
}

/** Print one runtime's summary and results; return its problems (empty when it is green). */
export function report(
  name: Runtime,
  { runtime, results }: ChildReport,
  expectedCannotLoad: ExpectedCannotLoad,
  log: (line: string) => void = console.log,
): string[] {
  const count = (status: AdapterResult["status"]) =>
    results.filter((r) => !PACKAGES.some((p) => p.id === r.id) && r.status === status).length;
  log(
    `${runtime}: ${count("pass")} adapters pass, ${count("fail")} fail, ${count("cannot load")} cannot load`,
  );
  const problems: string[] = [];
  const expected = expectedCannotLoad[name] ?? {};
  for (const r of results) {
    if (r.status === "cannot load") {
      log(`  ${r.id.padEnd(12)} cannot load: ${expected[r.id] ?? ""}`);
      log(`  ${"".padEnd(12)}   ${r.reason}`);
      if (!expected[r.id]) problems.push(`${name}: ${r.id} cannot load (${r.reason})`);
      continue;
    }
    log(`  ${r.id.padEnd(12)} ${r.status}  ${r.checks} checks  ${r.library}`);
    for (const failure of r.failures) log(`  ${"".padEnd(12)}   ✗ ${failure}`);
    if (r.status === "fail") problems.push(`${name}: ${r.id} fails ${r.failures.length} checks`);
    if (expected[r.id])
      problems.push(
        `${name}: ${r.id} loads; drop ${name} from its package.json's snappykit.cannotLoad`,
      );
  }
  return problems;
}
