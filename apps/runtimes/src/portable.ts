// The part that runs inside Bun, Deno or the browser page: load one adapter and run every
// conformance check on it. Only portable code here (no Node APIs), since the browser
// bundle includes it.
import { type ConformanceInputs, conformanceChecks } from "@snappykit/conformance/cases";
import type { AdapterModule } from "@snappykit/core";

/** One adapter's outcome in one runtime. */
export type AdapterResult =
  | { readonly id: string; readonly status: "cannot load"; readonly reason: string }
  | {
      readonly id: string;
      readonly status: "pass" | "fail";
      readonly library: string;
      readonly checks: number;
      /** Failed checks as "group › name: message". */
      readonly failures: readonly string[];
    };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Import the adapter with `load` and create its codec; if either fails the adapter
 * "cannot load" (with the reason). Otherwise run every check, all of them even after one
 * fails, so the report lists each failure.
 */
export async function runAdapter(
  id: string,
  load: () => Promise<Partial<AdapterModule>>,
  payloads: ConformanceInputs["payloads"],
): Promise<AdapterResult> {
  let codec: Awaited<ReturnType<AdapterModule["createCodec"]>>;
  try {
    const mod = await load();
    if (typeof mod.createCodec !== "function") throw new Error("no createCodec export");
    codec = await mod.createCodec();
  } catch (error) {
    return { id, status: "cannot load", reason: message(error) };
  }
  const failures: string[] = [];
  const checks = conformanceChecks({ payloads });
  for (const check of checks) {
    try {
      await check.run(codec);
    } catch (error) {
      failures.push(`${check.group} › ${check.name}: ${message(error)}`);
    }
  }
  return {
    id,
    status: failures.length ? "fail" : "pass",
    library: codec.library,
    checks: checks.length,
    failures,
  };
}
