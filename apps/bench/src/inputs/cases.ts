// The case list: a case is (target, payload, op), built payload by payload and op by op
// over the selected targets, with each raw library beside its adapter on the payloads
// adapter overhead is measured on.
import type { RawBackend, SnappyCodec } from "@snappykit/core";
import type { BenchCase, BenchPayload, OpSpec, Target } from "../model/case.js";

/** View a loaded codec as a timing target. */
export function adapterTarget(id: string, codec: SnappyCodec, syncOnly = false): Target {
  return { codec: id, impl: "adapter", library: codec.library, backend: codec, syncOnly };
}

/** View an adapter's raw backend as a timing target. */
export function rawTarget(id: string, raw: RawBackend): Target {
  return { codec: id, impl: "raw", library: raw.library, backend: raw };
}

/** Whether `target` can run `op` (a native program, or a codec of another runtime: whether it times that op). */
export function supports(op: OpSpec, target: Target): boolean {
  const timed = target.native ?? target.elsewhere?.ops;
  return timed ? timed.includes(op.id) : op.call(target) !== undefined;
}

/** What to build cases for. */
export interface CasePlan {
  readonly targets: readonly Target[];
  /** Raw targets, timed only on `overheadPayloads` (adapter overhead). */
  readonly rawTargets: readonly Target[];
  readonly payloads: readonly BenchPayload[];
  readonly ops: readonly OpSpec[];
  /** Payload names on which raw targets are timed. */
  readonly overheadPayloads: readonly string[];
  /** True when the user chose the ops (`--op`): then each runs on every payload. */
  readonly explicitOps?: boolean;
}

/**
 * The case list in run order: payload by payload, op by op, every codec in turn, each
 * raw target right after its adapter so the overhead pair sees the same machine state.
 */
export function buildCases(plan: CasePlan): BenchCase[] {
  const cases: BenchCase[] = [];
  for (const payload of plan.payloads) {
    const withRaw = plan.overheadPayloads.includes(payload.name);
    for (const op of plan.ops) {
      const byDefault = op.defaultFor ? op.defaultFor(payload) : payload.kind !== "response";
      if (!plan.explicitOps && !byDefault) continue;
      for (const target of plan.targets) {
        if (!supports(op, target)) continue;
        cases.push({ target, payload, op });
        const raw = withRaw && plan.rawTargets.find((r) => r.codec === target.codec);
        if (raw && supports(op, raw)) cases.push({ target: raw, payload, op });
      }
    }
  }
  return cases;
}

/**
 * The payloads adapter overhead is measured on: the one with the smallest items and the
 * one with the largest (by mean item size), so fixed per-call costs and per-byte costs
 * both show.
 */
export function pickOverheadPayloads(payloads: readonly BenchPayload[]): string[] {
  if (payloads.length === 0) return [];
  const mean = (p: BenchPayload) => p.bytes / Math.max(1, p.items.length);
  const sorted = [...payloads].sort((a, b) => mean(a) - mean(b));
  const small = sorted[0]!.name;
  const large = sorted[sorted.length - 1]!.name;
  return small === large ? [small] : [small, large];
}
