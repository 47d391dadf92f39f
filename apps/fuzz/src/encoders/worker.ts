// Child process of the encoder fuzz: loads one adapter codec (or variant, or raw backend),
// rebuilds each input from its spec, and compresses and judges it (judge.ts). One result
// message per input.
import { pathToFileURL } from "node:url";
import type { AdapterModule, RawModule } from "@snappykit/core";
import { openTarget } from "@snappykit/workspace/targets";
import { buildInput, type EncoderInputSpec } from "./inputs.js";
import { describe, type EncoderSubject, judge } from "./judge.js";
import type { EncoderChildMessage, EncoderParentMessage } from "./protocol.js";

let subject: EncoderSubject | undefined;

const send = (message: EncoderChildMessage) => process.send!(message);

async function load(entry: string, target: "adapter" | "raw", variant?: string): Promise<void> {
  try {
    const mod = (await import(pathToFileURL(entry).href)) as Partial<AdapterModule & RawModule>;
    subject = await openTarget(
      mod,
      target === "raw" ? { impl: "raw" } : { impl: "adapter", variant },
      entry,
    );
    send({ type: "ready", library: subject.library });
  } catch (error) {
    send({ type: "loadFailed", reason: describe(error) });
  }
}

function run(specs: EncoderInputSpec[], from: number): void {
  let index = from;
  const step = () => {
    if (index >= specs.length) return;
    const spec = specs[index]!;
    const input = buildInput(spec);
    const start = performance.now();
    const result = judge(subject!, input);
    send({ type: "result", index, ...result, in: input.length, ms: performance.now() - start });
    index++;
    // A turn of the event loop between inputs lets finalizer-freed buffers go.
    setImmediate(step);
  };
  step();
}

process.on("message", (message: EncoderParentMessage) => {
  if (message.type === "load") void load(message.entry, message.target, message.variant);
  else run(message.specs, message.from);
});
