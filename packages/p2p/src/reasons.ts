// The reasons of the consensus spec's req/resp layer: @snappykit/core keeps the reasons of
// Snappy's formats, this package adds those of `ssz_snappy` and response chunks (the README's
// table, checked against this one by reasons.test.ts).
import { defineReasons } from "@snappykit/core";

export const P2P_REASONS = defineReasons({
  // ssz_snappy (phase0/p2p-interface.md, "Encoding strategies").
  "prefix-overlong": { code: "CORRUPT_INPUT", fault: "peer", fields: ["limit"] },
  "non-minimal-prefix": { code: "CORRUPT_INPUT", fault: "peer", fields: ["length"] },
  "read-budget-exceeded": {
    code: "CORRUPT_INPUT",
    fault: "peer",
    fields: ["at", "declared", "limit"],
    optional: ["length", "produced"],
  },
  "trailing-bytes": { code: "CORRUPT_INPUT", fault: "peer", fields: [], optional: ["length"] },
  // Response chunks (phase0/p2p-interface.md, "The Req/Resp domain").
  "bad-result-code": { code: "CORRUPT_INPUT", fault: "peer", fields: ["at", "actual"] },
  "unknown-context-bytes": { code: "CORRUPT_INPUT", fault: "peer", fields: ["at"] },
  "too-many-chunks": { code: "LENGTH_LIMIT", fault: "peer", fields: ["at", "limit"] },
});

type P2pReasons = typeof P2P_REASONS;

declare module "@snappykit/core" {
  interface SnappyErrorReasons extends P2pReasons {}
}
