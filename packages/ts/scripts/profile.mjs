// Profile driver: runs one codec operation on one fixture in a tight loop, for
// `node --cpu-prof scripts/profile.mjs <payload> <c|u> [iterations]` (build first).
import { loadPayloads } from "@snappykit/fixtures";
import { compress, uncompress } from "../dist/index.js";

const [name = "beacon-block", op = "c", n = "2000"] = process.argv.slice(2);
const payload = loadPayloads({ names: [name] })[0];
const items = payload.items;
const compressed = items.map((item) => compress(item).slice());
const started = performance.now();
for (let k = 0; k < Number(n); k++) {
  for (let i = 0; i < items.length; i++) {
    if (op === "c") compress(items[i]);
    else uncompress(compressed[i]);
  }
}
const us = ((performance.now() - started) * 1000) / Number(n);
console.log(`${name} ${op === "c" ? "compress" : "uncompress"}: ${us.toFixed(2)} µs/op (wall)`);
