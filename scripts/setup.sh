#!/bin/sh
# Installs what a fresh machine with only Node 20 and npm lacks: pnpm (pinned, via npm —
# corepack's signature check fails on some registries), then the workspace.
set -eu
cd "$(dirname "$0")/.."
PNPM_VERSION=12.4.2
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm@$PNPM_VERSION with npm"
  npm install --global "pnpm@$PNPM_VERSION"
fi
# snappy@6 builds Google's libsnappy with node-gyp. Offline, node-gyp cannot download
# Node's headers, and pnpm's node-gyp ignores nodedir in .npmrc, so point it at the
# headers that ship with this Node (<prefix>/include/node) through the environment.
npm_config_nodedir="$(dirname "$(dirname "$(command -v node)")")"
export npm_config_nodedir
pnpm install --frozen-lockfile "$@"
