// The marker mechanics of every generated block in the repository's Markdown: a block starts
// with `<!-- generated: <section> [args] -->` and ends with `<!-- /generated -->`; what lies
// between is the section's output, written by `npm run docs` (apps/bench/src/docs/generate.js) and
// compared with it by `npm test`. Only these two functions know the syntax.

const START = /<!-- generated: ([a-z][\w-]*)((?: [^\s>]+)*) -->/g;
const END = "<!-- /generated -->";

/**
 * @typedef {{ section: string, args: string[], line: number, start: number, end: number, body: string }} Block
 *   `start`/`end`: offsets of the body between the two markers; `line`: the start marker's line.
 */

/**
 * Every generated block of `text`, in order.
 * @param {string} text
 * @returns {Block[]}
 * @throws Error naming the line of a block without an end marker, or of a nested start.
 */
export function generatedBlocks(text) {
  const blocks = [];
  for (const match of text.matchAll(START)) {
    const start = match.index + match[0].length;
    const end = text.indexOf(END, start);
    const line = text.slice(0, match.index).split("\n").length;
    if (end < 0) throw new Error(`line ${line}: "${match[0]}" has no ${END}`);
    const nested = text.slice(start, end).search(START);
    if (nested >= 0) throw new Error(`line ${line}: a generated block starts inside another`);
    const previous = blocks.at(-1);
    if (previous && match.index < previous.end) {
      throw new Error(`line ${line}: a generated block starts inside another`);
    }
    const args = match[2].split(" ").filter(Boolean);
    blocks.push({ section: match[1], args, line, start, end, body: text.slice(start, end) });
  }
  return blocks;
}

/**
 * `text` with every block's body replaced by `render(block)`, set off by blank lines so
 * Markdown sees a paragraph or table of its own.
 * @param {string} text
 * @param {(block: Block) => string} render
 */
export function withGeneratedBlocks(text, render) {
  let out = "";
  let at = 0;
  for (const block of generatedBlocks(text)) {
    out += `${text.slice(at, block.start)}\n\n${render(block).trim()}\n\n`;
    at = block.end;
  }
  return out + text.slice(at);
}
