// Where payloads come from: @snappykit/fixtures (the only place that talks to it) and the
// user's own files (`--data`). Every mode takes its payloads from the run's PayloadSource.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { loadPayloads } from "@snappykit/fixtures";
import { formatBytes } from "@snappykit/workspace/format";
import type { BenchPayload, PayloadKind } from "../model/case.js";
import { UsageError } from "./args.js";

/** Make a {@link BenchPayload} from items, computing `bytes`. */
export function makePayload(
  name: string,
  description: string,
  kind: PayloadKind,
  items: readonly Uint8Array[],
): BenchPayload {
  return { name, description, kind, items, bytes: items.reduce((n, item) => n + item.length, 0) };
}

/** The payloads a run can name and which of them a plain run uses. */
export interface PayloadSource {
  readonly all: readonly BenchPayload[];
  /** Names a run without --payload uses. */
  readonly defaults: readonly string[];
  /** `--data`'s payloads, timed instead of the default set (and beside any `--payload`). */
  readonly user?: readonly BenchPayload[];
}

/** The largest item `--data` takes: the contract's default `maxLength` for uncompress. */
export const MAX_ITEM_BYTES = 256 * 2 ** 20;
/** The most `--data` reads in all. */
export const MAX_DATA_BYTES = 2 ** 30;

/** Every regular file under `dir` (not hidden ones), by path relative to it, sorted. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((rel) => !rel.split(/[/\\]/).some((part) => part.startsWith(".")))
    .filter((rel) => statSync(join(dir, rel)).isFile())
    .sort();
}

/**
 * `--data`: each path one payload named by its file or folder name. A file is one item; a
 * folder is one payload of many items, each file under it (hidden ones and empty files left
 * out), e.g. a capture of gossip messages; described by the path as given (a committed
 * report then names no folder of the machine it ran on). Read before anything else of the run.
 * @throws UsageError for a missing, unreadable or empty path, a path that is neither file
 *   nor folder, an item over {@link MAX_ITEM_BYTES}, over {@link MAX_DATA_BYTES} in all, or
 *   two paths with one name.
 */
export function readUserPayloads(paths: readonly string[]): BenchPayload[] {
  const payloads: BenchPayload[] = [];
  let total = 0;
  for (const given of paths) {
    const path = resolve(given);
    const name = basename(path);
    const fail = (why: string): never => {
      throw new UsageError(`--data ${given}: ${why}`);
    };
    let items: Uint8Array[];
    let description: string;
    try {
      const stat = statSync(path);
      if (stat.isFile()) {
        items = [new Uint8Array(readFileSync(path))];
        description = `your file ${given}`;
      } else if (stat.isDirectory()) {
        const files = filesUnder(path);
        const read = files.map((f) => new Uint8Array(readFileSync(join(path, f))));
        items = read.filter((item) => item.length > 0);
        const empty = read.length - items.length;
        if (items.length === 0)
          fail(files.length === 0 ? "the folder holds no file" : "every file in it is empty");
        description = `your ${items.length} files under ${given}${empty > 0 ? ` (${empty} empty ones left out)` : ""}`;
      } else {
        return fail("neither a file nor a folder");
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      return fail(
        code === "ENOENT"
          ? "no such file or folder"
          : code === "EACCES" || code === "EPERM"
            ? "not readable (permission denied)"
            : (error as Error).message,
      );
    }
    if (items.length === 1 && items[0]!.length === 0) fail("the file is empty");
    const big = items.find((item) => item.length > MAX_ITEM_BYTES);
    if (big)
      fail(
        `an item of ${formatBytes(big.length)} is over the ${formatBytes(MAX_ITEM_BYTES)} a codec decodes by default`,
      );
    total += items.reduce((n, item) => n + item.length, 0);
    if (total > MAX_DATA_BYTES) fail(`over ${formatBytes(MAX_DATA_BYTES)} of data in all`);
    if (payloads.some((p) => p.name === name)) fail(`another --data path is also named "${name}"`);
    payloads.push(makePayload(name, description, "user", items));
  }
  return payloads;
}

/**
 * The default set: one payload per question a client team asks, chosen so ~11 codec rows
 * fit in 5 minutes on 2 cores. `--payload all` runs every fixture.
 *
 * - `single-attestation`: the most frequent gossip message (~240 B): per-call overhead.
 * - `data-column-sidecar`: the post-fulu hot path (~19 KiB, mostly incompressible blobs).
 * - `beacon-block`: a block on gossip (~72 KiB, compresses ~1.6×).
 * - `blob-sidecar`: a full blob (~129 KiB, nearly incompressible).
 * - `blocks-by-range`: a req/resp response of 32 blocks (~2.3 MiB): bulk throughput.
 */
export const DEFAULT_PAYLOADS: readonly string[] = [
  "single-attestation",
  "data-column-sidecar",
  "beacon-block",
  "blob-sidecar",
  "blocks-by-range",
];

/**
 * Every fixture payload, and the default set (those of {@link DEFAULT_PAYLOADS} that
 * exist; every payload if none does, so a renamed fixture cannot silently empty a run).
 */
export function loadPayloadSource(user: readonly BenchPayload[] = []): PayloadSource {
  const all = loadPayloads();
  const names = all.map((p) => p.name);
  const clash = user.find((p) => names.includes(p.name));
  if (clash) {
    throw new UsageError(`--data: "${clash.name}" is the name of a fixture payload; rename it`);
  }
  const defaults = DEFAULT_PAYLOADS.filter((n) => names.includes(n));
  return {
    all,
    defaults: defaults.length > 0 ? defaults : names,
    ...(user.length > 0 && { user }),
  };
}
