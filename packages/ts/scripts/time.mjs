// Local timing: @snappykit/ts (dist) against snappy@7 (napi) and, on request, snappyjs,
// @stablelib/snappy, hysnappy or another build of this package, on the fixtures. Not the
// project bench (apps/bench); a quick same-process A/B loop for optimising this codec.
//
// Usage: node scripts/time.mjs [payload ...] [--codecs=ts,napi] [--batches=25] [--cpu]
//          [--before=<dir with dist/ and package.json>] [--per=napi] [--ops=compress,uncompress]
//          [--files=<dir>]
// Codecs: ts, napi, napi-copy (snappy@7 through @snappykit/napi: the bench's napi row),
// ts-into (compressInto/uncompressInto into one reused array), before and before-into (the
// build in --before), snappyjs, stablelib, hysnappy.
//
// The codecs run interleaved: batch k of every codec runs before batch k+1 of any, so a
// disturbance on a shared machine hits all of them alike. Each batch is ~8 MiB of output or
// 20,000 ops; batches are separated by one event-loop turn (snappy@7 frees its buffers from
// finalizers; see docs/backends.md). Each cell prints the p50 µs per op (one op = every item of the
// payload) and the interquartile range of the batches; the ratio columns are per-batch
// ratios to napi (or to the codec --per names, e.g. --per=before-into for an A/B of two
// builds), p50 [q1–q3].
// --cpu times batches by process CPU time instead of wall time.
// --files=<dir> times every file in <dir> (one item each) instead of fixtures, e.g. the
// standard corpus that scripts/corpus.sh fetches.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadPayloads } from "@snappykit/fixtures";
import * as ts from "../dist/index.js";

const require = createRequire(import.meta.url);
const napi = require("snappy");

const args = process.argv.slice(2);
const opt = (k, d) => args.find((a) => a.startsWith(`--${k}=`))?.split("=")[1] ?? d;
const names = args.filter((a) => !a.startsWith("--"));
const batches = Number(opt("batches", 25));
const cpu = args.includes("--cpu");
const beforeDir = opt("before", "");
const per = opt("per", "napi");
const filesDir = opt("files", "");

/** Codec name → { compress(b), uncompress(b, n, out) } plus optional setup. */
const codecs = {
  ts: { compress: ts.compress, uncompress: (b) => ts.uncompress(b) },
  napi: {
    compress: (b) => napi.compressSync(b),
    uncompress: (b) => napi.uncompressSync(b, { asBuffer: true }),
  },
};
// snappy@7 through its adapter, @snappykit/napi (the bench's napi row): output copied into
// memory V8 owns (decoded output up to 256 KiB), so no finalizer frees it.
const napiAdapter = await (await import("../../napi/dist/index.js")).createCodec();
codecs["napi-copy"] = {
  compress: (b) => napiAdapter.compress(b),
  uncompress: (b) => napiAdapter.uncompress(b),
};
/** The caller-owned-buffer path of a build, when it has one: one output array, reused. */
function intoCodec(m) {
  const cOut = new Uint8Array(m.maxCompressedLength(4 << 20));
  const uOut = new Uint8Array(4 << 20);
  return {
    compress: (b) => m.compressInto(b, cOut),
    uncompress: (b) => m.uncompressInto(b, uOut),
  };
}
if (ts.compressInto) codecs["ts-into"] = intoCodec(ts);
if (beforeDir) {
  const before = await import(pathToFileURL(resolve(beforeDir, "dist/index.js")).href);
  codecs.before = { compress: before.compress, uncompress: (b) => before.uncompress(b) };
  if (before.compressInto) codecs["before-into"] = intoCodec(before);
}
const others = {
  snappyjs: async () => {
    const m = require("../../snappyjs/node_modules/snappyjs");
    return { compress: (b) => m.compress(b), uncompress: (b) => m.uncompress(b) };
  },
  stablelib: async () => {
    const m = require("../../stablelib/node_modules/@stablelib/snappy");
    return { compress: (b) => m.compress(b), uncompress: (b) => m.decompress(b) };
  },
  hysnappy: async () => {
    const m = await import("../../hysnappy/node_modules/hysnappy/js/index.js");
    const c = m.snappyCompressor();
    const u = m.snappyUncompressor();
    // hysnappy needs the length from the caller; the fixture knows it (no validation here).
    return { compress: (b) => c(b), uncompress: (b, n) => u(b, n) };
  },
};
const selected = opt("codecs", `ts,napi${beforeDir ? ",before" : ""}`).split(",");
for (const name of selected) {
  if (!codecs[name]) {
    if (!others[name]) throw new Error(`unknown codec ${name}`);
    codecs[name] = await others[name]();
  }
}

const tick = () => new Promise((r) => setImmediate(r));
const now = cpu
  ? () => {
      const c = process.cpuUsage();
      return (c.user + c.system) / 1000;
    }
  : () => performance.now();

const quantile = (sorted, q) => {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  return sorted[lo] + (sorted[Math.ceil(i)] - sorted[lo]) * (i - lo);
};
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: quantile(s, 0.5), q1: quantile(s, 0.25), q3: quantile(s, 0.75) };
};

/** Times `fns` (name → op) interleaved; returns name → µs per op of every batch. */
async function timeInterleaved(fns, outBytes) {
  const perBatch = Math.max(2, Math.min(20000, Math.floor((8 << 20) / Math.max(1, outBytes))));
  const samples = {};
  for (const [name, fn] of Object.entries(fns)) {
    samples[name] = [];
    for (let i = 0; i < perBatch * 3; i++) fn(); // warm up
  }
  await tick();
  const order = Object.keys(fns);
  for (let k = 0; k < batches; k++) {
    for (let j = 0; j < order.length; j++) {
      const name = order[(j + k) % order.length]; // rotate who goes first
      const fn = fns[name];
      const t0 = now();
      for (let i = 0; i < perBatch; i++) fn();
      samples[name].push(((now() - t0) * 1000) / perBatch);
      await tick();
    }
  }
  return samples;
}

const fmt = (x) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
const cell = ({ p50, q1, q3 }) => `${fmt(p50)} [${fmt(q1)}–${fmt(q3)}]`;
console.log(
  `node ${process.version}; µs per op, p50 [q1–q3] of ${batches} interleaved batches (${cpu ? "CPU" : "wall"} time); ratios are per-batch ÷ ${per}`,
);
const payloads = filesDir
  ? readdirSync(filesDir)
      .filter((name) => names.length === 0 || names.includes(name))
      .sort()
      .map((name) => {
        const bytes = new Uint8Array(readFileSync(join(filesDir, name)));
        return { name, items: [bytes], bytes: bytes.length };
      })
  : loadPayloads(names.length > 0 ? { names } : undefined);
for (const p of payloads) {
  const items = p.items;
  const reference = items.map((b) => napi.compressSync(b));
  const refU8 = reference.map((b) => new Uint8Array(b));
  for (const op of opt("ops", "compress,uncompress").split(",")) {
    const fns = {};
    for (const name of selected) {
      const c = codecs[name];
      fns[name] =
        op === "compress"
          ? () => {
              for (let i = 0; i < items.length; i++) c.compress(items[i]);
            }
          : () => {
              const input = name === "napi" ? reference : refU8;
              for (let i = 0; i < input.length; i++) c.uncompress(input[i], items[i].length);
            };
    }
    const samples = await timeInterleaved(fns, p.bytes);
    const parts = selected.map((name) => `${name} ${cell(summary(samples[name]))}`);
    if (samples[per]) {
      for (const name of selected.filter((n) => n !== per)) {
        const ratios = samples[name].map((t, k) => t / samples[per][k]);
        parts.push(`${name}÷${per} ${cell(summary(ratios))}`);
      }
    }
    console.log(`${p.name} (${p.bytes} B) ${op}: ${parts.join("  ")}`);
  }
}
