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

/**
 * The conformance suite (the vitest suite's checks and fixture payloads) on one adapter's
 * `createCodec()` codec and every `createVariants()` codec; `createRaw()` must load too.
 */
function runAdapter(
  id: string,
  load: () => Promise<[Partial<AdapterModule>, Partial<RawModule>]>,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  return run(id, async () => {
    const module = await loadModule(...(await load()));
    const checks = conformanceChecks({ payloads });
    // The runtime too: where ts's WebAssembly kernel cannot compile it runs its TypeScript
    // loops ("js"), which pass the same checks, slower.
    const { library, runtime } = module.codec;
    return { codecs: codecsOf(module), checks, library: `${library} (${runtime})` };
  });
}

type Framing = typeof import("@snappykit/framing");

/** What a package's checks run on: the ts codec, the fixture items up to 1 MB, a check maker. */
async function packageSetup(
  group: string,
  ts: Partial<AdapterModule>,
  payloads: readonly PayloadSet[],
) {
  if (typeof ts.createCodec !== "function") throw new Error("no createCodec in the ts codec");
  const codec = await ts.createCodec();
  const items = payloads.flatMap((p) => p.items.filter((i) => i.length <= 1_000_000));
  const check = (name: string, fn: (c: SnappyCodec) => void | Promise<void>): Check => ({
    group,
    name,
    run: fn,
  });
  return { codec, items, check };
}

/**
 * `@snappykit/framing` over the `@snappykit/ts` codec: not an adapter, so a few round
 * trips instead of the conformance suite, to prove it loads and works in the runtime.
 */
function runFraming(
  load: () => Promise<[Framing, Partial<AdapterModule>]>,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  return run("framing", async () => {
    const [framing, ts] = await load();
    const { codec, items, check } = await packageSetup("framing", ts, payloads);
    const checks = [
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
    ];
    const library = `@snappykit/framing over ${codec.library}, CRC-32C ${framing.crc32cImplementation}`;
    return { codecs: [codec], checks, library };
  });
}

type P2p = typeof import("@snappykit/p2p");

const MESSAGE_ID_TOPIC = "/eth2/4a26c58b/beacon_attestation_0/ssz_snappy";
// SHA-256 of the spec's preimage for bytes 0..143 on that topic, by Python's hashlib.
const MESSAGE_ID = "7db1e7c7e661334a428b5f2de86b528fa5dc96f1";

/**
 * `@snappykit/p2p` over the `@snappykit/ts` codec: its gossip transform, message ids (SHA-256
 * by @noble/hashes, xxhash64 by xxhash-wasm), ssz_snappy and req/resp codecs, to prove they
 * run there.
 */
function runP2p(
  load: () => Promise<[P2p, Partial<AdapterModule>]>,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  return run("p2p", async () => {
    const [p2p, ts] = await load();
    const { codec, items, check } = await packageSetup("p2p", ts, payloads);
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
    return { codecs: [codec], checks, library: `@snappykit/p2p over ${codec.library}` };
  });
}

/** Something to run in a runtime: an adapter, or the framing package over the ts codec. */
export interface Target {
  readonly id: string;
  /**
   * What to import: for an adapter, the module its package's `exports` map gives this
   * runtime (a file URL for Bun and Deno, a path for the browser bundler); for framing,
   * the package name.
   */
  readonly module: string;
  /** For an adapter, its `./raw` entry the same way (`createRaw()` must load too). */
  readonly raw?: string;
}

/** The framing target, run after the adapters. */
export const FRAMING: Target = { id: "framing", module: "@snappykit/framing" };
/** The p2p target, run after framing. */
export const P2P: Target = { id: "p2p", module: "@snappykit/p2p" };
/** The targets that are not adapters. */
export const PACKAGES: readonly Target[] = [FRAMING, P2P];
const TS = "@snappykit/ts";

/** The modules `target` imports (the browser bundle needs each as a literal import). */
export const importsOf = (target: Target): string[] =>
  PACKAGES.some((p) => p.id === target.id)
    ? [target.module, TS]
    : [target.module, ...(target.raw ? [target.raw] : [])];

/** Run `target`, importing its modules with `importer` (`import()` where it is available). */
export function runTarget(
  target: Target,
  importer: (specifier: string) => Promise<unknown>,
  payloads: readonly PayloadSet[],
): Promise<AdapterResult> {
  const load = (specifier: string) => importer(specifier) as Promise<Partial<AdapterModule>>;
  if (target.id === FRAMING.id) {
    return runFraming(
      async () => [(await importer(target.module)) as Framing, await load(TS)],
      payloads,
    );
  }
  if (target.id === P2P.id) {
    return runP2p(async () => [(await importer(target.module)) as P2p, await load(TS)], payloads);
  }
  const raw = target.raw;
  if (!raw) throw new Error(`${target.id}: no ./raw entry to import`);
  return runAdapter(
    target.id,
    async () => [await load(target.module), (await importer(raw)) as Partial<RawModule>],
    payloads,
  );
}
