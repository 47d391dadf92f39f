// Worker-thread entry of the guided fuzzer: runs one target's engine and reports to the parent.
import { parentPort, workerData } from "node:worker_threads";
import { runEngine } from "./engine.js";
import { GUIDED_TARGETS } from "./targets.js";

interface Data {
  target: string;
  seconds: number;
  seed: number;
  corpusIn: string[];
  corpusOut: string;
  findingsOut: string;
  shared: SharedArrayBuffer;
}

const data = workerData as Data;
const target = GUIDED_TARGETS.find((t) => t.name === data.target);
if (!target) throw new Error(`unknown guided target ${data.target}`);
await runEngine({ ...data, target, post: (message) => parentPort!.postMessage(message) });
