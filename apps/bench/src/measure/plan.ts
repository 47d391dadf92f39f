// From the case list to what the forks run: one input row per payload × op (written once
// for every child), and per case the target a child builds and the row it times.
import type { CodecTarget } from "@snappykit/workspace/targets";
import { type BenchCase, caseKey, type PreparedPayload, type RowInputs } from "../model/case.js";
import type { CliOptions } from "../model/options.js";
import type { CaseIdentity } from "../model/report.js";
import type { PlannedCase } from "../model/timing.js";

/**
 * Turn the case list into what the forks need: one input row per payload × op, and per
 * case the target spec a child builds and the row it times.
 */
export function planCases(
  cases: readonly BenchCase[],
  prepared: readonly PreparedPayload[],
  selected: readonly CodecTarget[],
  slowdowns: CliOptions["slowdowns"],
): {
  rows: (RowInputs & { label: string })[];
  plan: PlannedCase[];
  identities: CaseIdentity[];
} {
  const rows: (RowInputs & { label: string })[] = [];
  const rowIndex = new Map<string, number>();
  const plan: PlannedCase[] = [];
  const identities: CaseIdentity[] = [];
  for (const c of cases) {
    const p = prepared.find((x) => x.payload.name === c.payload.name)!;
    const rk = `${p.payload.name}\u0000${c.op.id}`;
    let row = rowIndex.get(rk);
    if (row === undefined) {
      row = rows.length;
      rowIndex.set(rk, row);
      rows.push({
        payload: p.payload.name,
        op: c.op.id,
        outputBytes: c.op.outputBytes(p),
        items: c.op.inputs(p),
        label: `{codec}/${p.payload.name}/${c.op.id}`,
      });
    }
    const a = selected.find((s) => s.id === c.target.codec)!;
    const slow = slowdowns.find((s) => s.codec === c.target.codec);
    plan.push({
      spec: {
        codec: c.target.codec,
        impl: c.target.impl,
        entry: c.target.impl === "raw" ? a.rawEntry! : a.entry,
        ...(a.variant !== undefined && { variant: true }),
        ...(c.target.native && { native: true }),
        ...(c.target.elsewhere && { runtime: c.target.elsewhere.runtime }),
        ...(slow && { slowdown: slow.percent / 100 }),
      },
      row,
    });
    identities.push({
      key: caseKey({
        codec: c.target.codec,
        impl: c.target.impl,
        payload: p.payload.name,
        op: c.op.id,
      }),
      codec: c.target.codec,
      impl: c.target.impl,
      library: c.target.library,
      payload: p.payload.name,
      op: c.op.id,
      items: p.payload.items.length,
      bytes: p.payload.bytes,
    });
  }
  return { rows, plan, identities };
}
