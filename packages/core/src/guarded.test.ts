import { describe, expect, it } from "vitest";
import { isSnappyError, SnappyError } from "./errors.js";
import { type BackendSpec, guardedCodec } from "./guarded.js";

// "abcd" as one literal, declaring 4 bytes.
const abcd = Uint8Array.of(4, 0x0c, 97, 98, 99, 100);

function backend(overrides: Partial<BackendSpec> = {}): BackendSpec & { calls: number } {
  const b = {
    calls: 0,
    name: "test",
    library: "test-lib@1.0.0",
    runtime: "js" as const,
    guard: "length" as const,
    compress: (input: Uint8Array) => input,
    uncompress(_input: Uint8Array, length: number) {
      b.calls++;
      return Uint8Array.of(97, 98, 99, 100).subarray(0, length);
    },
    ...overrides,
  };
  return b;
}

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return "no error";
  } catch (error) {
    return isSnappyError(error) ? error.code : `plain ${String(error)}`;
  }
};

describe("guardedCodec", () => {
  it("passes the declared length to the backend and returns its output", () => {
    const b = backend();
    expect(guardedCodec(b).uncompress(abcd)).toEqual(Uint8Array.of(97, 98, 99, 100));
    expect(b.calls).toBe(1);
  });

  it("'length' guard stops a bomb before the backend is called", () => {
    const b = backend();
    const bomb = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0);
    expect(codeOf(() => guardedCodec(b).uncompress(bomb, { maxLength: 2 ** 32 }))).toBe(
      "CORRUPT_INPUT",
    );
    expect(codeOf(() => guardedCodec(b).uncompress(abcd, { maxLength: 3 }))).toBe("LENGTH_LIMIT");
    expect(b.calls).toBe(0);
  });

  it("'length' guard leaves the rest of the stream to the backend", () => {
    // Truncated, but within the expansion bound: the backend itself rejects it.
    const truncated = Uint8Array.of(8, 0x0c, 97, 98, 99, 100);
    const b = backend({
      uncompress: () => {
        b.calls++;
        throw new Error("snappy: corrupt input");
      },
    });
    // On that failure path only, core's walk names the fault; the backend's error is the cause.
    let error: SnappyError | undefined;
    try {
      guardedCodec(b).uncompress(truncated);
    } catch (thrown) {
      error = thrown as SnappyError;
    }
    expect(error).toMatchObject({
      code: "CORRUPT_INPUT",
      reason: "truncated",
      declared: 8,
      produced: 4,
      message:
        "test-lib@1.0.0 rejected the stream: stream produces 4 bytes, but its preamble declares 8",
    });
    expect((error!.cause as Error).message).toBe("snappy: corrupt input");
    expect(b.calls).toBe(1);
    // A stream core finds valid, rejected all the same, keeps the backend's word.
    const valid = Uint8Array.of(4, 0x0c, 97, 98, 99, 100);
    expect(() => guardedCodec(b).uncompress(valid)).toThrow(
      expect.objectContaining({
        reason: "backend-rejected",
        message: "test-lib@1.0.0 rejected the stream: snappy: corrupt input",
      }),
    );
  });

  it("'stream' guard stops an invalid stream the length guard lets through", () => {
    const truncated = Uint8Array.of(8, 0x0c, 97, 98, 99, 100);
    const trusting = backend({ guard: "stream" });
    expect(codeOf(() => guardedCodec(trusting).uncompress(truncated))).toBe("CORRUPT_INPUT");
    expect(trusting.calls).toBe(0);
  });

  it("maps backend errors and wrong-length output to SnappyError", () => {
    const throwing = backend({
      uncompress: () => {
        throw new Error("boom");
      },
      compress: () => {
        throw new TypeError("bad");
      },
    });
    expect(() => guardedCodec(throwing).uncompress(abcd)).toThrow(
      /test-lib@1.0.0 rejected the stream: boom/,
    );
    expect(codeOf(() => guardedCodec(throwing).compress(abcd))).toBe("BACKEND_ERROR");
    expect(() => guardedCodec(throwing).compress(abcd)).toThrow(
      "test-lib@1.0.0 failed to compress: bad",
    );
    expect(codeOf(() => guardedCodec(throwing).compress("x" as never))).toBe("INVALID_ARGUMENT");
    const short = backend({ uncompress: () => new Uint8Array(3) });
    expect(() => guardedCodec(short).uncompress(abcd)).toThrow(/produced 3 bytes/);
    const own = backend({
      uncompress: () => {
        throw new SnappyError("backend-failed", "out of memory");
      },
    });
    expect(codeOf(() => guardedCodec(own).uncompress(abcd))).toBe("BACKEND_ERROR");
  });

  it("offers async methods only when the backend has them, with the same guards", async () => {
    expect(guardedCodec(backend()).compressAsync).toBeUndefined();
    const codec = guardedCodec(
      backend({
        compressAsync: async (input) => input,
        uncompressAsync: async () => new Uint8Array(4),
      }),
    );
    expect(await codec.uncompressAsync!(abcd)).toHaveLength(4);
    await expect(codec.uncompressAsync!(abcd, { maxLength: 1 })).rejects.toSatisfy((e) =>
      isSnappyError(e, "LENGTH_LIMIT"),
    );
    expect(await codec.compressAsync!(abcd)).toBe(abcd);
    await expect(codec.compressAsync!("x" as never)).rejects.toSatisfy((e) =>
      isSnappyError(e, "INVALID_ARGUMENT"),
    );
  });

  it("maps async backend failures as the sync calls map them", async () => {
    const failing = guardedCodec(
      backend({
        compressAsync: async () => {
          throw new Error("pool closed");
        },
        uncompressAsync: async () => {
          throw new Error("bad offset");
        },
      }),
    );
    await expect(failing.compressAsync!(abcd)).rejects.toMatchObject({
      code: "BACKEND_ERROR",
      message: "test-lib@1.0.0 failed to compress: pool closed",
    });
    await expect(failing.uncompressAsync!(abcd)).rejects.toMatchObject({
      code: "CORRUPT_INPUT",
      message: "test-lib@1.0.0 rejected the stream: bad offset",
    });
    const short = guardedCodec(backend({ uncompressAsync: async () => new Uint8Array(3) }));
    await expect(short.uncompressAsync!(abcd)).rejects.toMatchObject({
      code: "CORRUPT_INPUT",
      message: "test-lib@1.0.0 produced 3 bytes, but the stream declares 4",
    });
  });

  it("hands a backend that borrows its async input a copy taken at call time", async () => {
    // A thread pool that reads the input only later: what it reads is what it returns.
    const later = (input: Uint8Array) =>
      new Promise<Uint8Array>((resolve) => setTimeout(() => resolve(new Uint8Array(input))));
    const run = async (asyncBorrowsInput: boolean) => {
      const codec = guardedCodec(
        backend({
          asyncBorrowsInput,
          compressAsync: later,
          uncompressAsync: (input) => later(input).then(() => Uint8Array.of(97, 98, 99, 100)),
        }),
      );
      const input = Uint8Array.of(1, 2, 3);
      const pending = codec.compressAsync!(input);
      input.fill(9); // the caller reuses its buffer before the promise settles
      return Array.from(await pending);
    };
    expect(await run(true)).toEqual([1, 2, 3]);
    expect(await run(false)).toEqual([9, 9, 9]); // what the copy prevents
  });

  it("returns plain Uint8Arrays that own their memory", () => {
    const pooled = new Uint8Array(64).fill(7);
    const codec = guardedCodec(
      backend({
        compress: () => pooled.subarray(8, 12),
        uncompress: () => {
          class Sub extends Uint8Array {}
          return new Sub(4);
        },
      }),
    );
    const c = codec.compress(abcd);
    expect(Object.getPrototypeOf(c)).toBe(Uint8Array.prototype);
    expect(c.buffer.byteLength).toBe(4);
    const u = codec.uncompress(abcd);
    expect(Object.getPrototypeOf(u)).toBe(Uint8Array.prototype);
    expect(u.length).toBe(4);
  });

  it("retypes a fresh output in place when the backend declares freshOutput", () => {
    class Sub extends Uint8Array {}
    const out = new Sub(4).fill(5);
    const codec = guardedCodec(backend({ freshOutput: true, compress: () => out }));
    const c = codec.compress(abcd);
    // The same object, now a plain Uint8Array: no view made, no copy.
    expect(c).toBe(out);
    expect(Object.getPrototypeOf(c)).toBe(Uint8Array.prototype);
    expect(c).toEqual(new Uint8Array(4).fill(5));
  });

  it("gives every codec uncompressedLength and maxCompressedLength", () => {
    const codec = guardedCodec(backend());
    expect(codec.uncompressedLength!(abcd)).toBe(4);
    expect(codeOf(() => codec.uncompressedLength!(abcd, { maxLength: 3 }))).toBe("LENGTH_LIMIT");
    expect(codec.maxCompressedLength!(6)).toBe(39);
    expect(codeOf(() => codec.maxCompressedLength!(-1))).toBe("INVALID_ARGUMENT");
    const roomy = guardedCodec(backend({ maxCompressedLength: (n) => 40 + n }));
    expect(roomy.maxCompressedLength!(6)).toBe(46);
    expect(roomy.maxCompressedLength!(600)).toBe(732);
  });

  it("offers *Into only when the backend has them, checking the output first", () => {
    expect(guardedCodec(backend()).compressInto).toBeUndefined();
    expect(guardedCodec(backend()).uncompressInto).toBeUndefined();
    const seen: number[] = [];
    const codec = guardedCodec(
      backend({
        compressInto: (input, output) => {
          output.set(input);
          return input.length;
        },
        uncompressInto: (_input, output) => {
          seen.push(output.length);
          output.set(Uint8Array.of(97, 98, 99, 100));
          return 4;
        },
      }),
    );
    const out = new Uint8Array(64).fill(0xee);
    expect(codec.uncompressInto!(abcd, out)).toBe(4);
    expect(seen).toEqual([4]); // the backend sees exactly the declared length
    expect(out.subarray(0, 5)).toEqual(Uint8Array.of(97, 98, 99, 100, 0xee));
    expect(codeOf(() => codec.uncompressInto!(abcd, new Uint8Array(3)))).toBe("OUTPUT_TOO_SMALL");
    expect(codeOf(() => codec.uncompressInto!(abcd, out, { maxLength: 3 }))).toBe("LENGTH_LIMIT");
    expect(codeOf(() => codec.uncompressInto!(abcd, "x" as never))).toBe("INVALID_ARGUMENT");
    expect(seen).toEqual([4]);
    expect(codec.compressInto!(abcd, new Uint8Array(39))).toBe(6);
    expect(codeOf(() => codec.compressInto!(abcd, new Uint8Array(38)))).toBe("OUTPUT_TOO_SMALL");
    const shared = new Uint8Array(100);
    expect(codeOf(() => codec.compressInto!(shared.subarray(0, 6), shared.subarray(3)))).toBe(
      "INVALID_ARGUMENT",
    );
    const liar = guardedCodec(backend({ uncompressInto: () => 3, compressInto: () => 99 }));
    expect(codeOf(() => liar.uncompressInto!(abcd, out))).toBe("CORRUPT_INPUT");
    expect(() => liar.uncompressInto!(abcd, out)).toThrow(
      "test-lib@1.0.0 produced 3 bytes, but the stream declares 4",
    );
    expect(codeOf(() => liar.compressInto!(abcd, new Uint8Array(39)))).toBe("BACKEND_ERROR");
    expect(() => liar.compressInto!(abcd, new Uint8Array(39))).toThrow(
      "test-lib@1.0.0 reported writing 99 bytes",
    );
    expect(codeOf(() => codec.compressInto!("x" as never, new Uint8Array(39)))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("accepts a compressInto count from 0 to the output's length, nothing else", () => {
    const output = new Uint8Array(39);
    for (const [written, code] of [
      [0, "no error"],
      [39, "no error"],
      [40, "BACKEND_ERROR"],
      [-1, "BACKEND_ERROR"],
      [2.5, "BACKEND_ERROR"],
    ] as const) {
      const codec = guardedCodec(backend({ compressInto: () => written }));
      expect(
        codeOf(() => codec.compressInto!(abcd, output)),
        `${written}`,
      ).toBe(code);
    }
  });

  it("maps *Into backend failures to SnappyError", () => {
    const failing = guardedCodec(
      backend({
        compressInto: () => {
          throw new RangeError("offset out of bounds");
        },
        uncompressInto: () => {
          throw new Error("bad offset");
        },
      }),
    );
    expect(() => failing.compressInto!(abcd, new Uint8Array(39))).toThrow(
      expect.objectContaining({
        code: "BACKEND_ERROR",
        message: "test-lib@1.0.0 failed to compress: offset out of bounds",
      }),
    );
    expect(() => failing.uncompressInto!(abcd, new Uint8Array(4))).toThrow(
      expect.objectContaining({
        code: "CORRUPT_INPUT",
        message: "test-lib@1.0.0 rejected the stream: bad offset",
      }),
    );
  });
});

describe("guardedCodec on a backend that rejects a legal form", () => {
  // 8 × "A": a literal of 7 in the 1-byte length form, then one of 1 in it, at the end.
  const extended = Uint8Array.of(8, 0xf0, 6, ...Array(7).fill(0x41), 0xf0, 0, 0x41);
  const eight = new Uint8Array(8).fill(0x41);
  // Reads four length bytes after every extended-literal tag, as Rust snap does.
  const picky = (input: Uint8Array) => {
    if (input.includes(0xf0)) throw new Error("snappy: corrupt input (expected literal read)");
    return eight;
  };

  for (const guard of ["length", "stream"] as const) {
    it(`decodes it again in the shortest form (${guard} guard), every path`, async () => {
      const seen: Uint8Array[] = [];
      const codec = guardedCodec(
        backend({
          guard,
          uncompress: (input) => {
            seen.push(input.slice());
            return picky(input);
          },
          uncompressAsync: async (input) => picky(input),
          uncompressInto: (input, output) => {
            output.set(picky(input));
            return 8;
          },
        }),
      );
      expect(codec.uncompress(extended)).toEqual(eight);
      expect(seen.map((s) => s.length)).toEqual([13, 11]);
      expect(await codec.uncompressAsync!(extended)).toEqual(eight);
      const out = new Uint8Array(8);
      expect(codec.uncompressInto!(extended, out)).toBe(8);
      expect(out).toEqual(eight);
    });
  }

  it("keeps backend-rejected, with the backend's error, when the shortest form fails too", () => {
    const b = backend({
      uncompress: () => {
        b.calls++;
        throw new Error("no");
      },
    });
    const error = (() => {
      try {
        guardedCodec(b).uncompress(extended);
      } catch (e) {
        return e as SnappyError;
      }
    })();
    expect(error?.reason).toBe("backend-rejected");
    expect(b.calls).toBe(2);
    // A valid stream already in its shortest form is not tried twice.
    b.calls = 0;
    expect(codeOf(() => guardedCodec(b).uncompress(abcd))).toBe("CORRUPT_INPUT");
    expect(b.calls).toBe(1);
  });

  it("never retries an invalid stream", () => {
    const b = backend({
      uncompress: () => {
        b.calls++;
        throw new Error("no");
      },
    });
    // The extended literal's data runs past the end.
    expect(codeOf(() => guardedCodec(b).uncompress(Uint8Array.of(8, 0xf0, 7, 0x41)))).toBe(
      "CORRUPT_INPUT",
    );
    expect(b.calls).toBe(1);
  });
});
