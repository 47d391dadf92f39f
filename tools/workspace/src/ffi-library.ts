// The libsnappy that @snappykit/ffi opens in this workspace: the shared build of
// tools/libsnappy (the library the bench's cpp row links), handed to the adapter through
// the environment variables it reads, so that every child process (bench forks, fuzz
// children, runtimes, release projects) opens the same one. The adapter itself never
// imports workspace tools.
import { locate } from "@snappykit/libsnappy-build";

/**
 * Set `SNAPPYKIT_FFI_LIBRARY` and `SNAPPYKIT_FFI_VERSION` in this process's environment to
 * tools/libsnappy's shared build, unless the caller set them; returns why there is none
 * (not built yet), or undefined.
 */
export function provideFfiLibrary(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SNAPPYKIT_FFI_LIBRARY) return undefined;
  const build = locate();
  if (!build.ok) return build.reason;
  env.SNAPPYKIT_FFI_LIBRARY = build.sharedLib;
  env.SNAPPYKIT_FFI_VERSION = build.version;
  return undefined;
}
