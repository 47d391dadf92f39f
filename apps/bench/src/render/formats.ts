// Every way a report is rendered, in one table: per format, a
// renderer for each kind of report it shows (bench, sweep, soak). A format with an
// extension is a file named after the report's kind (bench.md, sweep.svg, soak.json) that
// `--format` picks; the terminal's prints on stdout after every run. Renderers read only the
// report. A new format is one file of renderers and one entry here.
import type { Outcome, ReportKind, Reports } from "../model/outcome.js";
import { renderMergeSvg, renderSvg, renderSweepSvg } from "./charts.js";
import { renderJson } from "./json.js";
import { renderMarkdown } from "./markdown.js";
import { renderMergeMarkdown, renderMergeTerminal } from "./merge.js";
import { renderSoakMarkdown, renderSoakTerminal } from "./soak.js";
import { renderSweepMarkdown, renderSweepTerminal } from "./sweep-md.js";

import type { View } from "./table.js";
import { renderTerminal } from "./terminal.js";

/** Renders one kind of report. */
export type Renderer<K extends ReportKind> = (report: Reports[K], view: View) => string;

/** One output format. */
export interface Format {
  /** The file's extension; none for the terminal's format, which prints on stdout. */
  readonly extension?: string;
  /** A renderer per kind of report this format shows; a kind it lacks is not written. */
  readonly render: { readonly [K in ReportKind]?: Renderer<K> };
}

/** Formats by id (the ids `--format` takes). */
export type Formats = Readonly<Record<string, Format>>;

/** The formats of every run. */
export const FORMATS: Formats = {
  terminal: {
    render: {
      bench: renderTerminal,
      sweep: renderSweepTerminal,
      soak: renderSoakTerminal,
      merge: renderMergeTerminal,
    },
  },
  json: {
    extension: "json",
    render: {
      bench: renderJson,
      sweep: renderJson,
      soak: renderJson,
      merge: renderJson,
    },
  },
  md: {
    extension: "md",
    render: {
      bench: renderMarkdown,
      sweep: renderSweepMarkdown,
      soak: renderSoakMarkdown,
      merge: renderMergeMarkdown,
    },
  },
  svg: {
    extension: "svg",
    render: { bench: renderSvg, sweep: renderSweepSvg, merge: renderMergeSvg },
  },
};

/** The ids of the formats that write files, in table order. */
export const fileFormats = (formats: Formats): string[] =>
  Object.keys(formats).filter((id) => formats[id]!.extension !== undefined);

/** `format`'s rendering of `outcome`, or undefined when it has no renderer for its kind. */
export function render(format: Format, outcome: Outcome, view: View): string | undefined {
  const renderer = format.render[outcome.kind] as
    | ((report: Outcome["report"], view: View) => string)
    | undefined;
  return renderer?.(outcome.report, view);
}
