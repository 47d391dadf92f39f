// Number formatting shared by every report, so the terminal, Markdown and SVG agree. Sizes
// and durations are written as the fuzzer and the scripts write them
// (@snappykit/workspace/format).

/** Nanoseconds as a short human time with three significant figures: "28.1 µs". */
export function formatTime(ns: number): string {
  if (!Number.isFinite(ns)) return "n/a";
  if (ns < 1e3) return `${ns.toPrecision(3)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** An integer with thousands separators: 33,120. */
export function formatInt(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** A signed percentage: "+4.2 %", "-12 %". */
export function formatPercent(p: number): string {
  if (!Number.isFinite(p)) return "n/a";
  const digits = Math.abs(p) >= 10 ? 0 : 1;
  return `${p >= 0 ? "+" : "−"}${Math.abs(p).toFixed(digits)} %`;
}

/** A ratio of times: "0.42×", "12.3×". */
export function formatRatio(x: number): string {
  if (!Number.isFinite(x)) return "n/a";
  return `${x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

/** Throughput of `bytes` processed in `ns`: "812 MB/s". */
export function formatThroughput(bytes: number, ns: number): string {
  const mbps = bytes / 1e6 / (ns / 1e9);
  return `${mbps >= 100 ? Math.round(mbps) : mbps.toPrecision(3)} MB/s`;
}
