// Hook for the fuzz helper's results ("Safety on hostile input"). We coordinate through
// its output file only: apps/fuzz/results/safety.json. If the file carries a ready
// `markdown` string we include it as is; otherwise we draw a codec × outcome-count table
// from whatever matrix shape it has.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { markdownTable } from "./markdown.js";

/** Where the fuzz helper writes its matrix, relative to the repository root. */
export const SAFETY_FILE = "apps/fuzz/results/safety.json";

type Row = { codec: string; counts: Record<string, number> };

const numericFields = (o: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(o).filter(([, v]) => typeof v === "number" && Number.isFinite(v)),
  ) as Record<string, number>;

function rowsOf(json: unknown): Row[] | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const obj = json as Record<string, unknown>;
  const list = Array.isArray(json)
    ? json
    : [obj.matrix, obj.results, obj.codecs, obj.rows, obj.targets].find(Array.isArray);
  if (Array.isArray(list)) {
    const rows: Row[] = [];
    for (const entry of list) {
      if (entry === null || typeof entry !== "object") continue;
      const e = entry as Record<string, unknown>;
      const base = [e.codec, e.name, e.id, e.target].find((v) => typeof v === "string") as
        | string
        | undefined;
      if (!base) continue;
      const label =
        typeof e.impl === "string" && e.impl !== "adapter" ? `${base} (${e.impl})` : base;
      const nested = [e.outcomes, e.counts, e.tally].find((v) => v && typeof v === "object");
      rows.push({
        codec: label,
        counts: numericFields((nested ?? e) as Record<string, unknown>),
      });
    }
    return rows.length > 0 ? rows : undefined;
  }
  const map = obj.matrix && typeof obj.matrix === "object" ? obj.matrix : obj;
  const rows = Object.entries(map as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v === "object" && !Array.isArray(v))
    .map(([codec, v]) => ({ codec, counts: numericFields(v as Record<string, unknown>) }))
    .filter((r) => Object.keys(r.counts).length > 0);
  return rows.length > 0 ? rows : undefined;
}

/** Render the fuzz matrix (any of the shapes above) as Markdown. */
export function renderSafety(json: unknown): string {
  const obj = json as Record<string, unknown> | null;
  if (obj && typeof obj.markdown === "string") return obj.markdown.trim();
  const rows = rowsOf(json);
  if (!rows) {
    return `\`${SAFETY_FILE}\` is present but holds no codec × outcome matrix this report recognises.`;
  }
  const outcomes: string[] = [];
  for (const r of rows)
    for (const k of Object.keys(r.counts)) if (!outcomes.includes(k)) outcomes.push(k);
  return [
    `From \`${SAFETY_FILE}\` (counts of decompress calls by outcome, per codec).`,
    "",
    markdownTable({
      headers: ["codec", ...outcomes],
      align: ["l", ...outcomes.map(() => "r" as const)],
      rows: rows.map((r) => [
        { text: r.codec },
        ...outcomes.map((o) => ({ text: r.counts[o] === undefined ? "—" : String(r.counts[o]) })),
      ]),
    }),
  ].join("\n");
}

/** The section body if the fuzz helper has written its file, else undefined. */
export function loadSafetySection(repoRoot: string): string | undefined {
  const path = join(repoRoot, SAFETY_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return renderSafety(JSON.parse(readFileSync(path, "utf8")));
  } catch (error) {
    return `\`${SAFETY_FILE}\` could not be read: ${(error as Error).message}`;
  }
}
