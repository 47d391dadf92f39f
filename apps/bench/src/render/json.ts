// The JSON reports (bench.json, sweep.json, soak.json): every figure of a run plus its
// environment. bench.json is what the Markdown, the SVG and `--compare` can be made from,
// so it stands on its own.

/** Serialise a report (stable key order, 2-space indent, trailing newline). */
export function renderJson(report: object): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
