// Node-only helpers for adapters of native and Node-packaged backends. Kept off the main
// entry so `@snappykit/core` stays free of Node types for browser users.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { SnappyError, toSnappyError } from "./errors.js";

/**
 * View a `Uint8Array` as a Node `Buffer` without copying (for backends that insist on a
 * `Buffer`, such as snappy@6).
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * `name@version` of the package `specifier` as Node resolves it from `fromUrl` (pass
 * `import.meta.url`): read from the installed package.json, so reports name what was
 * really loaded. Works for packages whose `exports` map hides their package.json.
 */
export function installedLibrary(specifier: string, fromUrl: string | URL): string {
  const require = createRequire(fromUrl);
  let dir = dirname(require.resolve(specifier));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === specifier) return `${pkg.name}@${pkg.version}`;
    } catch {
      // no package.json at this level: keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new SnappyError("unsupported", `cannot find the package.json of ${specifier}`);
    }
    dir = parent;
  }
}

/**
 * `require` a CommonJS backend (a native addon, a WASI or wasm-bindgen build) from the
 * adapter at `fromUrl`, with its `name@version`. Called from `createCodec`, not at import,
 * so a missing or broken backend becomes a `SnappyError` `UNSUPPORTED` with the reason,
 * which the bench reports instead of crashing.
 */
export function loadBackend<T>(
  specifier: string,
  fromUrl: string | URL,
): { module: T; library: string } {
  try {
    const module = createRequire(fromUrl)(specifier) as T;
    return { module, library: installedLibrary(specifier, fromUrl) };
  } catch (error) {
    throw toSnappyError(error, `${specifier} failed to load`, "UNSUPPORTED");
  }
}

/**
 * Whether a buffer the backend hands over without copying (`sample()` makes one: a Node-API
 * external buffer) can be transferred to a worker. From Node 22 on
 * `structuredClone(x, { transfer })` throws DataCloneError for external buffers; Node 20
 * copies one and leaves it attached, so the sender keeps memory it believes it gave away.
 * The contract's "results own their memory" forbids both: adapters copy such output there.
 * Probed, not told by the version, so a runtime that lifts or adds the limit is judged as it is.
 */
export function externalBuffersTransferable(sample: () => Uint8Array): boolean {
  const { buffer } = sample();
  try {
    structuredClone(buffer, { transfer: [buffer as ArrayBuffer] });
  } catch {
    return false;
  }
  return buffer.byteLength === 0;
}
