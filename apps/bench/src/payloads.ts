// The bench's view of a payload, and the one place that talks to @snappykit/fixtures.

/** What a payload's bytes model: a gossip message, a req/resp response, or synthetic data. */
export type PayloadKind = "gossip" | "reqresp" | "synthetic";

/**
 * A named set of byte strings; one benchmark op processes every item of it. Structurally
 * the same as `@snappykit/fixtures`' payload, so tests can build their own.
 */
export interface BenchPayload {
  readonly name: string;
  readonly description: string;
  readonly kind: PayloadKind;
  readonly items: readonly Uint8Array[];
  /** Sum of the items' lengths. */
  readonly bytes: number;
}

/** Make a {@link BenchPayload} from items, computing `bytes`. */
export function makePayload(
  name: string,
  description: string,
  kind: PayloadKind,
  items: readonly Uint8Array[],
): BenchPayload {
  return { name, description, kind, items, bytes: items.reduce((n, item) => n + item.length, 0) };
}

/** Mean item size: what decides whether a payload counts as "small" or "large". */
export function meanItemBytes(payload: BenchPayload): number {
  return payload.items.length === 0 ? 0 : payload.bytes / payload.items.length;
}

/** Where the run's payloads came from, and which of them a plain run uses. */
export interface PayloadSource {
  readonly all: readonly BenchPayload[];
  /** Names a run without --payload uses. */
  readonly defaults: readonly string[];
  /** Set when the fixtures could not be used and what was used instead. */
  readonly note?: string;
}

/**
 * The default set when the fixtures are available: one of each message class the bench
 * must answer for (see README "Payloads"), chosen so ~9 codecs fit in 5 minutes.
 */
export const DEFAULT_PAYLOADS: readonly string[] = [];

// A variable specifier: the fixtures package is written alongside this one, and its
// types are not needed to read its payloads.
const FIXTURES: string = "@snappykit/fixtures";

interface FixturesModule {
  loadPayloads(filter?: unknown): BenchPayload[] | Promise<BenchPayload[]>;
}

/** Load every fixture payload; fall back to built-in synthetic ones, saying so. */
export async function loadPayloadSource(): Promise<PayloadSource> {
  try {
    const mod = (await import(FIXTURES)) as Partial<FixturesModule>;
    if (typeof mod.loadPayloads !== "function") throw new Error("no loadPayloads export");
    const all = await mod.loadPayloads();
    const names = all.map((p) => p.name);
    const defaults = DEFAULT_PAYLOADS.filter((n) => names.includes(n));
    return { all, defaults: defaults.length > 0 ? defaults : names };
  } catch (error) {
    const { syntheticPayloads } = await import("./synthetic.js");
    const all = syntheticPayloads();
    return {
      all,
      defaults: all.map((p) => p.name),
      note: `@snappykit/fixtures unavailable (${(error as Error).message.split("\n")[0]}); built-in synthetic payloads used`,
    };
  }
}
