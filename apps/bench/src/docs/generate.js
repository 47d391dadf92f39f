// `bench docs`: the results page (docs/results.md) and the root README's tables, written
// from the lab's committed reports; and the check of `npm test` that they are current. A
// generated block (`<!-- generated: <section> [args] -->` … `<!-- /generated -->`,
// markers.js) holds what its section (sections.js) writes from the reports (sources.js);
// only README.md and docs/results.md hold blocks, so a change to a library touches no
// package README. The check fails on a block that differs from what its section writes now,
// a block anywhere else, a link to a file or heading the repository does not hold. It leaves
// the `report-status` block as written (what changed since each report was measured): a
// change to a library passes `npm test`, and a release refuses stale reports (stale.js).
//
//   npm run docs                 rewrite every generated block from the committed reports
//   npm run docs -- --adopt      first copy the latest complete bench, sweep, soak, trials
//                                and corpus reports of apps/bench/results into apps/bench/docs
//   pnpm bench docs --check      list what is wrong, exit 1 if anything is
//   pnpm bench docs --stale      list the reports whose packages changed, exit 1 if any is
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, posix } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { generatedBlocks, withGeneratedBlocks } from "./markers.js";
import { here, SECTIONS } from "./sections.js";
import { docsContext, REPORTS } from "./sources.js";
import { staleGate } from "./stale.js";

/** The Markdown files the generator and the check read, as globs of one `*` per segment. */
const DOCS = [
  "README.md",
  "CONTRIBUTING.md",
  "docs/*.md",
  "docs/findings/*.md",
  "packages/*/README.md",
  "apps/*/README.md",
  "fixtures/README.md",
];

/** The only docs that hold generated blocks: the root README's tables and the results page. */
export const GENERATED = ["README.md", "docs/results.md"];

/** Sections the check leaves as written: they change with every commit, not with a report. */
const UNCHECKED = new Set(["report-status"]);

/** The docs of the repository at `root`, as paths from it. */
export function docFiles(root = repoRoot) {
  const expand = (pattern) => {
    let paths = [""];
    for (const segment of pattern.split("/")) {
      paths = paths.flatMap((dir) => {
        if (segment !== "*" && !segment.includes("*")) return [posix.join(dir, segment)];
        const full = join(root, dir);
        if (!existsSync(full)) return [];
        const re = new RegExp(`^${segment.replaceAll(".", "\\.").replaceAll("*", "[^/]*")}$`);
        return readdirSync(full)
          .filter((name) => re.test(name))
          .map((name) => posix.join(dir, name));
      });
    }
    return paths.filter((p) => existsSync(join(root, p)) && statSync(join(root, p)).isFile());
  };
  return [...new Set(DOCS.flatMap(expand))].sort();
}

/**
 * `text` of `file` with every generated block rewritten from `context`.
 * @throws Error naming the file and line of a block whose section does not exist or fails.
 */
export function renderDoc(file, text, context, { check = false } = {}) {
  const at = here(file);
  return withGeneratedBlocks(text, (block) => {
    if (check && UNCHECKED.has(block.section)) return block.body;
    const section = SECTIONS[block.section];
    if (!section) {
      throw new Error(
        `${file}:${block.line}: no section "${block.section}" (known: ${Object.keys(SECTIONS).join(", ")})`,
      );
    }
    try {
      return section(context, block.args, at);
    } catch (error) {
      throw new Error(`${file}:${block.line}: ${block.section}: ${error.message}`, {
        cause: error,
      });
    }
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorsOf = (text) =>
  new Set(
    [...text.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      slug(m[1].replace(/`/g, "")),
    ),
  );

/** Links of `file` to files (or headings of files) the repository does not hold. */
function deadLinks(root, file, text) {
  const problems = [];
  const prose = text.replace(/```[\s\S]*?```/g, "");
  for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const inRepo = /^https:\/\/github\.com\/snappykit\/snappykit\/(?:blob|tree)\/main\//;
    let path;
    if (inRepo.test(target)) {
      path = target.replace(inRepo, "");
    } else if (/^[a-z]+:/.test(target)) {
      continue;
    } else {
      path = posix.normalize(posix.join(posix.dirname(file), target));
    }
    const [name, anchor] = path.split("#");
    const resolved = name === "" || name === "." ? file : name.replace(/\/$/, "");
    if (!existsSync(join(root, resolved))) {
      problems.push(`${file}: links to ${target}, which the repository does not hold`);
    } else if (anchor && resolved.endsWith(".md")) {
      const headings = anchorsOf(readFileSync(join(root, resolved), "utf8"));
      if (!headings.has(anchor)) problems.push(`${file}: links to ${target}: no such heading`);
    }
  }
  return problems;
}

/**
 * Everything wrong with the docs of the repository at `root` (nothing: `[]`). `texts` gives
 * a doc's text instead of the file (tests edit copies in memory).
 * @param {{ root?: string, context?: ReturnType<typeof docsContext>, texts?: Map<string, string> }} [options]
 */
export function checkDocs({
  root = repoRoot,
  context = docsContext(root),
  texts = new Map(),
} = {}) {
  const problems = [];
  const files = [...new Set([...docFiles(root), ...texts.keys()])].sort();
  for (const file of files) {
    const text = texts.get(file) ?? readFileSync(join(root, file), "utf8");
    if (!GENERATED.includes(file)) {
      let blocks;
      try {
        blocks = generatedBlocks(text);
      } catch (error) {
        blocks = [{ line: error.message }];
      }
      for (const block of blocks) {
        problems.push(
          `${file}:${block.line}: a generated block outside ${GENERATED.join(" and ")}: link to docs/results.md instead`,
        );
      }
      problems.push(...deadLinks(root, file, text));
      continue;
    }
    let rendered;
    try {
      rendered = renderDoc(file, text, context, { check: true });
    } catch (error) {
      problems.push(error.message);
      continue;
    }
    if (rendered !== text) {
      let first = 0;
      while (text[first] === rendered[first]) first++;
      const at = text.slice(0, first).split("\n").length;
      problems.push(
        `${file}:${at}: a generated block differs from what its report gives: run \`npm run docs\` (and commit the reports it reads first)`,
      );
    }
    problems.push(...deadLinks(root, file, text));
  }
  return problems;
}

/** Rewrites every doc's generated blocks; returns the files that changed. */
export function writeDocs({ root = repoRoot, context = docsContext(root) } = {}) {
  const changed = [];
  for (const file of GENERATED.filter((f) => existsSync(join(root, f)))) {
    const text = readFileSync(join(root, file), "utf8");
    const rendered = renderDoc(file, text, context);
    if (rendered !== text) {
      writeFileSync(join(root, file), rendered);
      changed.push(file);
    }
  }
  return changed;
}

/** Where a complete run of each mode writes its reports, and the committed copy. */
const ADOPT = [
  ["apps/bench/results/bench", REPORTS.bench],
  ["apps/bench/results/sweep", REPORTS.sweep],
  ["apps/bench/results/soak", REPORTS.soak],
  ["apps/bench/results/trials/trials", REPORTS.trials],
  ["apps/bench/results/corpus/bench", REPORTS.corpus],
  ["apps/bench/results/reqresp/bench", REPORTS.reqresp],
].map(([from, to]) => [from, to.replace(/\.json$/, "")]);

/**
 * Copies each complete run's reports (json, md and svg, as many as the committed ones) over
 * the committed ones when it is newer; says what it did with each.
 * @throws Error when a newer run lacks a format the committed report has.
 */
export function adoptReports(root = repoRoot, log = console.log) {
  for (const [from, to] of ADOPT) {
    const file = (base, ext) => join(root, `${base}.${ext}`);
    if (!existsSync(file(from, "json"))) continue;
    const date = (base) => JSON.parse(readFileSync(file(base, "json"), "utf8")).environment.date;
    if (existsSync(file(to, "json")) && date(from) <= date(to)) {
      log(`${from}.json is not newer than ${to}.json: kept the committed one`);
      continue;
    }
    const committed = existsSync(file(to, "json")) ? to : from;
    const formats = ["json", "md", "svg"].filter((ext) => existsSync(file(committed, ext)));
    const missing = formats.filter((ext) => !existsSync(file(from, ext)));
    if (missing.length > 0)
      throw new Error(`${from} has no ${missing.join(", ")} (run it with every --format)`);
    for (const ext of formats) copyFileSync(file(from, ext), file(to, ext));
    log(`${to}.{${formats.join(",")}} ← ${from} (${date(from)})`);
  }
}

/**
 * `bench docs [--check | --stale | --adopt]` on the repository at `root`; the exit code.
 * @param {{ check?: boolean, stale?: boolean, adopt?: boolean }} flags
 * @param {{ stdout: { write(s: string): unknown }, stderr: { write(s: string): unknown } }} io
 */
export function docsCommand(flags, io, root = repoRoot) {
  if (flags.stale) return staleGate(root, io.stderr);
  if (flags.check) {
    const problems = checkDocs({ root });
    for (const p of problems) io.stderr.write(`${p}\n`);
    return problems.length > 0 ? 1 : 0;
  }
  if (flags.adopt) adoptReports(root, (line) => io.stdout.write(`${line}\n`));
  const changed = writeDocs({ root });
  io.stdout.write(
    `${changed.length > 0 ? `rewrote ${changed.join(", ")}` : "every generated block is up to date"}\n`,
  );
  return 0;
}
