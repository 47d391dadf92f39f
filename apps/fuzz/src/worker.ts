// Child process: loads one adapter (its guarded codec or its raw backend) and decompresses
// the inputs it is sent, one per event-loop turn, reporting each result. The parent kills it
// on a hang or runaway memory and forks a fresh one, so nothing here needs to survive that.
import { pathToFileURL } from "node:url";
import type { AdapterModule, RawModule, SnappyCodec } from "@snappykit/core";
import { encodeSszSnappy } from "@snappykit/p2p";
import { openTarget } from "@snappykit/workspace/targets";
import { piecesOf, readPrefix } from "./framed.js";
import { MemoryProbe } from "./memory.js";
import { classifyReturn, classifyThrow, type Expected } from "./outcome.js";
import type { ChildMessage, LoadMessage, ParentMessage, RunMessage } from "./protocol.js";

type Decompress = (input: Uint8Array, maxLength: number | undefined) => unknown;

/**
 * A framed implementation's decode of a whole `ssz_snappy` input, cut into pieces. A library
 * that reads no prefix gets what a client hands it: the prefix read (and bounded) first, the
 * decoded length checked against it after.
 */
async function framedDecoder(
  id: string,
  codec: SnappyCodec,
): Promise<{ library: string; read: (input: Uint8Array) => Promise<Uint8Array> }> {
  const { FRAMED } = await import("@snappykit/bench/framed");
  const impl = FRAMED.find((f) => f.id === id);
  if (!impl) throw new Error(`no framed implementation "${id}"`);
  const decode = impl.decode(codec);
  const none = new Uint8Array(0);
  if (impl.overCodec) {
    return {
      library: `${impl.library} over ${codec.library}`,
      read: (input) => decode(none, piecesOf(input)),
    };
  }
  return {
    library: impl.library,
    read: async (input) => {
      const { declared, at } = readPrefix(input);
      const out = await decode(none, piecesOf(input.subarray(at)));
      if (out.length !== declared)
        throw new Error(`decoded ${out.length} bytes, the prefix declares ${declared}`);
      return out;
    },
  };
}

const probe = new MemoryProbe();
let decompress: Decompress | undefined;

function send(message: ChildMessage): void {
  process.send!(message);
}

function describeError(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}${"code" in error && error.code !== undefined ? ` ${String(error.code)}` : ""}: ${error.message}`
      : `threw ${typeof error}: ${String(error)}`;
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function describeOutput(output: unknown, expected: Expected): string {
  if (!(output instanceof Uint8Array)) return `returned ${typeof output}, not a Uint8Array`;
  const ref = expected === null ? "reference rejects" : `reference: ${expected.length} bytes`;
  let first = "";
  if (expected !== null && output.length === expected.length) {
    const at = output.findIndex((b, i) => b !== expected[i]);
    if (at >= 0) first = `, first difference at byte ${at}`;
  }
  return `returned ${output.length} bytes (${ref}${first})`;
}

async function load(message: LoadMessage): Promise<void> {
  const { entry, target, variant } = message;
  try {
    const mod = (await import(pathToFileURL(entry).href)) as Partial<AdapterModule & RawModule>;
    let library: string;
    let compress: (input: Uint8Array) => Uint8Array;
    if (target === "framed") {
      const codec = await openTarget(mod, { impl: "adapter" }, entry);
      const id = message.framed ?? "";
      const framed = await framedDecoder(id, codec);
      library = framed.library;
      compress = (input) => encodeSszSnappy(codec, input);
      decompress = (input) => framed.read(input);
    } else if (target === "adapter") {
      const codec = await openTarget(mod, { impl: "adapter", variant }, entry);
      library = codec.library;
      compress = (input) => codec.compress(input);
      decompress = (input, maxLength) =>
        codec.uncompress(input, maxLength === undefined ? undefined : { maxLength });
    } else {
      const raw = await openTarget(mod, { impl: "raw" }, entry);
      library = raw.library;
      compress = (input) => raw.compress(input);
      decompress = (input) => raw.uncompress(input);
    }
    // Warm up (lazy wasm compilation, JIT, first-call allocations) so the first fuzz
    // input is not charged for them and counted as slow.
    const sample = new TextEncoder().encode("snappykit fuzz warm-up ".repeat(40));
    for (let i = 0; i < 20; i++) await decompress(compress(sample), undefined);
    send({ type: "ready", library, rss: probe.rss() });
  } catch (error) {
    send({ type: "loadFailed", reason: describeError(error) });
  }
}

function run(message: RunMessage): void {
  const { inputs, expected, maxLength } = message;
  let index = message.from;
  const step = async () => {
    if (index >= inputs.length) return;
    const input = inputs[index]!;
    const want = expected[index]!;
    const before = probe.resetPeak();
    let outcome: ReturnType<typeof classifyReturn>;
    let detail: string;
    let ms: number;
    const start = performance.now();
    try {
      let output = decompress!(input, maxLength[index]);
      // A framed target's call is a stream: awaited (the parent's watchdog times it).
      if (output instanceof Promise) output = await output;
      ms = performance.now() - start;
      outcome = classifyReturn(output, want);
      detail = describeOutput(output, want);
    } catch (error) {
      ms = performance.now() - start;
      outcome = classifyThrow(error, want);
      detail = describeError(error);
    }
    const peak = probe.peak();
    send({
      type: "result",
      index,
      outcome,
      ms,
      rssGrowth: Math.max(0, peak - before),
      rssAfter: probe.rss(),
      detail,
    });
    index++;
    // One event-loop turn per call: lets the IPC message leave now (the parent's watchdog
    // counts from it) and lets finalizer-freed backends (snappy@7) release their buffers.
    setImmediate(() => void step());
  };
  void step();
}

process.on("message", (message: ParentMessage) => {
  if (message.type === "load") void load(message);
  else run(message);
});
