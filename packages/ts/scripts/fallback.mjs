// The fallback's speed against the kernel's: plain.ts (what runs where WebAssembly does not
// compile) and the kernel's path (compressInto/uncompressInto), in the same process, in
// interleaved rounds, on fixture payloads. Prints per payload and op the median of the
// per-round time ratios plain ÷ kernel, with their interquartile range.
//
// Usage: node scripts/fallback.mjs [payload ...] [--rounds=15]   (after `pnpm build`)
import { maxCompressedLength } from "@snappykit/core";
import { loadPayloads } from "@snappykit/fixtures";
import { compressInto, uncompressedLength, uncompressInto } from "../dist/index.js";
import { compressPlain, decodePlain } from "../dist/plain.js";

const args = process.argv.slice(2);
const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? 15);
const names = args.filter((a) => !a.startsWith("--"));
const payloads = loadPayloads({
  names: names.length > 0 ? names : ["sync-committee-message", "attestation", "beacon-block"],
});

/** Median and quartiles of `values`. */
function quartiles(values) {
  const s = [...values].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `${at(0.5).toFixed(2)} [${at(0.25).toFixed(2)}–${at(0.75).toFixed(2)}]`;
}

/** CPU seconds per call of `f` (on a shared machine wall time mostly measures the others). */
function time(f, calls) {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) f();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1e6 / calls;
}

for (const { name, items } of payloads) {
  const input = items[0];
  const out = new Uint8Array(maxCompressedLength(input.length));
  const stream = out.slice(0, compressInto(input, out));
  const length = uncompressedLength(stream);
  // The preamble's length: its bytes up to the first without the continuation bit.
  const header = stream.findIndex((b) => b < 0x80) + 1;
  const dest = new Uint8Array(length);
  const ops = {
    compress: {
      kernel: () => compressInto(input, out),
      plain: () => compressPlain(input, out, 0),
    },
    uncompress: {
      kernel: () => uncompressInto(stream, dest),
      plain: () => decodePlain(stream, header, dest, length),
    },
  };
  for (const [op, { kernel, plain }] of Object.entries(ops)) {
    const calls = Math.max(1, Math.round(0.05 / time(kernel, 200)));
    const ratios = [];
    let kernelTime = 0;
    // Two rounds first, not counted: both optimised before any round is.
    for (let r = -2; r < rounds; r++) {
      const k = time(kernel, calls);
      const p = time(plain, calls);
      if (r < 0) continue;
      ratios.push(p / k);
      kernelTime += k / rounds;
    }
    console.log(
      `${name} (${input.length} B) ${op}: plain ÷ kernel ${quartiles(ratios)} (kernel ${(kernelTime * 1e6).toFixed(2)} µs)`,
    );
  }
}
