import type { PayloadSet } from "@snappykit/conformance/cases";
import { getGolden, loadPayloads } from "@snappykit/fixtures";

/** Every fixture payload with its libsnappy golden vectors, as the vitest suite uses them. */
export function fixturePayloads(): PayloadSet[] {
  return loadPayloads().map((p) => ({ name: p.name, items: p.items, golden: getGolden(p.name) }));
}
