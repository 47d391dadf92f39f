// Child process of the encoder fuzz: loads one adapter codec (or variant, or raw backend),
// rebuilds each input from its spec, compresses it, and judges the stream with the reference
// decoder and with the codec's own uncompress. One result message per input.
import { pathToFileURL } from "node:url";
import { oracleUncompress } from "@snappykit/conformance/cases";
import { type AdapterModule, maxCompressedLength } from "@snappykit/core";
import { sameBytes } from "../outcome.js";
import { buildInput, type EncoderInputSpec } from "./inputs.js";
import type { EncoderChildMessage, EncoderOutcome, EncoderParentMessage } from "./protocol.js";

interface Subject {
  library: string;
  compress(input: Uint8Array): Uint8Array;
  uncompress(input: Uint8Array): Uint8Array;
}

let subject: Subject | undefined;

const send = (message: EncoderChildMessage) => process.send!(message);

function describe(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}${"code" in error && error.code !== undefined ? ` ${String(error.code)}` : ""}: ${error.message}`
      : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function firstDifference(a: Uint8Array, b: Uint8Array): string {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return `first difference at byte ${i}`;
  return `lengths ${a.length} vs ${b.length}`;
}

/** Compress `input` and judge the result. */
function judge(input: Uint8Array): { outcome: EncoderOutcome; detail: string; out: number } {
  let compressed: Uint8Array;
  try {
    compressed = subject!.compress(input);
  } catch (error) {
    return { outcome: "threw", detail: `compress threw ${describe(error)}`, out: 0 };
  }
  if (!(compressed instanceof Uint8Array)) {
    return { outcome: "threw", detail: `compress returned ${typeof compressed}`, out: 0 };
  }
  const out = compressed.length;
  let decoded: Uint8Array;
  try {
    decoded = oracleUncompress(compressed);
  } catch (error) {
    return { outcome: "invalidStream", detail: `the reference rejects the stream: ${describe(error)}`, out };
  }
  if (!sameBytes(decoded, input)) {
    return {
      outcome: "wrongBytes",
      detail: `valid stream, but it decodes to other bytes: ${firstDifference(decoded, input)}`,
      out,
    };
  }
  try {
    const own = subject!.uncompress(compressed);
    if (!sameBytes(own, input)) {
      return { outcome: "selfMismatch", detail: `own uncompress: ${firstDifference(own, input)}`, out };
    }
  } catch (error) {
    return { outcome: "selfMismatch", detail: `own uncompress threw ${describe(error)}`, out };
  }
  if (out > maxCompressedLength(input.length)) {
    return { outcome: "overBound", detail: `${out} bytes, over maxCompressedLength ${maxCompressedLength(input.length)}`, out };
  }
  return { outcome: "ok", detail: "", out };
}

async function load(entry: string, target: "codec" | "raw", variant?: string): Promise<void> {
  try {
    const mod = (await import(pathToFileURL(entry).href)) as AdapterModule;
    if (target === "raw") {
      subject = await mod.createRaw();
    } else {
      const codec =
        variant === undefined
          ? await mod.createCodec()
          : (await mod.createVariants?.())?.find((v) => v.name === variant);
      if (!codec) throw new Error(`${entry} has no variant ${variant}`);
      subject = codec;
    }
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
    const result = judge(input);
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
