// Which shared libsnappy to open: the caller's, the one SNAPPYKIT_FFI_LIBRARY names, or the
// system's. The C API has no version call: the version the codec reports is the one the
// caller gives (SNAPPYKIT_FFI_VERSION with the variable), else the one in the name of the
// file the path resolves to (libsnappy.so.1 -> libsnappy.so.1.2.2).

/** The environment variable that names a libsnappy shared library to open by default. */
export const LIBRARY_ENV = "SNAPPYKIT_FFI_LIBRARY";
/** The environment variable that gives that library's version. */
export const VERSION_ENV = "SNAPPYKIT_FFI_VERSION";

interface DenoHost {
  readonly build: { readonly os: string };
  readonly env: { get(name: string): string | undefined };
  realPathSync(path: string): string;
}
declare const Deno: DenoHost | undefined;

/** Where package managers put libsnappy, per platform: Debian/Ubuntu, Fedora, Homebrew. */
const SYSTEM: Readonly<Record<string, readonly string[]>> = {
  linux: [
    "/usr/lib/x86_64-linux-gnu/libsnappy.so.1",
    "/usr/lib/aarch64-linux-gnu/libsnappy.so.1",
    "/usr/lib64/libsnappy.so.1",
    "/usr/lib/libsnappy.so.1",
    "/usr/local/lib/libsnappy.so.1",
  ],
  darwin: ["/opt/homebrew/lib/libsnappy.dylib", "/usr/local/lib/libsnappy.dylib"],
};

function host() {
  if (typeof Deno !== "undefined") {
    const deno = Deno;
    const attempt = <T>(f: () => T) => {
      try {
        return f();
      } catch {
        // Deno without --allow-env or --allow-read: as if unset or absent.
        return undefined;
      }
    };
    return {
      os: deno.build.os,
      env: (name: string) => attempt(() => deno.env.get(name)),
      realPath: (path: string) => attempt(() => deno.realPathSync(path)),
    };
  }
  const fs = globalThis.process?.getBuiltinModule?.("node:fs") as
    | typeof import("node:fs")
    | undefined;
  return {
    os: globalThis.process?.platform ?? "",
    env: (name: string) => globalThis.process?.env?.[name],
    realPath: (path: string) => {
      try {
        return fs?.realpathSync(path);
      } catch {
        return undefined;
      }
    },
  };
}

/** A library to try: its path and the `name@version` it is. */
export interface Candidate {
  readonly path: string;
  readonly library: string;
}

/** `libsnappy@1.2.2`: `version`, else from the name of the file `path` resolves to. */
function libraryOf(path: string, realPath: string | undefined, version?: string): string {
  const file = (realPath ?? path).split(/[\\/]/).at(-1) ?? path;
  const found = version ?? /(\d+\.\d+\.\d+)/.exec(file)?.[1];
  return found ? `libsnappy@${found}` : `libsnappy (${file})`;
}

/**
 * The libraries to try, in order, and what was looked at (for the error when none opens):
 * `given` alone when the caller names one, else the one `SNAPPYKIT_FFI_LIBRARY` names, else
 * the system's that exist.
 */
export function locate(
  given: string | undefined,
  givenVersion: string | undefined,
): { candidates: Candidate[]; searched: string } {
  const { os, env, realPath } = host();
  const fromEnv = given === undefined ? env(LIBRARY_ENV) : undefined;
  const version = given === undefined ? fromEnv && env(VERSION_ENV) : givenVersion;
  const named = given ?? fromEnv;
  const system = SYSTEM[os] ?? [];
  const paths = named ? [named] : system.filter((path) => realPath(path));
  const searched =
    given !== undefined
      ? `the library given (${given})`
      : fromEnv
        ? `${LIBRARY_ENV}=${fromEnv}`
        : `${LIBRARY_ENV} (unset) and the system's libsnappy (${system.join(", ") || `none known on ${os}`})`;
  const candidates = paths.map((path) => ({
    path,
    library: libraryOf(path, realPath(path), version || undefined),
  }));
  return { candidates, searched };
}
