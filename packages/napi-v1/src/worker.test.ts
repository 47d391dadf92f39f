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
 * src/index.ts as JavaScript, in a folder of this package (so that it resolves the package's
 * dependencies as the built entry does): a worker cannot load TypeScript, and the tests may
 * run before this package is built.
 */
function entry(): string {
  mkdirSync(dir, { recursive: true });
  const { outputText } = ts.transpileModule(readFileSync(join(here, "index.ts"), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = join(dir, "index.mjs");
  writeFileSync(file, outputText);
  return pathToFileURL(file).href;
}

/** In a child process: a worker imports the adapter, calls `call`, then ends by `end`. */
function inWorker(call: "createCodec" | "createRaw", end: "terminate" | "exit") {
  const worker = `
    import { parentPort } from "node:worker_threads";
    const adapter = await import(${JSON.stringify(entry())});
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
