// The check of docs/mutation.md that `npm test` runs (`pnpm mutation` itself is too slow for
// it): without Stryker's reports (not committed), what the committed doc says must add up,
// every survivor of a finished run must be explained, and every explanation must be in use.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { describe, expect, it } from "vitest";
import { PACKAGES } from "./config.mjs";
import { keyedMutants, scoreOf } from "./doc.mjs";

const doc = readFileSync(join(repoRoot, "docs/mutation.md"), "utf8");
const explanations = JSON.parse(
  readFileSync(join(repoRoot, "docs/mutation-survivors.json"), "utf8"),
);

function sectionOf(pkg) {
  const match = doc.match(
    new RegExp(`<!-- mutation:${pkg} -->([\\s\\S]*?)<!-- /mutation:${pkg} -->`),
  );
  return match?.[1];
}

describe("docs/mutation.md", () => {
  it.each([...PACKAGES, "kernel"])(
    "%s: a score that adds up, and one table row per live mutant",
    (pkg) => {
      const section = sectionOf(pkg);
      expect(section, `a section for ${pkg}`).toBeDefined();
      const score =
        /\*\*(\d+\.\d\d) % \((\d+) killed, (\d+) timed out, (\d+) survived, (\d+) not covered\)\*\*/.exec(
          section,
        );
      expect(score, "the score line").not.toBeNull();
      const [, percent, killed, timedOut, survived, uncovered] = score.map(Number);
      const dead = killed + timedOut;
      expect(percent.toFixed(2)).toBe(((100 * dead) / (dead + survived + uncovered)).toFixed(2));
      // The survivors' table is the one with a "why" column; the mutants not measured follow it.
      const survivors = section.split("<details>")[0];
      const rows = survivors.split("\n").filter((line) => /^\| (src\/|kernel\.wat:)/.test(line));
      expect(rows).toHaveLength(survived + uncovered);
      if (!section.includes("**Partial**")) {
        // A finished run: every survivor explained, no explanation left over.
        expect(rows.filter((row) => row.includes("**unexplained**"))).toEqual([]);
        expect(section).not.toContain("Stale explanations");
      }
    },
  );

  it("explanations name a shared reason or give their own, and every shared reason is used", () => {
    const used = new Set(Object.values(explanations.mutants));
    for (const [key, why] of Object.entries(explanations.mutants)) {
      expect(
        why in explanations.reasons || why.includes(" "),
        `${key}: "${why}" is no reason id and no sentence`,
      ).toBe(true);
    }
    expect(Object.keys(explanations.reasons).filter((id) => !used.has(id))).toEqual([]);
  });
});

describe("doc.mjs", () => {
  const mutant = (line, column, status, mutatorName = "EqualityOperator") => ({
    id: `${line}:${column}`,
    mutatorName,
    replacement: "a <= b",
    status,
    location: { start: { line, column }, end: { line, column: column + 5 } },
  });

  it("keys mutants by what they are, numbering repeats of a key in source order", () => {
    const report = {
      files: {
        "packages/x/src/a.ts": {
          source: "a < b;\na < b;\n",
          mutants: [mutant(2, 1, "Survived"), mutant(1, 1, "Killed")],
        },
      },
    };
    expect(keyedMutants(report).map((m) => [m.location.start.line, m.key])).toEqual([
      [1, "packages/x/src/a.ts: EqualityOperator a < b → a <= b"],
      [2, "packages/x/src/a.ts: EqualityOperator a < b → a <= b #2"],
    ]);
  });

  it("scores killed and timed-out mutants over the valid ones, not the ignored", () => {
    const statuses = ["Killed", "Killed", "Timeout", "Survived", "NoCoverage", "Ignored"];
    const { percent, text } = scoreOf(statuses.map((status, i) => mutant(1, i, status)));
    expect(percent).toBe(60);
    expect(text).toBe("60.00 % (2 killed, 1 timed out, 1 survived, 1 not covered)");
  });
});
