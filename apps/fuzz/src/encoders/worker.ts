// Child process of the encoder fuzz: loads one adapter codec (or variant, or raw backend),
// rebuilds each input from its spec (no megabytes over IPC), and compresses and judges it.
import { openSubject, type Subject, serve } from "../serve.js";
import { buildInput, type EncoderInputSpec } from "./inputs.js";
import { type EncoderSubject, judge, type Verdict } from "./judge.js";

/** One input's verdict, its size and the time the call and its judging took. */
export type EncoderResult = Verdict & { in: number; ms: number };

serve(async (load: Subject) => {
  const subject: EncoderSubject = await openSubject(load);
  return {
    library: subject.library,
    run(spec: EncoderInputSpec): EncoderResult {
      const input = buildInput(spec);
      const start = performance.now();
      const verdict = judge(subject, input);
      return { ...verdict, in: input.length, ms: performance.now() - start };
    },
  };
});
