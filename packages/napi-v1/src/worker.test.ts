// Ending a worker thread that loaded @napi-rs/snappy@1 kills the process (SIGSEGV), so the
// adapter refuses to load in one. Run in a child process: on failure it is the child that dies.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "..", "node_modules", ".worker-test");

/**
 * The entry `call` is on (src/index.ts or src/raw.ts) as JavaScript, with the loader they
 * share, in a folder of this package (so that it resolves the package's dependencies as the
 * built entry does): a worker cannot load TypeScript, and the tests may run before this
 * package is built.
 */
function entry(call: "createCodec" | "createRaw"): string {
  mkdirSync(dir, { recursive: true });
  for (const name of ["index", "load", "raw"]) {
    const { outputText } = ts.transpileModule(readFileSync(join(here, `${name}.ts`), "utf8"), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(join(dir, `${name}.js`), outputText);
  }
  return pathToFileURL(join(dir, call === "createRaw" ? "raw.js" : "index.js")).href;
}

/** In a child process: a worker imports the adapter, calls `call`, then ends by `end`. */
function inWorker(call: "createCodec" | "createRaw", end: "terminate" | "exit") {
  const worker = `
    import { parentPort } from "node:worker_threads";
    const adapter = await import(${JSON.stringify(entry(call))});
    try {
      await adapter.${call}();
      parentPort.postMessage({ loaded: true });
    } catch (error) {
      parentPort.postMessage({ code: error.code, reason: error.reason, message: error.message });
    }
    ${end === "exit" ? "process.exit(0);" : ""}
  `;
  const script = join(dir, `${call}-${end}.mjs`);
  writeFileSync(script, worker);
  const main = `
    import { Worker } from "node:worker_threads";
    const worker = new Worker(${JSON.stringify(script)}, { execArgv: [] });
    worker.once("message", async (message) => {
      console.log(JSON.stringify(message));
      ${end === "terminate" ? "await worker.terminate();" : ""}
    });
    worker.once("exit", () => setTimeout(() => console.log("survived"), 100));
  `;
  return spawnSync(process.execPath, ["--input-type=module", "-e", main], { encoding: "utf8" });
}

describe("in a worker thread", () => {
  for (const call of ["createCodec", "createRaw"] as const) {
    for (const end of ["terminate", "exit"] as const) {
      it(`${call} refuses with UNSUPPORTED, and ending the worker (${end}) leaves the process alive`, () => {
        const child = inWorker(call, end);
        expect(child.signal, child.stderr).toBeNull();
        expect(child.status, child.stderr).toBe(0);
        const [answer, survived] = child.stdout.trim().split("\n");
        expect(JSON.parse(answer!)).toMatchObject({
          code: "UNSUPPORTED",
          reason: "unsupported",
          message: expect.stringMatching(/worker thread/),
        });
        expect(survived).toBe("survived");
      });
    }
  }
});
