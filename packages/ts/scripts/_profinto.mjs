import { loadPayloads } from "@snappykit/fixtures";
import {
  compress,
  compressInto,
  maxCompressedLength,
  uncompressInto,
} from "/work/wt-16/packages/ts/dist/index.js";

const [name = "beacon-block", op = "u", n = "2000"] = process.argv.slice(2);
const items = loadPayloads({ names: [name] })[0].items;
const compressed = items.map((item) => compress(item));
const out = new Uint8Array(maxCompressedLength(Math.max(...items.map((i) => i.length))));
const t0 = performance.now();
for (let k = 0; k < Number(n); k++)
  for (let i = 0; i < items.length; i++)
    op === "u" ? uncompressInto(compressed[i], out) : compressInto(items[i], out);
console.log((((performance.now() - t0) * 1000) / Number(n)).toFixed(2), "µs/op");
