/** Where a build's source came from. */
export type LibsnappySource =
  | { readonly kind: "debian"; readonly url: string; readonly sha256: string }
  | { readonly kind: "vendored"; readonly dir: string; readonly fallback: string }
  | { readonly kind: "checkout"; readonly dir: string };

/** How it was built: compiler, the compile flags of snappy.cc, cmake's options, CPU features. */
export interface LibsnappyFlags {
  readonly compiler: string;
  readonly cxxFlags: string;
  /** The shared library's (-fno-semantic-interposition added: build.mjs says why). */
  readonly sharedCxxFlags?: string;
  readonly cmake: readonly string[];
  readonly cpu: readonly string[];
}

export interface LibsnappyBuild {
  readonly ok: true;
  readonly version: string;
  readonly flags: LibsnappyFlags;
  readonly source: LibsnappySource;
  /** libsnappy.a: the C++ API of snappy.h. */
  readonly staticLib: string;
  /** libsnappy.so (.dylib on macOS): exports the C API of snappy-c.h. */
  readonly sharedLib: string;
  /** snappy.h, snappy-c.h, snappy-sinksource.h, snappy-stubs-public.h. */
  readonly includeDir: string;
  readonly manifest: string;
}

export type LibsnappyLocation = LibsnappyBuild | { readonly ok: false; readonly reason: string };

export const CACHE: string;
export const BUILD_SCRIPT: string;
export const SOURCE_ENV: "SNAPPYKIT_LIBSNAPPY";
export function buildDir(libsnappy?: string): string;
/** The build for a source checkout (default: $SNAPPYKIT_LIBSNAPPY, else the downloaded 1.2.2). */
export function locate(options?: { libsnappy?: string | undefined }): LibsnappyLocation;
/** One line for reports: version, where from, compiler and flags. */
export function describe(build: LibsnappyBuild): string;
