// The kernel's mutants (wat.mjs): found from the module's structure, one change each, and
// every kind the operators promise on ts's kernel.wat as it is.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@snappykit/workspace";
import { describe, expect, it } from "vitest";
import { applyMutant, canonical, mutantsOf, parse } from "./wat.mjs";

const module = `(module ;; a comment (with parentheses)
  (func (export "f") (param $a i32) (result i32) (local $d i32)
    (; a block (; nested ;) comment ;)
    (block $exit
      (br_if $exit (i32.lt_u (local.get $a) (i32.const 16))))
    (if (i32.eq (local.get $a) (i32.const 0x10)) (then (i32.store8 (i32.const 0) (local.get $a))))
    (local.set $d (i32.sub (local.get $a) (i32.const 1)))
    (drop (i32.gt_s (local.get $d) (local.get $a)))
    (i32.add (i32.load16_u offset=4 (local.get $a)) (i32.const 1))))`;

const changes = (text) =>
  mutantsOf(text).map((m) => [m.mutatorName, text.slice(m.start, m.end), m.replacement, m.func]);

describe("wat.mjs", () => {
  it("parses S-expressions past comments, with their source ranges", () => {
    const [mod] = parse(module);
    expect(mod.list[0].atom).toBe("module");
    const func = mod.list[1];
    expect(module.slice(func.start, func.end)).toMatch(/^\(func [\s\S]*\)$/);
    expect(func.list.map((node) => node.atom ?? node.list[0].atom)).toEqual([
      "func",
      "export",
      "param",
      "result",
      "local",
      "block",
      "if",
      "local.set",
      "drop",
      "i32.add",
    ]);
    expect(() => parse("(module")).toThrow(/unbalanced/);
  });

  it("mutates operators, constants, conditions and widths, each in its instruction", () => {
    const all = changes(module);
    const expectChange = (name, from, to) => expect(all).toContainEqual([name, from, to, "f"]);
    const lt = "(i32.lt_u (local.get $a) (i32.const 16))";
    expectChange("ComparisonOperator", lt, "(i32.le_u (local.get $a) (i32.const 16))");
    expectChange("ComparisonOperator", lt, "(i32.ge_u (local.get $a) (i32.const 16))");
    // Signedness only where an operand may be negative: here a local set to a difference.
    expect(all).not.toContainEqual(
      expect.arrayContaining(["(i32.lt_s (local.get $a) (i32.const 16))"]),
    );
    const gt = "(i32.gt_s (local.get $d) (local.get $a))";
    expectChange("ComparisonOperator", gt, "(i32.gt_u (local.get $d) (local.get $a))");
    expectChange("ConstantValue", lt, "(i32.lt_u (local.get $a) (i32.const 17))");
    expectChange("ConstantValue", lt, "(i32.lt_u (local.get $a) (i32.const 15))");
    expectChange("BranchCondition", lt, `(i32.eqz ${lt})`);
    const eq = "(i32.eq (local.get $a) (i32.const 0x10))";
    expectChange("ComparisonOperator", eq, "(i32.ne (local.get $a) (i32.const 0x10))");
    expectChange("ConstantValue", eq, "(i32.eq (local.get $a) (i32.const 0x11))");
    expectChange("BranchCondition", eq, `(i32.eqz ${eq})`);
    const store = "(i32.store8 (i32.const 0) (local.get $a))";
    expectChange("LoadStoreWidth", store, "(i32.store16 (i32.const 0) (local.get $a))");
    const load = "(i32.load16_u offset=4 (local.get $a))";
    const add = `(i32.add ${load} (i32.const 1))`;
    expectChange("ArithmeticOperator", add, `(i32.sub ${load} (i32.const 1))`);
    expectChange("ConstantValue", add, `(i32.add ${load} (i32.const 0))`);
    for (const to of ["i32.load8_u", "i32.load", "i32.load16_s"]) {
      expectChange("LoadStoreWidth", load, load.replace("i32.load16_u", to));
    }
    // A store's address and value, a mask or a shift count: not bounds (wat.mjs says why).
    expect(all.filter(([name, from]) => name === "ConstantValue" && from === store)).toEqual([]);
    expect(all).toHaveLength(22);
  });

  it("applies one mutant as one splice; the cache key ignores comments and layout", () => {
    const [first] = mutantsOf(module);
    const mutated = applyMutant(module, first);
    expect(mutated).not.toBe(module);
    expect(mutated.length - module.length).toBe(
      first.replacement.length - (first.end - first.start),
    );
    expect(canonical(module)).toBe(canonical(module.replace(/;;.*$/m, "").replace(/\n\s*/g, " ")));
    expect(canonical(mutated)).not.toBe(canonical(module));
  });

  it("finds mutants of every operator in both of ts's kernel functions", () => {
    const kernel = readFileSync(join(repoRoot, "packages/ts/src/kernel.wat"), "utf8");
    const mutants = mutantsOf(kernel);
    for (const func of ["fastPath", "compressBlock"]) {
      const names = new Set(mutants.filter((m) => m.func === func).map((m) => m.mutatorName));
      expect([...names].sort(), func).toEqual([
        "ArithmeticOperator",
        "BranchCondition",
        "ComparisonOperator",
        "ConstantValue",
        "LoadStoreWidth",
      ]);
    }
    // Every mutant changes the module, and no two the same way.
    const texts = new Set(mutants.map((m) => canonical(applyMutant(kernel, m))));
    expect(texts.size).toBe(mutants.length);
    expect(texts.has(canonical(kernel))).toBe(false);
  });
});
