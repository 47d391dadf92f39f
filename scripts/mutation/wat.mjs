// Mutants of a WebAssembly text module (ts's kernel.wat), for `pnpm mutation:kernel`
// (scripts/mutation/kernel.mjs): the module is read as S-expressions, so each mutant is found
// by what it changes (an instruction and its operands), never by a line number, and works on
// whatever the kernel's source is. Each mutant is one splice of the source text.
//
// The operators, after StrykerJS's for TypeScript (EqualityOperator, ArithmeticOperator,
// ConditionalExpression) and the kernel's own memory accesses:
// - ComparisonOperator: a boundary moved (lt ↔ le, gt ↔ ge), the comparison negated
//   (lt → ge, le → gt, gt → le, ge → lt, eq ↔ ne), and signed ↔ unsigned where an operand
//   may be negative: a subtraction, a local that some assignment sets to one, or a constant
//   with its top bit set. Everything else the kernel compares is a position, length, offset
//   or count in its memory (12 pages, never grown), below 2^31, where a signed and an
//   unsigned comparison agree: swapping those made 31 mutants that no input could tell apart
//   from the kernel (every such swap survived a full run; the one swap killed was on a
//   difference, `offset - 1`, which wraps for offset 0).
// - ArithmeticOperator: add ↔ sub, shl ↔ shr_u, shr_s → shr_u, and ↔ or, xor → or.
// - ConstantValue: an i32.const or i64.const one more and one less, where it is a bound, a
//   step, a choice or an address (an operand of a comparison, add, sub, select, local.set,
//   memory.fill or a global). Masks, shift counts and hash multipliers are left out: off by
//   one they change every element or every hash, which ArithmeticOperator's mutants of the
//   same instructions already show the tests see, and the full run has to fit on two cores.
// - BranchCondition: the condition of a br_if, if or select negated (wrapped in i32.eqz).
// - LoadStoreWidth: a load or store one width narrower or wider (load8_u ↔ load16_u,
//   i32.store ↔ i32.store16, ...), or a narrow load's extension signed instead of unsigned.

/** @typedef {{ atom: string, start: number, end: number }} Atom */
/** @typedef {{ list: Node[], start: number, end: number }} List */
/** @typedef {Atom | List} Node */

/** The S-expressions of `text` (comments and whitespace skipped), with their source ranges. */
export function parse(text) {
  const root = { list: [], start: 0, end: text.length };
  const stack = [root];
  let at = 0;
  while (at < text.length) {
    const c = text[at];
    if (/\s/.test(c)) at++;
    else if (text.startsWith(";;", at)) {
      const eol = text.indexOf("\n", at);
      at = eol < 0 ? text.length : eol + 1;
    } else if (text.startsWith("(;", at)) {
      // Block comments nest.
      let depth = 0;
      do {
        if (text.startsWith("(;", at) || text.startsWith(";)", at)) {
          depth += text[at] === "(" ? 1 : -1;
          at += 2;
        } else if (at >= text.length) throw new Error("wat: unterminated block comment");
        else at++;
      } while (depth > 0);
    } else if (c === "(") {
      const node = { list: [], start: at, end: -1 };
      stack.at(-1).list.push(node);
      stack.push(node);
      at++;
    } else if (c === ")") {
      if (stack.length === 1) throw new Error(`wat: unbalanced ")" at ${at}`);
      stack.pop().end = ++at;
    } else {
      const start = at;
      if (c === '"') {
        at++;
        while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
        at++;
      } else while (at < text.length && !/[\s();"]/.test(text[at])) at++;
      stack.at(-1).list.push({ atom: text.slice(start, at), start, end: at });
    }
  }
  if (stack.length !== 1) throw new Error("wat: unbalanced (");
  return root.list;
}

const COMPARISONS = {
  lt: ["le", "ge"],
  le: ["lt", "gt"],
  gt: ["ge", "le"],
  ge: ["gt", "lt"],
};
const ARITHMETIC = {
  add: ["sub"],
  sub: ["add"],
  shl: ["shr_u"],
  shr_u: ["shl"],
  shr_s: ["shr_u"],
  and: ["or"],
  or: ["and"],
  xor: ["or"],
};
// Widths in bytes of each load and store; a mutant takes the next narrower and wider one of
// the same value type.
const LOADS = {
  i32: ["i32.load8_u", "i32.load16_u", "i32.load"],
  i64: ["i64.load8_u", "i64.load16_u", "i64.load32_u", "i64.load"],
};
const STORES = {
  i32: ["i32.store8", "i32.store16", "i32.store"],
  i64: ["i64.store8", "i64.store16", "i64.store32", "i64.store"],
};

/**
 * The opcodes `op` becomes under each operator that changes opcodes; a comparison's signedness
 * only where `mayBeNegative` (an operand may be negative).
 */
function opcodeMutations(op, mayBeNegative) {
  const out = [];
  const [type, name] = op.split(".");
  if (type !== "i32" && type !== "i64") return out;
  const cmp = /^(lt|le|gt|ge)_([su])$/.exec(name);
  if (cmp) {
    const [, rel, sign] = cmp;
    for (const to of COMPARISONS[rel]) out.push(["ComparisonOperator", `${type}.${to}_${sign}`]);
    if (mayBeNegative)
      out.push(["ComparisonOperator", `${type}.${rel}_${sign === "s" ? "u" : "s"}`]);
  } else if (name === "eq" || name === "ne") {
    out.push(["ComparisonOperator", `${type}.${name === "eq" ? "ne" : "eq"}`]);
  } else if (ARITHMETIC[name]) {
    for (const to of ARITHMETIC[name]) out.push(["ArithmeticOperator", `${type}.${to}`]);
  }
  for (const widths of [LOADS[type], STORES[type]]) {
    const at = widths.indexOf(op);
    if (at < 0) continue;
    for (const to of [widths[at - 1], widths[at + 1]]) {
      if (to !== undefined) out.push(["LoadStoreWidth", to]);
    }
  }
  if (/^i(32|64)\.load(8|16|32)_u$/.test(op)) out.push(["LoadStoreWidth", op.replace(/_u$/, "_s")]);
  return out;
}

/** The instructions whose constant operands ConstantValue changes. */
const BOUNDS = /^((i32|i64)\.(eq|ne|[lg][te]_[su]|add|sub)|select|local\.set|memory\.fill|global)$/;

const isList = (node) => node.list !== undefined;
const head = (node) => (isList(node) && node.list[0]?.atom) || undefined;
/** A constant's value, from wat's decimal or hex, signed or not, with `_` separators. */
const constant = (atom) => {
  const digits = atom.replace(/_/g, "");
  return digits.startsWith("-") ? -BigInt(digits.slice(1)) : BigInt(digits);
};
const isDifference = (node) => /^i(32|64)\.sub$/.test(head(node));

/** The locals of `func` that some local.set or local.tee sets to a difference. */
function differencesIn(func) {
  const locals = new Set();
  const scan = (node) => {
    if (!isList(node)) return;
    const op = head(node);
    if ((op === "local.set" || op === "local.tee") && isDifference(node.list[2])) {
      locals.add(node.list[1].atom);
    }
    for (const child of node.list) scan(child);
  };
  scan(func);
  return locals;
}

/** Whether an operand of the comparison `node` may be negative (see ComparisonOperator). */
function mayBeNegative(node, differences) {
  return node.list.slice(1).some((operand) => {
    const op = head(operand);
    if (isDifference(operand)) return true;
    if (op === "local.get") return differences.has(operand.list[1].atom);
    const bits = { "i32.const": 32, "i64.const": 64 }[op];
    return bits !== undefined && BigInt.asIntN(bits, constant(operand.list[1].atom)) < 0n;
  });
}

/**
 * The condition operand of a folded br_if, if or select: the last operand of br_if and select,
 * and of if the one before its (then ...) block.
 */
function conditionOf(node) {
  const op = head(node);
  if (op === "br_if" || op === "select") {
    const last = node.list.at(-1);
    return isList(last) && node.list.length > 2 ? last : undefined;
  }
  if (op === "if") {
    const then = node.list.findIndex((child) => head(child) === "then");
    const cond = node.list[then - 1];
    return then > 1 && isList(cond) && head(cond) !== "result" ? cond : undefined;
  }
  return undefined;
}

/**
 * Every mutant of `text`: `{ mutatorName, start, end, replacement, func }`, where
 * text[start, end) is the instruction it changes (a whole folded expression, so that a
 * mutant reads with its operands) and `func` the function it is in.
 */
export function mutantsOf(text) {
  const mutants = [];
  const splice = (node, from, to, by) =>
    text.slice(node.start, from) + by + text.slice(to, node.end);
  const walk = (node, func, differences) => {
    if (!isList(node)) return;
    const op = head(node);
    if (op === "func") {
      const exported = node.list.find((child) => head(child) === "export")?.list[1]?.atom;
      const named = node.list[1]?.atom?.startsWith("$") ? node.list[1].atom : undefined;
      func = exported?.slice(1, -1) ?? named ?? "func";
      differences = differencesIn(node);
    }
    const opcode = node.list[0];
    if (op !== undefined) {
      for (const [mutatorName, to] of opcodeMutations(op, mayBeNegative(node, differences))) {
        mutants.push({
          mutatorName,
          start: node.start,
          end: node.end,
          replacement: splice(node, opcode.start, opcode.end, to),
          func,
        });
      }
    }
    for (const child of node.list) {
      // Constants one more and one less, shown in the instruction they are an operand of.
      const value =
        head(child) === "i32.const" || head(child) === "i64.const" ? child.list[1] : null;
      if (value && BOUNDS.test(op)) {
        const n = constant(value.atom);
        const hex = /^-?0x/i.test(value.atom);
        for (const m of [n + 1n, n - 1n]) {
          const literal = hex
            ? `${m < 0n ? "-" : ""}0x${(m < 0n ? -m : m).toString(16)}`
            : String(m);
          mutants.push({
            mutatorName: "ConstantValue",
            start: node.start,
            end: node.end,
            replacement: splice(node, value.start, value.end, literal),
            func,
          });
        }
      }
    }
    const cond = conditionOf(node);
    if (cond) {
      mutants.push({
        mutatorName: "BranchCondition",
        start: cond.start,
        end: cond.end,
        replacement: `(i32.eqz ${text.slice(cond.start, cond.end)})`,
        func,
      });
    }
    for (const child of node.list) walk(child, func, differences);
  };
  for (const node of parse(text)) walk(node, undefined, new Set());
  return mutants.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The source with `mutant` applied. */
export const applyMutant = (text, { start, end, replacement }) =>
  text.slice(0, start) + replacement + text.slice(end);

/**
 * The text a cache key is made of: comments dropped and whitespace squashed, so that an edit
 * to a comment or the layout does not make every mutant new.
 */
export function canonical(text) {
  const parts = [];
  const print = (node) => (isList(node) ? `(${node.list.map(print).join(" ")})` : node.atom);
  for (const node of parse(text)) parts.push(print(node));
  return parts.join("\n");
}
