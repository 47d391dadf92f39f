#!/bin/sh
# Installs the workspace on a machine with only Node and npm, leaving the machine as it was:
# a pnpm 12.4.2 already on PATH is used; otherwise npx runs the pinned version from npm's
# cache (nothing global is installed or replaced). The workspace pins the same pnpm as a
# devDependency, so the root scripts (`npm test`, `npm run bench`, or `pnpm ...` where pnpm
# 12 is on PATH) run it from node_modules/.bin afterwards.
set -eu
cd "$(dirname "$0")/.."
PNPM_VERSION=12.4.2
if [ "$(pnpm --version 2>/dev/null || true)" = "$PNPM_VERSION" ]; then
  pnpm_cmd=pnpm
else
  echo "setup: running pnpm@$PNPM_VERSION through npx (a pnpm on PATH, if any, is left alone)"
  pnpm_cmd="npx --yes pnpm@$PNPM_VERSION"
fi
# snappy@6 builds Google's libsnappy with node-gyp. Offline, node-gyp cannot download
# Node's headers, and pnpm's node-gyp ignores nodedir in .npmrc, so point it at the
# headers that ship with this Node (<prefix>/include/node) through the environment.
npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
export npm_config_nodedir
# The root package's postinstall then builds snappy@6 once more for each Node LTS line of
# tools/node-lines (pnpm builds it for this Node only), with each line's own headers:
# scripts/node-addons.mjs. It runs after every install, since pnpm may rebuild snappy@6.
$pnpm_cmd install --frozen-lockfile "$@"
# Google's libsnappy 1.2.2 built for this CPU (the bench's cpp row, FFI): tools/libsnappy.
# Kept when already built; without network, compiler or cmake it says why and setup goes on.
node tools/libsnappy/build.mjs
