import type { SnappyCodec } from "@snappykit/core";
import { getGolden, loadPayloads } from "@snappykit/fixtures";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type ConformanceInputs, conformanceChecks, type PayloadSet } from "./checks.js";

/** What an adapter's test file passes to {@link runConformance}. */
export interface ConformanceOptions extends ConformanceInputs {
  /** Create the codec under test (called once, before the checks). */
  setup(): Promise<SnappyCodec> | SnappyCodec;
  /** Release whatever `setup` created. */
  teardown?(codec: SnappyCodec): Promise<void> | void;
  /**
   * Also round-trip every `@snappykit/fixtures` payload and decode its libsnappy golden
   * vectors (added to `payloads`).
   * @default true
   */
  fixtures?: boolean;
}

/** Every fixture payload with its golden vectors. */
export function fixturePayloads(): PayloadSet[] {
  return loadPayloads().map((p) => ({ name: p.name, items: p.items, golden: getGolden(p.name) }));
}

/**
 * Register the conformance suite with vitest. An adapter's whole conformance test:
 *
 * ```ts
 * import { runConformance } from "@snappykit/conformance";
 * import { createCodec } from "./index.js";
 * runConformance({ setup: createCodec });
 * ```
 */
export function runConformance(options: ConformanceOptions): void {
  describe("snappykit conformance", () => {
    let codec: SnappyCodec | undefined;
    beforeAll(async () => {
      codec = await options.setup();
    });
    afterAll(async () => {
      if (codec) await options.teardown?.(codec);
    });
    const groups = new Map<string, ReturnType<typeof conformanceChecks>>();
    const payloads = [
      ...(options.payloads ?? []),
      ...(options.fixtures === false ? [] : fixturePayloads()),
    ];
    for (const check of conformanceChecks({ ...options, payloads })) {
      const list = groups.get(check.group) ?? [];
      list.push(check);
      groups.set(check.group, list);
    }
    for (const [group, checks] of groups) {
      describe(group, () => {
        for (const check of checks) {
          it(check.name, async () => {
            if (!codec) throw new Error("setup() did not produce a codec");
            await check.run(codec);
          });
        }
      });
    }
  });
}
