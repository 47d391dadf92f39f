// What a user's program does with snappykit installed. package-managers.mjs copies this file
// into a clean project (release-test.mjs: installed from a registry by npm, pnpm, Bun or
// Deno) and it runs there in Node, Bun or Deno. It imports nothing of the repository: only
// what argv names, by the specifier the runtime resolves (a bare name from node_modules, or
// Deno's `npm:name@version`).
//
//   <runtime> consumer-program.mjs '{"adapters": [{"name", "spec"}], "framing": {...},
//                                    "codec": {...}, "entrypoints": [{"name", "spec"}]}'
//
// Prints `ok\t<package>\t<what>` per package that passed and `FAIL\t<package>\t<step>\t<why>`
// per failure; exits 1 on any failure.

const { adapters, framing, codec: framingCodec, entrypoints = [] } = JSON.parse(process.argv[2]);

// ~96 KiB that compresses like real data: repeated text, small integers, some noise.
let seed = 42;
const noise = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed >>> 24;
};
const text = new TextEncoder().encode("attestation aggregation_bits data slot index ".repeat(800));
const payload = new Uint8Array(text.length + 60000);
payload.set(text);
for (let i = text.length; i < payload.length; i++) payload[i] = i % 7 === 0 ? noise() : i & 0x0f;
// Declares 8 bytes, writes the literal "abcd", then copies from 5 bytes back: before the start
// of the output (a read outside the buffer in a careless decoder).
const HOSTILE = Uint8Array.of(8, 0x0c, 0x61, 0x62, 0x63, 0x64, 0x01, 0x05);

let failed = 0;
const fail = (name, step, error) => {
  failed++;
  const why = String(error?.stack ?? error)
    .split("\n")
    .slice(0, 3)
    .join(" | ");
  console.log(`FAIL\t${name}\t${step}\t${why}`);
};
const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Runs `fn`, which must throw a SnappyError with `code`. */
function expectSnappyError(fn, code) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  if (error === undefined) throw new Error(`accepted hostile input (expected ${code})`);
  if (error?.name !== "SnappyError" || error.code !== code) {
    throw new Error(
      `threw ${error?.name} ${error?.code ?? ""} (expected SnappyError ${code}): ${error?.message}`,
    );
  }
}

const codecs = [];
for (const { name, spec } of adapters) {
  let codec;
  try {
    codec = await (await import(spec)).createCodec();
  } catch (error) {
    fail(name, "import and createCodec()", error);
    continue;
  }
  try {
    const compressed = codec.compress(payload);
    if (!equal(codec.uncompress(compressed, { maxLength: payload.length }), payload)) {
      throw new Error("the bytes changed");
    }
    codecs.push({ name, codec, compressed });
  } catch (error) {
    fail(name, "round trip", error);
    continue;
  }
  try {
    expectSnappyError(() => codec.uncompress(HOSTILE, { maxLength: 1024 }), "CORRUPT_INPUT");
  } catch (error) {
    fail(name, "hostile input", error);
    continue;
  }
  console.log(`ok\t${name}\t${codec.library}: round trip, hostile input rejected`);
}

// One format, many backends: every adapter decodes every other adapter's output.
for (const { name, codec } of codecs) {
  for (const other of codecs) {
    try {
      if (!equal(codec.uncompress(other.compressed), payload)) throw new Error("wrong bytes");
    } catch (error) {
      fail(name, `decoding ${other.name}'s output`, error);
    }
  }
}

if (framing) {
  try {
    const f = await import(framing.spec);
    const codec = await (await import(framingCodec.spec)).createCodec();
    const framed = f.encodeFramed(codec, payload);
    if (!equal(f.decodeFramed(codec, framed), payload))
      throw new Error("framed: the bytes changed");
    // The first chunk's CRC-32C sits after the 10-byte stream identifier and its 4-byte header.
    const corrupt = framed.slice();
    corrupt[14] ^= 0xff;
    expectSnappyError(() => f.decodeFramed(codec, corrupt), "CHECKSUM_MISMATCH");
    console.log(
      `ok\t${framing.name}\tframed round trip over ${framingCodec.name}, bad CRC rejected`,
    );
  } catch (error) {
    fail(framing.name, "framing round trip and bad CRC", error);
  }
}

for (const { name, spec } of entrypoints) {
  try {
    const m = await import(spec);
    console.log(`ok\t${name}\t${Object.keys(m).length} exports`);
  } catch (error) {
    fail(name, "import", error);
  }
}

process.exitCode = failed > 0 ? 1 : 0;
