#!/bin/sh
# The standard Snappy corpus: Google snappy's testdata/ (the Canterbury texts alice29.txt,
# asyoulik.txt, lcet10.txt, plrabn12.txt, and html, urls.10K, fireworks.jpeg, paper-100k.pdf,
# kppkn.gtb, geo.protodata, html_x_4). Not committed (Google's files, with their own
# licences): fetched with apt (the source package `snappy`, from the mirrors this machine's
# apt already uses) into a git-ignored cache, checked file by file, and the directory
# printed, for `scripts/time.mjs --files=<dir>`:
#
#   node scripts/time.mjs --files="$(sh scripts/corpus.sh)" --codecs=ts,napi --cpu
#
# Needs Debian or Ubuntu apt; root is not needed (apt works in a private directory). The
# testdata is the same in every snappy release since 1.1.4, so whichever the mirror has will do.
set -eu
cache="$(cd "$(dirname "$0")/.." && pwd)/node_modules/.cache/snappy-corpus"
sums="7467306ee0feed4971260f3c87421154a05be571d944e9cb021a5713700c38f0  alice29.txt
eaa3526fe53859f34ecdf255712f9ecf0b2c903451d4755b2edaa2e2599cb0fc  asyoulik.txt
93b986ce7d7e361f0d3840f9d531b5f40fb6ca8c14d6d74364150e255f126512  fireworks.jpeg
7c2875cd6d06c954240ba644618d1e1f2a167e4541731f019de5b4c1f8080f24  geo.protodata
5912445a6d50df1079f022d7e01fa615f5d128d53bad88acbf4f49e62a7ea759  html
ce3b0ceece9a0c0f66a352fd65b87a8e06357b136e99a2a85fcb3b0689ff6671  html_x_4
1df7e44e4ec9bad952e7716fbdba0a2208665091866ded43407d03ed9ce23c24  kppkn.gtb
5314ba1dbb03f471df88bec6cd120a938ef60d0fd3511c5c1dce61bf7463245f  lcet10.txt
60f73a051b7ca35bfec44734b2eed7736cb5c0b7f728beb7b97ade6c5e44849b  paper-100k.pdf
07e2e0b461af78c7c647cb53dab39de560198e16f799b4516eccf0fbd69f764c  plrabn12.txt
0319ce7fe1f51b14eace3de879fe7da15418d1525d3176c2b26c5985943a3cad  urls.10K"

check() { (cd "$cache" && echo "$sums" | sha256sum --check --quiet --status); }

if ! [ -d "$cache" ] || ! check; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  # The machine's own apt sources, as source (deb-src) entries, in a private apt directory.
  mkdir -p "$tmp/sources" "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/src"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" >"$tmp/sources/$(basename "$f")"
  done
  if [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$tmp/sources/main.list"
  fi
  apt="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$tmp/sources
    -o Dir::State::Lists=$tmp/lists -o Dir::Cache=$tmp/cache -o Debug::NoLocking=1
    -o APT::Sandbox::User=$(id -un)"
  # shellcheck disable=SC2086
  apt-get $apt -qq update >&2
  # shellcheck disable=SC2086
  (cd "$tmp/src" && apt-get $apt -qq source --download-only snappy >&2)
  tar -xzf "$tmp"/src/snappy_*.orig.tar.gz -C "$tmp/src" --wildcards '*/testdata/*'
  mkdir -p "$cache"
  for name in $(echo "$sums" | awk '{ print $2 }'); do
    cp "$tmp"/src/snappy-*/testdata/"$name" "$cache/"
  done
  if ! check; then
    echo "corpus: the snappy source package's testdata is not the expected one" >&2
    exit 1
  fi
fi
echo "$cache"
