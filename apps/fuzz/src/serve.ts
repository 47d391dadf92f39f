// Child side of runner.ts: loads the subject the parent names, then runs the items it is sent
// in order, one per event-loop turn, answering each. The parent kills and replaces this
// process on a hang, a crash or runaway memory, so nothing here needs to survive that.
import { pathToFileURL } from "node:url";
import type { AdapterModule, RawBackend, RawModule, SnappyCodec } from "@snappykit/core";
import { openTarget } from "@snappykit/workspace/targets";
import { rss } from "./memory.js";
import { describeError } from "./outcome.js";
import type { ChildMessage, ParentMessage } from "./runner.js";

/** A codec row's subject: an adapter's codec (or variant), or its raw library. */
export interface Subject {
  id: string;
  /** Absolute path of the module a child imports: the adapter's main or `./raw` entry. */
  entry: string;
  target: "adapter" | "raw";
  variant?: string;
  /** The Node its children run in, when not this one. */
  execPath?: string;
}

/** Build the codec or raw library `subject` names, from its module. */
export async function openSubject(
  subject: Pick<Subject, "entry" | "target" | "variant">,
): Promise<SnappyCodec | RawBackend> {
  const { entry, target, variant } = subject;
  const mod = (await import(pathToFileURL(entry).href)) as Partial<AdapterModule & RawModule>;
  return openTarget(mod, target === "raw" ? { impl: "raw" } : { impl: "adapter", variant }, entry);
}

/** What a worker loaded: its library's name, and how to run one item. */
export interface Served<I, R> {
  library: string;
  run(item: I, index: number): R | Promise<R>;
}

/** Answer the parent's messages: `open` the subject on "load", then run the items. */
export function serve<L, I, R>(open: (load: L) => Promise<Served<I, R>>): void {
  const send = (message: ChildMessage) => process.send!(message);
  let served: Served<I, R> | undefined;
  process.on("message", (message: ParentMessage) => {
    if (message.type === "load") {
      open(message.load as L).then(
        (s) => {
          served = s;
          send({ type: "ready", library: s.library, rss: rss() });
        },
        (error: unknown) => send({ type: "loadFailed", reason: describeError(error) }),
      );
      return;
    }
    const { items } = message;
    const step = async (index: number) => {
      if (index >= items.length) return;
      const result = await served!.run(items[index] as I, index);
      send({ type: "result", index, result, rssAfter: rss() });
      // One event-loop turn per item: lets the message leave now (the parent's watchdog
      // counts from it) and lets finalizer-freed backends (snappy@7) release their buffers.
      setImmediate(() => void step(index + 1));
    };
    void step(message.from);
  });
}
