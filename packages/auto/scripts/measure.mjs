#!/usr/bin/env node
// Times the codecs @snappykit/auto routes between, interleaved in the same rounds, so the
// data file has a real measurement behind it until the bench's size sweep replaces it.
//
//   nice -n 19 pnpm --filter @snappykit/auto run measure sweep [out.json]
//     @snappykit/ts vs @snappykit/napi on prefixes of the beacon-block and blob-sidecar
//     payloads (tiled past their end), 64 B to 4 MiB in powers of two. Writes the bench's
//     sweep shape ({ environment, points, crossover }) for scripts/thresholds.mjs.
//   nice -n 19 pnpm --filter @snappykit/auto run measure table [out.json] [--payloads a,b]
//       [--sizes a,b,...]
//     ts, napi and auto on every fixture payload (or the named ones, or prefixes of the given
//     sizes): auto's time as a ratio to the faster of ts and napi in the same round.
//
// Each round times one batch per codec (alternating which goes first) of enough calls to
// fill ~2 ms, with one event-loop turn between batches so snappy@7's buffer finalizers run
// outside the timed region. Time is the process's CPU time (user + system, so page faults
// count), not wall time: on a shared 2-core machine at `nice -n 19` a batch is preempted
// more often than not, and wall time then measures the neighbours. (Tried and dropped: a
// forced gc() before each batch, and V8's --single-threaded. Both made the figures far
// noisier: freed pages are faulted in again as system time by the next batch.) Figures are the median over rounds with a distribution-free
// 95 % interval (order statistics of the binomial), ratios likewise over per-round ratios.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import { setImmediate as turn } from "node:timers/promises";
import { getPayload, loadPayloads } from "@snappykit/fixtures";
import { createCodec as createNapi } from "@snappykit/napi";
import { createCodec as createTs } from "@snappykit/ts";
import { binomialDistribution } from "simple-statistics";

const argv = process.argv.slice(2);
const args = [...argv];
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const rounds = Number(flag("--rounds") ?? 15);
const sizesFlag = flag("--sizes");
const payloadsFlag = flag("--payloads");
const [mode = "sweep", out] = args;
const BATCH_NS = 2e6;
const LEVEL = 0.95;

/** Median and a distribution-free interval of it: order statistics chosen by Bin(n, 1/2). */
function medianWithInterval(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const pmf = binomialDistribution(n, 0.5);
  let below = 0;
  let j = 0; // how many order statistics to drop on each side
  while (j < n / 2 && below + (pmf[j] ?? 0) <= (1 - LEVEL) / 2) below += pmf[j++] ?? 0;
  const mid = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return { p50: mid, ci: { low: sorted[j], high: sorted[n - 1 - j], level: LEVEL } };
}

/** JSON with one point or row per line: small diffs, still readable. */
function serialize(result) {
  const fields = Object.entries(result).map(([key, value]) =>
    Array.isArray(value)
      ? `  ${JSON.stringify(key)}: [\n${value.map((v) => `    ${JSON.stringify(v)}`).join(",\n")}\n  ]`
      : `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${fields.join(",\n")}\n}\n`;
}

/** `size` bytes of `bytes` repeated: prefixes past the payload's end keep its content. */
function tile(bytes, size) {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += bytes.length) out.set(bytes.subarray(0, size - at), at);
  return out;
}

/** Calls per batch so one batch takes ~BATCH_NS (of wall time: only a batch size). */
function calibrate(fn) {
  let calls = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fn();
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns >= BATCH_NS / 4 || calls >= 1 << 20)
      return Math.max(1, Math.round((calls * BATCH_NS) / ns));
    calls *= 4;
  }
}

/**
 * Time `fns` (name → function doing one op) interleaved over `rounds`; returns per-round
 * nanoseconds per call for each name.
 */
async function timeInterleaved(fns) {
  const names = Object.keys(fns);
  const calls = {};
  for (const name of names) {
    // Warm up for ~20 ms: optimized code before the first timed batch.
    const until = process.hrtime.bigint() + 20_000_000n;
    do fns[name]();
    while (process.hrtime.bigint() < until);
    calls[name] = calibrate(fns[name]);
  }
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const name of order) {
      await turn();
      const fn = fns[name];
      const k = calls[name];
      const t0 = process.cpuUsage();
      for (let i = 0; i < k; i++) fn();
      const { user, system } = process.cpuUsage(t0);
      samples[name].push(((user + system) * 1e3) / k);
    }
  }
  return samples;
}

function environment(command) {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim();
    if (dirty) commit += "+dirty";
  } catch {
    // not a git checkout: leave "unknown"
  }
  const cpus = os.cpus();
  return {
    commit,
    node: process.version,
    machine: `${cpus[0]?.model ?? "unknown cpu"} ×${cpus.length}, ${os.platform()} ${os.arch()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    date: new Date().toISOString(),
    command,
    rounds,
    batchNs: BATCH_NS,
  };
}

// Taken before the run, so edits made while it runs do not mark it dirty.
const env = environment(`nice -n 19 pnpm --filter @snappykit/auto run measure ${argv.join(" ")}`);
const ts = await createTs();
const napi = await createNapi();

/** One op over a list of items, as the bench counts a payload: every item once. */
const opOver = (codec, op, items) =>
  op === "compress"
    ? () => {
        for (const item of items) codec.compress(item);
      }
    : () => {
        for (const item of items) codec.uncompress(item);
      };

if (mode === "sweep") {
  const sizes = sizesFlag
    ? sizesFlag.split(",").map(Number)
    : Array.from({ length: 17 }, (_, i) => 64 * 2 ** i);
  const payloads = ["beacon-block", "blob-sidecar"].map((name) => getPayload(name));
  const points = [];
  const ratios = { compress: new Map(), uncompress: new Map() };
  for (const size of sizes) {
    for (const payload of payloads) {
      const input = tile(payload.items[0], size);
      const stream = ts.compress(input);
      for (const op of ["compress", "uncompress"]) {
        const items = [op === "compress" ? input : stream];
        const samples = await timeInterleaved({
          ts: opOver(ts, op, items),
          napi: opOver(napi, op, items),
        });
        for (const codec of ["ts", "napi"]) {
          const { p50, ci } = medianWithInterval(samples[codec]);
          points.push({
            codec,
            op,
            size,
            payload: payload.name,
            p50,
            ci,
            mbps: size / 1e6 / (p50 / 1e9),
          });
        }
        const perRound = samples.napi.map((t, r) => t / samples.ts[r]);
        const list = ratios[op].get(size) ?? [];
        list.push(...perRound);
        ratios[op].set(size, list);
        const { p50 } = medianWithInterval(perRound);
        console.error(`${op} ${payload.name} ${size} B: napi/ts ${p50.toFixed(3)}`);
      }
    }
  }
  const crossover = ["compress", "uncompress"].map((op) => ({
    op,
    codecs: ["ts", "napi"],
    ...crossing([...ratios[op]].map(([size, r]) => ({ size, ...medianWithInterval(r) }))),
  }));
  const result = {
    environment: env,
    points,
    crossover,
  };
  const json = serialize(result);
  if (out) writeFileSync(out, json);
  else process.stdout.write(json);
} else if (mode === "table") {
  // Imported here so the sweep runs before this package is built.
  const { createCodec: createAuto } = await import("../dist/index.js");
  const auto = await createAuto();
  console.error(JSON.stringify(auto.describe()));
  const sets = sizesFlag
    ? sizesFlag.split(",").flatMap((s) =>
        ["beacon-block", "blob-sidecar"].map((name) => ({
          name: `${name} prefix ${s} B`,
          items: [tile(getPayload(name).items[0], Number(s))],
        })),
      )
    : loadPayloads(payloadsFlag ? { names: payloadsFlag.split(",") } : undefined).map((p) => ({
        name: p.name,
        items: p.items,
      }));
  const rows = [];
  for (const set of sets) {
    for (const op of ["compress", "uncompress"]) {
      const items = op === "compress" ? set.items : set.items.map((x) => ts.compress(x));
      const samples = await timeInterleaved({
        ts: opOver(ts, op, items),
        napi: opOver(napi, op, items),
        auto: opOver(auto, op, items),
      });
      const perRound = samples.auto.map((t, r) => t / Math.min(samples.ts[r], samples.napi[r]));
      const row = {
        payload: set.name,
        op,
        ts: medianWithInterval(samples.ts),
        napi: medianWithInterval(samples.napi),
        auto: medianWithInterval(samples.auto),
        ratio: medianWithInterval(perRound),
      };
      rows.push(row);
      const us = (x) => (x.p50 / 1e3).toFixed(2);
      console.error(
        `| ${set.name} | ${op} | ${us(row.ts)} | ${us(row.napi)} | ${us(row.auto)} | ${row.ratio.p50.toFixed(3)} [${row.ratio.ci.low.toFixed(3)}, ${row.ratio.ci.high.toFixed(3)}] |`,
      );
    }
  }
  const json = serialize({ environment: env, rows });
  if (out) writeFileSync(out, json);
  else process.stdout.write(json);
} else {
  console.error(`unknown mode ${mode}: use sweep or table`);
  process.exit(2);
}

/**
 * Where napi/ts crosses 1 for good: the ratio is interpolated on log(size) between the last
 * size where ts was faster and the first from which napi stays faster; the interval is
 * where the ratio's interval bounds cross 1. `size: null` when no crossing is in range.
 */
function crossing(bySize) {
  bySize.sort((a, b) => a.size - b.size);
  let first = bySize.length;
  while (first > 0 && bySize[first - 1].p50 < 1) first--;
  if (first === 0 || first === bySize.length) return { size: null, ci: null };
  const a = bySize[first - 1];
  const b = bySize[first];
  const at = (ra, rb) => {
    if (ra === rb) return ra < 1 ? a.size : b.size;
    const t = Math.min(1, Math.max(0, Math.log(ra) / (Math.log(ra) - Math.log(rb))));
    return Math.round(a.size * (b.size / a.size) ** t);
  };
  return {
    size: at(a.p50, b.p50),
    ci: { low: at(a.ci.low, b.ci.low), high: at(a.ci.high, b.ci.high), level: LEVEL },
  };
}
