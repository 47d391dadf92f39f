// Coverage feedback for the guided fuzzer: V8's own block coverage (the inspector's
// Profiler.takePreciseCoverage with callCount + detailed), read after every execution.
// V8 reports a nested block only when its count differs from its parent's, so a block's
// count is the count of the innermost reported range that contains it; blocks become known
// the first time V8 reports them, and a known block counts as reached once its effective
// count is non-zero. No instrumentation or build step: the coverage is of the shipped dist.
import { type Profiler, Session } from "node:inspector";

/** AFL-style hit-count buckets: a block run 1, 2, 3, 4–7, 8–15, 16–31, 32–127 or 128+ times. */
function bucket(count: number): number {
  if (count <= 3) return count;
  if (count <= 7) return 4;
  if (count <= 15) return 5;
  if (count <= 31) return 6;
  if (count <= 127) return 7;
  return 8;
}

/** The blocks V8 has reported for one function, by their `start:end` key. */
interface KnownFunction {
  url: string;
  blocks: Map<string, { start: number; end: number; id: number }>;
}

/** A block V8 reported but no execution reached: its script and character offsets. */
export interface Block {
  url: string;
  start: number;
  end: number;
}

export class BlockCoverage {
  readonly #session = new Session();
  readonly #scope: RegExp;
  /** Known functions by `url@functionStart`. */
  readonly #functions = new Map<string, KnownFunction>();
  readonly #reached = new Set<number>();
  readonly #features = new Set<number>();
  #nextId = 0;

  /** Cover the scripts whose URL matches `scope` (only their blocks count). */
  constructor(scope: RegExp) {
    this.#scope = scope;
    this.#session.connect();
    this.#post("Profiler.enable");
    this.#post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  }

  // A same-thread inspector session answers synchronously, which keeps one execution's
  // coverage apart from the next.
  #post(method: string, params?: object): unknown {
    let result: unknown;
    let failure: Error | null = null;
    this.#session.post(method, params, (error, value) => {
      failure = error;
      result = value;
    });
    if (failure) throw failure;
    return result;
  }

  /** Drop the counts accumulated so far (before the first execution that is judged). */
  reset(): void {
    this.#post("Profiler.takePreciseCoverage");
  }

  /**
   * Read and reset the counts of the last execution; returns how many features (block ×
   * hit-count bucket) it reached that no earlier execution reached, and counts them as seen.
   */
  collect(): { newFeatures: number } {
    const { result } = this.#post(
      "Profiler.takePreciseCoverage",
    ) as Profiler.TakePreciseCoverageReturnType;
    let fresh = 0;
    for (const script of result) {
      if (!this.#scope.test(script.url)) continue;
      for (const fn of script.functions) {
        const ranges = fn.ranges;
        const root = ranges[0];
        if (!root) continue;
        const key = `${script.url}@${root.startOffset}`;
        let known = this.#functions.get(key);
        if (!known) {
          known = { url: script.url, blocks: new Map() };
          this.#functions.set(key, known);
        }
        for (const r of ranges) {
          const k = `${r.startOffset}:${r.endOffset}`;
          if (!known.blocks.has(k)) {
            known.blocks.set(k, { start: r.startOffset, end: r.endOffset, id: this.#nextId++ });
          }
        }
        if (root.count === 0) continue;
        for (const block of known.blocks.values()) {
          // Innermost reported range containing the block: ranges come outer first.
          let count = 0;
          for (const r of ranges) {
            if (r.startOffset <= block.start && block.end <= r.endOffset) count = r.count;
          }
          if (count === 0) continue;
          const feature = block.id * 16 + bucket(count);
          if (this.#features.has(feature)) continue;
          fresh++;
          this.#features.add(feature);
          this.#reached.add(block.id);
        }
      }
    }
    return { newFeatures: fresh };
  }

  /**
   * Forget what was reached but keep the blocks learnt. A block is known only once V8 reports
   * it, which it may first do after an execution that ran it (a block run as often as its
   * parent is not reported), so an exact count replays the inputs after a first pass.
   */
  forgetReached(): void {
    this.#reached.clear();
    this.#features.clear();
  }

  /** Blocks V8 has reported in scope, blocks reached, and features seen. */
  stats(): { blocksKnown: number; blocksReached: number; features: number } {
    const features = this.#features.size;
    return { blocksKnown: this.#nextId, blocksReached: this.#reached.size, features };
  }

  /** Blocks known but never reached, innermost last. */
  unreached(): Block[] {
    const out: Block[] = [];
    for (const fn of this.#functions.values()) {
      for (const b of fn.blocks.values()) {
        if (!this.#reached.has(b.id)) out.push({ url: fn.url, start: b.start, end: b.end });
      }
    }
    return out;
  }

  close(): void {
    try {
      this.#post("Profiler.stopPreciseCoverage");
    } finally {
      this.#session.disconnect();
    }
  }
}
