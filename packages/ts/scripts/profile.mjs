// Profile driver: runs one codec operation on one fixture in a tight loop, for
// `node --cpu-prof scripts/profile.mjs <payload> <c|u> [iterations] [--into]` (build first).
// --into profiles compressInto/uncompressInto into one reused array (no result allocation).
import { loadPayloads } from "@snappykit/fixtures";
import {
  compress,
  compressInto,
  maxCompressedLength,
  uncompress,
  uncompressInto,
} from "../dist/index.js";

const args = process.argv.slice(2);
const into = args.includes("--into");
const [name = "beacon-block", op = "c", n = "2000"] = args.filter((a) => !a.startsWith("--"));
const items = loadPayloads({ names: [name] })[0].items;
const compressed = items.map((item) => compress(item));
const out = new Uint8Array(maxCompressedLength(Math.max(...items.map((i) => i.length))));
const run =
  op === "c"
    ? into
      ? (i) => compressInto(items[i], out)
      : (i) => compress(items[i])
    : into
      ? (i) => uncompressInto(compressed[i], out)
      : (i) => uncompress(compressed[i]);
const started = performance.now();
for (let k = 0; k < Number(n); k++) {
  for (let i = 0; i < items.length; i++) run(i);
}
const us = ((performance.now() - started) * 1000) / Number(n);
console.log(
  `${name} ${op === "c" ? "compress" : "uncompress"}${into ? "Into" : ""}: ${us.toFixed(2)} µs/op (wall)`,
);
