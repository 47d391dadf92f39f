// The part that runs inside Bun, Deno or the browser page: load one adapter and run every
// conformance check on its codec and on each of its variants. Only portable code here (no
// Node APIs), since the browser bundle includes it.
import {
  type Check,
  codecsOf,
  conformanceChecks,
  loadModule,
  onEveryCodec,
  type PayloadSet,
  sameBytes,
  snappyErrorOf,
} from "@snappykit/conformance/cases";
import type { AdapterModule, RawModule, SnappyCodec } from "@snappykit/core";

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

/** What a suite runs: codecs, the checks to run on each, and what to report as its library. */
interface Suite {
  readonly codecs: readonly SnappyCodec[];
  readonly checks: readonly Check[];
  readonly library: string;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Load a suite; if that fails (import or codec creation) the adapter "cannot load", with
 * the reason. Otherwise run every check, all of them even after one fails, so the report
 * lists each failure.
 */
async function run(id: string, load: () => Promise<Suite>): Promise<AdapterResult> {
  let suite: Suite;
  try {
    suite = await load();
  } catch (error) {
    return { id, status: "cannot load", reason: message(error) };
  }
  const failures: string[] = [];
  for (const check of suite.checks) {
    try {
      await onEveryCodec(check, suite.codecs);
    } catch (error) {
      failures.push(`${check.group} › ${check.name}: ${message(error)}`);
    }
  }
  const status = failures.length ? "fail" : "pass";
  return { id, status, library: suite.library, checks: suite.checks.length, failures };
}

type Framing = typeof import("@snappykit/framing");
type P2p = typeof import("@snappykit/p2p");
/** A package's checks over the ts codec, on fixture items up to 1 MB; `detail` joins its name. */
type PackageChecks = (
  module: never,
  items: readonly Uint8Array[],
  check: (name: string, fn: Check["run"]) => Check,
) => Promise<{ readonly checks: readonly Check[]; readonly detail?: string }>;

const MESSAGE_ID_TOPIC = "/eth2/4a26c58b/beacon_attestation_0/ssz_snappy";
// SHA-256 of the spec's preimage for bytes 0..143 on that topic, by Python's hashlib.
const MESSAGE_ID = "7db1e7c7e661334a428b5f2de86b528fa5dc96f1";

/**
 * The targets that are not adapters, each over the `@snappykit/ts` codec: a few checks
 * instead of the conformance suite, to prove they load and work in the runtime. p2p: its
 * gossip transform, message ids (SHA-256 by @noble/hashes, xxhash64 by xxhash-wasm),
 * ssz_snappy and req/resp codecs.
 */
const PACKAGE_CHECKS: Record<string, PackageChecks> = {
  "@snappykit/framing": async (framing: Framing, items, check) => ({
    detail: `, CRC-32C ${framing.crc32cImplementation}`,
    checks: [
      check("CRC-32C check value", () => {
        if (framing.crc32c(new TextEncoder().encode("123456789")) !== 0xe3069283) {
          throw new Error(`${framing.crc32cImplementation} CRC-32C gives the wrong check value`);
        }
      }),
      check(`framed round trip of ${items.length} fixture items`, (c) => {
        for (const item of items) {
          sameBytes(framing.decodeFramed(c, framing.encodeFramed(c, item)), item, "framed");
        }
      }),
      check("a corrupted checksum is CHECKSUM_MISMATCH", (c) => {
        const framed = framing.encodeFramed(c, items[0]!);
        framed[framing.STREAM_IDENTIFIER.length + 4]! ^= 1;
        const { code } = snappyErrorOf(() => framing.decodeFramed(c, framed));
        if (code !== "CHECKSUM_MISMATCH") throw new Error(`code ${code}`);
      }),
    ],
  }),
  "@snappykit/p2p": async (p2p: P2p, items, check) => {
    const fast = await p2p.createFastMsgIdFn(1n);
    const bounds = { minSize: 0, maxSize: 10 * 1024 * 1024 };
    const hex = (bytes: Uint8Array) =>
      Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const checks = [
      check(`gossip round trip of ${items.length} fixture items, each its own buffer`, (c) => {
        const transform = new p2p.GossipTransform({ codec: c, bounds: () => bounds });
        for (const item of items) {
          const out = transform.inboundTransform("t", transform.outboundTransform("t", item));
          sameBytes(out, item, "ssz");
          if (out.byteOffset !== 0 || out.buffer.byteLength !== item.length) {
            throw new Error("an inbound result shares its buffer");
          }
        }
      }),
      check(`ssz_snappy round trip of ${items.length} fixture items`, (c) => {
        for (const item of items) {
          const exact = { minSize: item.length, maxSize: item.length };
          sameBytes(p2p.decodeSszSnappy(c, p2p.encodeSszSnappy(c, item), exact), item, "ssz");
        }
      }),
      check("the spec's message id", () => {
        const data = Uint8Array.from({ length: 144 }, (_, i) => i);
        const id = hex(p2p.gossipMessageId(MESSAGE_ID_TOPIC, data));
        if (id !== MESSAGE_ID) throw new Error(`message id ${id}, not ${MESSAGE_ID}`);
      }),
      check("a fast message id per topic", () => {
        const data = Uint8Array.of(1, 2, 3);
        if (fast({ topic: "a", data }) === fast({ topic: "b", data })) {
          throw new Error("the same fast id on two topics");
        }
      }),
      check(`a response of ${items.length} fixture items through decodeResponse`, async (c) => {
        const chunks = items.map((ssz) => ({ ssz }));
        const wire = p2p.encodeResponse(chunks, { codec: c });
        let i = 0;
        for await (const chunk of p2p.decodeResponse(wire, { codec: c, bounds })) {
          sameBytes(chunk.ssz, items[i++]!, "ssz");
        }
        if (i !== items.length) throw new Error(`${i} of ${items.length} chunks`);
      }),
    ];
    return { checks };
  },
};

/** Something to run in a runtime: an adapter, or framing or p2p over the ts codec. */
export interface Target {
  readonly id: string;
  /**
   * What to import: for an adapter, the module its package's `exports` map gives this
   * runtime (a file URL for Bun and Deno, a path for the browser bundler); for framing and
   * p2p, the package name.
   */
  readonly module: string;
  /** For an adapter, its `./raw` entry the same way (`createRaw()` must load too). */
  readonly raw?: string;
}

/** The targets that are not adapters, run after them. */
export const PACKAGES: readonly Target[] = Object.keys(PACKAGE_CHECKS).map((module) => ({
  id: module.slice("@snappykit/".length),
  module,
}));
const TS = "@snappykit/ts";

/** The modules `target` imports (the browser bundle needs each as a literal import). */
export const importsOf = (target: Target): string[] =>
  PACKAGE_CHECKS[target.module]
    ? [target.module, TS]
    : [target.module, ...(target.raw ? [target.raw] : [])];

/**
 * Run `target`, importing its modules with `importer` (`import()` where it is available): an
 * adapter's `createCodec()` codec and every `createVariants()` codec through the conformance
 * suite (the vitest suite's checks and fixture payloads), `createRaw()` loaded too.
 */
export function runTarget(
  target: Target,
  importer: (specifier: string) => Promise<unknown>,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  const packageChecks = PACKAGE_CHECKS[target.module];
  if (!packageChecks && !target.raw) throw new Error(`${target.id}: no ./raw entry to import`);
  return run(target.id, async () => {
    // One after the other, as a program would: the entry first, then ./raw or the ts codec.
    const [main, other] = importsOf(target) as [string, string];
    const first = (await importer(main)) as never;
    const second = (await importer(other)) as Partial<AdapterModule & RawModule>;
    if (!packageChecks) {
      const module = await loadModule(first, second);
      // The runtime too: where ts's WebAssembly kernel cannot compile it runs its TypeScript
      // loops ("js"), which pass the same checks, slower.
      const { library, runtime } = module.codec;
      const checks = conformanceChecks({ payloads });
      return { codecs: codecsOf(module), checks, library: `${library} (${runtime})` };
    }
    if (typeof second.createCodec !== "function") throw new Error("no createCodec in the ts codec");
    const codec = await second.createCodec();
    const items = payloads.flatMap((p) => p.items.filter((i) => i.length <= 1_000_000));
    const group = target.id;
    const check = (name: string, run: Check["run"]): Check => ({ group, name, run });
    const { checks, detail = "" } = await packageChecks(first, items, check);
    return { codecs: [codec], checks, library: `${target.module} over ${codec.library}${detail}` };
  });
}
