// `--calibrate`'s report, thresholds.json, as the terminal and thresholds.md show it: the
// thresholds with the crossovers they come from, and how to hand them to @snappykit/auto.
import type { ThresholdsFile } from "@snappykit/auto";
import { formatBytes } from "@snappykit/workspace/format";
import { markdownTable, type Table } from "./table.js";

const size = (n: number | null) =>
  n === null
    ? "never (ts at every size)"
    : n === 0
      ? "0 (native at every size)"
      : `${n.toLocaleString("en-US")} B`;
const bound = (n: number | null) => (n === null ? "out of range" : formatBytes(n));

/** Per op and kind: the threshold and the crossover (with its interval) it comes from. */
export function thresholdsTable(t: ThresholdsFile): Table {
  const rows = (["compress", "uncompress"] as const).flatMap((op) =>
    (["compressible", "incompressible"] as const).map((kind) => {
      const x = t.provenance.crossover[op][kind];
      return [
        { text: op },
        { text: kind },
        { text: size(t[op][kind]) },
        { text: x.series },
        {
          text: x.ci
            ? `[${bound(x.ci.low)}, ${bound(x.ci.high)}] (${Math.floor(x.ci.level * 100)} %)`
            : "—",
        },
      ];
    }),
  );
  return {
    headers: ["op", "kind of data", "native from", "stream", "crossover interval"],
    align: ["l", "l", "r", "l", "r"],
    rows,
  };
}

const provenanceLine = (t: ThresholdsFile) =>
  `Calibrated on ${t.provenance.machine}, Node ${t.provenance.node.replace(/^v/, "")}, ${t.provenance.date.slice(0, 16).replace("T", " ")} UTC (\`${t.provenance.command}\`).`;

const USAGE = [
  "```ts",
  'import { readFileSync } from "node:fs";',
  'import { createCodec } from "@snappykit/auto";',
  "",
  'const thresholds = JSON.parse(readFileSync("thresholds.json", "utf8"));',
  "const codec = await createCodec({ thresholds });",
  'codec.describe().source; // "calibrated", with describe().provenance: machine, Node, date',
  "```",
];

/** thresholds.md. */
export function renderThresholdsMarkdown(t: ThresholdsFile): string {
  return `${[
    "# @snappykit/auto's thresholds, calibrated",
    "",
    provenanceLine(t),
    "",
    "The smallest uncompressed size sent to the native codec (napi), per op and kind of data: the size where ts and napi cross on the block stream (compressible) and on the sidecar stream (incompressible), from a short sweep with 5 forks; the interval is where neither codec is significantly faster.",
    "",
    markdownTable(thresholdsTable(t)),
    "",
    "Use it:",
    "",
    ...USAGE,
  ].join("\n")}\n`;
}

/** The terminal's view. */
export function renderThresholdsTerminal(t: ThresholdsFile): string {
  const line = (op: "compress" | "uncompress") =>
    `${op}: native from ${size(t[op].compressible)} (compressible), ${size(t[op].incompressible)} (incompressible)`;
  return [
    provenanceLine(t),
    line("compress"),
    line("uncompress"),
    'createCodec({ thresholds: JSON.parse(readFileSync("thresholds.json", "utf8")) }) takes the file as it is.',
  ].join("\n");
}
