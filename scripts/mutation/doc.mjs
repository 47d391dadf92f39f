#!/usr/bin/env node
// docs/mutation.md from Stryker's JSON reports: per package the score and a table of every
// mutant that survived (or that no test reaches), each with its explanation from
// docs/mutation-survivors.json. Explanations are keyed by what the mutant is (file, mutator,
// the code it replaces and with what), not by its line or Stryker's id, so they outlive edits
// elsewhere; one whose code changed no longer matches, and the doc lists it as stale.
//
//   node scripts/mutation/doc.mjs [ts|framing|core ...]   (rewrite sections from the last reports)
//   node scripts/mutation/doc.mjs --unexplained [pkg ...]  (print the keys that need a reason)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "@snappykit/workspace";
import { PACKAGES, REPORTS } from "./config.mjs";

const DOC = join(repoRoot, "docs/mutation.md");
const EXPLANATIONS = join(repoRoot, "docs/mutation-survivors.json");

/** ts's WebAssembly kernel (scripts/mutation/kernel.mjs), a section of its own. */
const KERNEL = "packages/ts/src/kernel.wat";
/** A section's heading, and the path its report's files start with. */
const sectionOf = (pkg) =>
  pkg === "kernel"
    ? { prefix: "packages/ts/src/", heading: KERNEL }
    : { prefix: `packages/${pkg}/`, heading: `packages/${pkg}/src` };

/** Statuses that count against the score, and those that count for it. */
const LIVE = ["Survived", "NoCoverage"];
const DEAD = ["Killed", "Timeout"];

/**
 * The last report of `pkg`, and whether it is partial: a run interrupted with Ctrl-C leaves
 * only its incremental file (the mutants tested so far), newer than the last full report.
 */
function reportOf(pkg) {
  const full = join(repoRoot, REPORTS, `${pkg}.json`);
  const incremental = join(repoRoot, REPORTS, `${pkg}.incremental.json`);
  const partial =
    existsSync(incremental) && (!existsSync(full) || mtime(incremental) > mtime(full) + 60_000);
  const report = JSON.parse(readFileSync(partial ? incremental : full, "utf8"));
  // A kernel run with --limit or --sample says so itself (scripts/mutation/kernel.mjs).
  return { ...report, partial: partial || report.partial === true };
}
const mtime = (path) => statSync(path).mtimeMs;

/** Stryker's mutation score: killed and timed out over every valid mutant. */
export function scoreOf(mutants) {
  const count = (statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
  const dead = count(DEAD);
  const live = count(LIVE);
  const percent = (100 * dead) / (dead + live || 1);
  return {
    percent,
    text: `${percent.toFixed(2)} % (${count(["Killed"])} killed, ${count(["Timeout"])} timed out, ${count(["Survived"])} survived, ${count(["NoCoverage"])} not covered)`,
  };
}

// Whitespace squashed, and backticks as quotes: keys are shown inside Markdown code spans.
const squash = (code) => code.replace(/\s+/g, " ").replace(/`/g, "'").trim();

/** The code a mutant replaces: its location in the file's source (lines and columns 1-based). */
function originalOf(source, { start, end }) {
  const lines = source.split("\n");
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join("\n");
}

/** Long code by its start and a hash of the whole, so a change anywhere in it shows. */
function shorten(code) {
  if (code.length <= 60) return code;
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 8);
  return `${code.slice(0, 50)}… [${hash}]`;
}

/**
 * Every mutant of a report with its stable key: `<file>: <mutator> <original> → <replacement>`,
 * with ` #n` for the n-th (from 2) mutant of a file with the same key, in source order.
 */
export function keyedMutants(report) {
  const out = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const seen = new Map();
    const ordered = [...mutants].sort(
      (a, b) =>
        a.location.start.line - b.location.start.line ||
        a.location.start.column - b.location.start.column,
    );
    for (const mutant of ordered) {
      const original = squash(originalOf(source, mutant.location));
      const replacement = squash(mutant.replacement ?? "");
      const base = `${file}: ${mutant.mutatorName} ${shorten(original)} → ${shorten(replacement)}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      out.push({ ...mutant, file, original, replacement, key: n === 1 ? base : `${base} #${n}` });
    }
  }
  return out;
}

const cell = (text) => text.replace(/\|/g, "\\|");
const code = (text) => `\`${cell(shorten(text))}\``;

/**
 * A mutant's change for the table: both sides whole when short; when long, only what
 * differs, with some context (a kernel mutant is a whole instruction, its change anywhere).
 */
function change(original, replacement) {
  if (original.length <= 60 && replacement.length <= 60) {
    return `${code(original)} → ${code(replacement)}`;
  }
  let head = 0;
  while (head < original.length && original[head] === replacement[head]) head++;
  let tail = 0;
  while (
    tail < original.length - head &&
    tail < replacement.length - head &&
    original.at(-1 - tail) === replacement.at(-1 - tail)
  ) {
    tail++;
  }
  const from = Math.max(0, head - 24);
  const part = (text) => {
    const to = Math.min(text.length, text.length - tail + 24);
    const shown = `${from > 0 ? "…" : ""}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
    return `\`${cell(shown.length > 90 ? shorten(shown) : shown)}\``;
  };
  return `${part(original)} → ${part(replacement)}`;
}

/** A section's text; `runLine` names the run its report came from. */
function section(pkg, runLine, explanations) {
  const report = reportOf(pkg);
  const mutants = keyedMutants(report);
  const score = scoreOf(mutants);
  const live = mutants.filter((m) => LIVE.includes(m.status));
  const { prefix, heading } = sectionOf(pkg);
  // Each explanation belongs to the section whose files it names: ts's and the kernel's keys
  // share packages/ts/src/.
  const own = (key) =>
    key.startsWith(prefix) && (pkg === "kernel") === key.startsWith(`${KERNEL}:`);
  const known = new Set(live.map((m) => m.key));
  // After a partial run, only a tested mutant's explanation is known to be stale.
  const tested = new Set(mutants.filter((m) => m.status !== "Pending").map((m) => m.key));
  const stale = Object.keys(explanations.mutants).filter(
    (key) => own(key) && !known.has(key) && (!report.partial || tested.has(key)),
  );
  const lines = [`<!-- mutation:${pkg} -->`, "", `## ${heading}`, ""];
  // Ignored mutants (not measured, listed below), invalid ones (a kernel mutant that does not
  // assemble) and pending ones (a kernel mutant a stopped or sampled run did not test) are in
  // neither count.
  const measured = mutants.filter(
    (m) => !["Ignored", "CompileError", "Pending"].includes(m.status),
  );
  const invalid = mutants.filter((m) => m.status === "CompileError").length;
  lines.push(
    report.partial
      ? `**Partial**: the last run was interrupted or tested a sample. Of the ${measured.length} mutants tested so far, **${score.text}**.`
      : `Mutation score **${score.text}** of ${measured.length} mutants.`,
  );
  if (invalid > 0) {
    lines.push(
      `Not in the score: ${invalid} mutants that do not assemble, validate or compile (an operand of the wrong type, a constant out of range), which no runtime would load.`,
    );
  }
  // Stryker's score counts an equivalent mutant as a survivor; what the tests miss is the rest.
  const equivalent = live.filter((m) => {
    const why = explanations.mutants[m.key];
    return why !== undefined && !why.startsWith("Not equivalent");
  }).length;
  if (equivalent > 0) {
    const dead = mutants.filter((m) => DEAD.includes(m.status)).length;
    const percent = (100 * dead) / (dead + live.length - equivalent || 1);
    lines.push(
      `Without the ${equivalent} survivors explained below as equivalent (no caller can tell them from the code): **${percent.toFixed(2)} %**.`,
    );
  }
  if (runLine) lines.push(runLine);
  lines.push("");
  if (live.length === 0) lines.push("No mutant survives.");
  else {
    lines.push(
      "| where | mutator | code → mutant | why it survives |",
      "| --- | --- | --- | --- |",
    );
    for (const m of live) {
      const why = explanations.mutants[m.key];
      const text =
        why === undefined
          ? `**unexplained** (${m.status}); key: \`${cell(m.key)}\``
          : (explanations.reasons[why] ?? why);
      lines.push(
        `| ${m.file.slice(prefix.length)}:${m.location.start.line} | ${m.mutatorName} | ${change(m.original, m.replacement)} | ${cell(text)} |`,
      );
    }
  }
  // Not counted in the score either way (ts's ignoreStatic, scripts/mutation/config.mjs): said
  // here with every such mutant, so what is not measured is in the doc too.
  const ignored = mutants.filter((m) => m.status === "Ignored");
  if (ignored.length > 0) {
    lines.push(
      "",
      `**Not measured**: ${ignored.length} mutants run only while the package's modules load (${[...new Set(ignored.map((m) => m.statusReason))].join("; ")}); they are not in the score.`,
      "",
      "<details><summary>The mutants not measured</summary>",
      "",
      "| where | mutator | code → mutant |",
      "| --- | --- | --- |",
      ...ignored.map(
        (m) =>
          `| ${m.file.slice(prefix.length)}:${m.location.start.line} | ${m.mutatorName} | ${change(m.original, m.replacement)} |`,
      ),
      "",
      "</details>",
    );
  }
  if (stale.length > 0) {
    lines.push("", "Stale explanations (no such survivor any more; delete or re-key them):", "");
    for (const key of stale) lines.push(`- ${code(key)}`);
  }
  lines.push("", `<!-- /mutation:${pkg} -->`);
  const unexplained = live.filter((m) => explanations.mutants[m.key] === undefined);
  return { text: lines.join("\n"), unexplained, stale };
}

/**
 * Rewrite the sections of docs/mutation.md for `runs` (`{ pkg, seconds, concurrency, command,
 * incremental, tool? }`, or bare package names to redraw a section from its last report,
 * keeping the line that names the run it came from); the other sections stay as they are.
 */
export function writeDoc(runs) {
  const explanations = JSON.parse(readFileSync(EXPLANATIONS, "utf8"));
  const stryker = JSON.parse(
    readFileSync(join(repoRoot, "node_modules/@stryker-mutator/core/package.json"), "utf8"),
  ).version;
  let doc = readFileSync(DOC, "utf8");
  for (const run of runs) {
    const pkg = run.pkg ?? run;
    const pattern = new RegExp(`<!-- mutation:${pkg} -->[\\s\\S]*?<!-- /mutation:${pkg} -->`);
    if (!pattern.test(doc)) throw new Error(`docs/mutation.md has no section for ${pkg}`);
    const runLine =
      typeof run === "string"
        ? doc.match(pattern)[0].match(/^`pnpm mutation[ :].*$/m)?.[0]
        : `\`${run.command}\` on ${new Date().toISOString().slice(0, 10)}: ${Math.round(run.seconds / 6) / 10} min wall time, concurrency ${run.concurrency}, Node ${process.versions.node}, ${run.tool ?? `StrykerJS ${stryker}`}${run.incremental ? " (incremental: the results of mutants it did not retest are the runs' before)" : ""}.`;
    const { text, unexplained, stale } = section(pkg, runLine, explanations);
    doc = doc.replace(pattern, () => text);
    if (unexplained.length > 0) {
      console.log(`mutation: ${pkg}: ${unexplained.length} survivor(s) without an explanation`);
    }
    if (stale.length > 0) console.log(`mutation: ${pkg}: ${stale.length} stale explanation(s)`);
  }
  writeFileSync(DOC, doc);
  // Tables aligned as `pnpm test`'s biome check wants them.
  spawnSync(join(repoRoot, "node_modules/.bin/biome"), ["format", "--write", DOC], {
    stdio: "ignore",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const pkgs = args.filter((arg) => !arg.startsWith("--"));
  const reported = (pkgs.length > 0 ? pkgs : [...PACKAGES, "kernel"]).filter((pkg) =>
    ["json", "incremental.json"].some((end) =>
      existsSync(join(repoRoot, REPORTS, `${pkg}.${end}`)),
    ),
  );
  if (args.includes("--unexplained")) {
    // A skeleton to paste into docs/mutation-survivors.json's `mutants` and fill in.
    const explanations = JSON.parse(readFileSync(EXPLANATIONS, "utf8"));
    const keys = reported.flatMap((pkg) => section(pkg, undefined, explanations).unexplained);
    console.log(JSON.stringify(Object.fromEntries(keys.map((m) => [m.key, ""])), null, 2));
  } else writeDoc(reported);
}
