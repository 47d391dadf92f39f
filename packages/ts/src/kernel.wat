;; The codec's hot loops in WebAssembly: the decoder's fast path and the block compressor
;; (where WebAssembly cannot be compiled, plain.ts decodes and compresses instead). Both work
;; only inside this module's memory, whose regions the TypeScript side views as its windows
;; and buffers (kernel.ts); every check on the stream is made there or below exactly as in
;; the TypeScript code, and everything this
;; code leaves (window moves, the tail, long or direct literals, copy-4, copies from before
;; the window, anything invalid) goes back to the checked TypeScript decoder (checked.ts).
;;
;; Why WebAssembly: an 8-byte integer move is one instruction here, and memory accesses carry
;; no bounds checks (guard pages) and no reload of a view's data pointer after each store;
;; TypeScript has only 4-byte integer moves through a DataView (float64 moves may rewrite a
;; NaN's bits) at ~3 instructions of checks each.
;;
;; Built into kernel-binary.ts by scripts/kernel.mjs (wabt, pinned); a test rebuilds it and
;; compares. Format clauses cited are from google/snappy format_description.txt.

(module
  ;; 12 pages (768 KiB). Regions, by byte address:
  ;;        0  state: [0] the decoder's output position, [4] where the compressor's last literal starts
  ;;     1024  the decoder's pattern masks (2 x 256 bytes)
  ;;     4096  IN, the decoder's input window (32 KiB)
  ;;    65536  OUT, the decoder's output window (256 KiB)
  ;;   327680  the compressor's hash table (16384 x u16)
  ;;   360448  the compressor's block (64 KiB and 16 bytes of over-read room)
  ;;   432128  the compressor's staged output (305,866 bytes: the worst case of 256 KiB, plus
  ;;           over-copy room to the end of the memory). Half a page off the block's page
  ;;           alignment: in data that does not compress, a literal lands a few bytes past
  ;;           its offset in the block, and a copy whose destination lies 1-63 bytes past its
  ;;           source modulo 4 KiB runs ~15 times slower (the CPU takes each load for one of
  ;;           the stores just made: 4K aliasing). At 430080 a blob sidecar's compress took
  ;;           54 µs, at 432128 17 µs; columns-32k-chunks' compressInto 20.6 µs, now 15.7
  ;;           (`pnpm bench --codec ts,napi --op compress,compress-into`, Node 26).
  (memory (export "memory") 12)
  (global (export "inAt") i32 (i32.const 4096))
  (global (export "outAt") i32 (i32.const 65536))
  (global (export "blockAt") i32 (i32.const 360448))
  (global (export "stagedAt") i32 (i32.const 432128))
  ;; The decoder's pattern masks (fastPath): at 1024 + 16·d, byte i is i % d; at 1280 + 16·d,
  ;; (16 + i) % d, for offsets d from 1 to 15.
  (data (i32.const 1024)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\01\00\01\00\01\00\01\00\01\00\01\00\01\00\01\02\00\01\02\00\01\02\00\01\02\00\01\02\00\00\01\02\03\00\01\02\03\00\01\02\03\00\01\02\03\00\01\02\03\04\00\01\02\03\04\00\01\02\03\04\00\00\01\02\03\04\05\00\01\02\03\04\05\00\01\02\03\00\01\02\03\04\05\06\00\01\02\03\04\05\06\00\01\00\01\02\03\04\05\06\07\00\01\02\03\04\05\06\07\00\01\02\03\04\05\06\07\08\00\01\02\03\04\05\06\00\01\02\03\04\05\06\07\08\09\00\01\02\03\04\05\00\01\02\03\04\05\06\07\08\09\0a\00\01\02\03\04\00\01\02\03\04\05\06\07\08\09\0a\0b\00\01\02\03\00\01\02\03\04\05\06\07\08\09\0a\0b\0c\00\01\02\00\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\00\01\00\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\00")
  (data (i32.const 1280)
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\01\00\01\00\01\00\01\00\01\00\01\00\01\00\01\01\02\00\01\02\00\01\02\00\01\02\00\01\02\00\01\00\01\02\03\00\01\02\03\00\01\02\03\00\01\02\03\01\02\03\04\00\01\02\03\04\00\01\02\03\04\00\01\04\05\00\01\02\03\04\05\00\01\02\03\04\05\00\01\02\03\04\05\06\00\01\02\03\04\05\06\00\01\02\03\00\01\02\03\04\05\06\07\00\01\02\03\04\05\06\07\07\08\00\01\02\03\04\05\06\07\08\00\01\02\03\04\06\07\08\09\00\01\02\03\04\05\06\07\08\09\00\01\05\06\07\08\09\0a\00\01\02\03\04\05\06\07\08\09\04\05\06\07\08\09\0a\0b\00\01\02\03\04\05\06\07\03\04\05\06\07\08\09\0a\0b\0c\00\01\02\03\04\05\02\03\04\05\06\07\08\09\0a\0b\0c\0d\00\01\02\03\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\00\01")

  ;; The decoder's fast path (checked.ts drives it), with 16-byte moves (more than the
  ;; element needs, so that its length takes no branch up to 32 or 64 bytes) and a copy's
  ;; fields computed from its tag rather than read from a table.
  ;; From IN[pos..] into OUT[op..] while pos <= fastEnd and op <= fastOutEnd (a tag with 16
  ;; input bytes after it, 72 bytes of window room). Returns the input position of the first
  ;; element it leaves; the output position goes to state[0].
  (func (export "fastPath") (param $pos i32) (param $op i32) (param $fastEnd i32) (param $fastOutEnd i32) (result i32)
    (local $end i32) (local $outLimit i32) (local $word i32) (local $tag i32) (local $length i32)
    (local $from i32) (local $done i32) (local $extra i32) (local $stop i32)
    (local $offset i32) (local $copy1 i32) (local $repeat v128) (local $next v128)
    (local.set $end (i32.add (local.get $fastEnd) (i32.const 17)))
    (local.set $outLimit (i32.add (local.get $fastOutEnd) (i32.const 72)))
    (block $exit
      (loop $element
        (br_if $exit (i32.gt_s (local.get $pos) (local.get $fastEnd)))
        (br_if $exit (i32.gt_s (local.get $op) (local.get $fastOutEnd)))
        ;; The tag and the three bytes after it: a copy's offset is among them.
        (local.set $word (i32.load offset=4096 align=1 (local.get $pos)))
        (local.set $tag (i32.and (local.get $word) (i32.const 0xff)))
        (if (i32.eqz (i32.and (local.get $tag) (i32.const 3)))
          (then
            ;; §2.1 Literal: 32 bytes moved whatever the length (the next element rewrites
            ;; what is past it; reading past the input window stays inside this memory),
            ;; which is all of one up to 32 bytes that ends inside the window; the rest for
            ;; longer ones. No branch on lengths up to 32: on blocks the branch on "up to
            ;; 16" mispredicted often (a data-dependent branch is learnt only when the same
            ;; data comes again, as in a loop over one payload).
            (local.set $length (i32.add (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 1)))
            (v128.store offset=65536 align=1 (local.get $op) (v128.load offset=4097 align=1 (local.get $pos)))
            (v128.store offset=65552 align=1 (local.get $op) (v128.load offset=4113 align=1 (local.get $pos)))
            (if (i32.and (i32.le_u (local.get $length) (i32.const 32))
                  (i32.lt_s (i32.add (local.get $pos) (local.get $length)) (local.get $end)))
              (then
                (local.set $pos (i32.add (local.get $pos) (i32.add (local.get $length) (i32.const 1))))
                (local.set $op (i32.add (local.get $op) (local.get $length)))
                (br $element)))
            (local.set $from (i32.add (local.get $pos) (i32.const 1)))
            (local.set $done (i32.const 32))
            (if (i32.gt_u (local.get $length) (i32.const 60))
              (then
                ;; length-1 in the next 1-2 bytes (3-4: the checked code).
                (local.set $extra (i32.sub (local.get $length) (i32.const 60)))
                (br_if $exit (i32.gt_u (local.get $extra) (i32.const 2)))
                (local.set $from (i32.add (local.get $from) (local.get $extra)))
                (local.set $length (i32.add (i32.const 1)
                  (if (result i32) (i32.eq (local.get $extra) (i32.const 1))
                    (then (i32.load8_u offset=4097 (local.get $pos)))
                    (else (i32.load16_u offset=4097 align=1 (local.get $pos))))))
                (local.set $done (i32.const 0))
                ;; Room in the window, with 15 bytes to spare for the 16-byte steps.
                (br_if $exit (i32.gt_s (i32.add (local.get $length) (i32.const 15))
                  (i32.sub (local.get $outLimit) (local.get $op))))
                (if (i32.ge_u (local.get $length) (i32.const 256))
                  (then
                    ;; All in the input window, and not one for the destination directly
                    ;; (windows.ts: DIRECT).
                    (br_if $exit (i32.gt_s (local.get $length) (i32.sub (local.get $end) (local.get $from))))
                    (br_if $exit (i32.ge_u (local.get $length) (i32.const 4096)))
                    (memory.copy (i32.add (local.get $op) (i32.const 65536))
                      (i32.add (local.get $from) (i32.const 4096)) (local.get $length))
                    (local.set $pos (i32.add (local.get $from) (local.get $length)))
                    (local.set $op (i32.add (local.get $op) (local.get $length)))
                    (br $element)))))
            ;; All of it in the input window (the 16-byte steps read up to 15 bytes past it,
            ;; inside this memory, and write them inside the room checked above, where the
            ;; next element rewrites them): a message's last literal, which ends at the end
            ;; of the input, is taken here too. 16-byte steps, not 8: half the turns for the
            ;; 61-255 byte literals of gossip messages (aggregate-and-proof uncompressInto
            ;; took 156 ns with 8-byte steps, 145 with these; Node 26).
            (br_if $exit (i32.gt_s (local.get $length)
              (i32.sub (local.get $end) (local.get $from))))
            (local.set $pos (i32.add (local.get $from) (local.get $length)))
            (local.set $stop (i32.add (local.get $op) (local.get $length)))
            (local.set $op (i32.add (local.get $op) (local.get $done)))
            (local.set $from (i32.add (local.get $from) (local.get $done)))
            (loop $literal
              (v128.store offset=65536 align=1 (local.get $op) (v128.load offset=4096 align=1 (local.get $from)))
              (local.set $op (i32.add (local.get $op) (i32.const 16)))
              (local.set $from (i32.add (local.get $from) (i32.const 16)))
              (br_if $literal (i32.lt_s (local.get $op) (local.get $stop))))
            (local.set $op (local.get $stop))
            (br $element)))
        ;; Copy-1 and copy-2, computed without a branch or a table load (a table entry's load
        ;; would lie on the path from one element's position to the next): §2.2.1 copy-1,
        ;; length 4..11 in bits 2..4, the offset's top 3 bits in 5..7 and one byte after the
        ;; tag; §2.2.2 copy-2, length-1 in the upper six bits, a 2-byte offset. Copy-4 gets
        ;; offset 0, which the check below sends to the checked code.
        (local.set $copy1 (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 1)))
        (local.set $offset
          (select
            (i32.or (i32.shl (i32.and (local.get $tag) (i32.const 0xe0)) (i32.const 3))
              (i32.and (i32.shr_u (local.get $word) (i32.const 8)) (i32.const 0xff)))
            (select (i32.and (i32.shr_u (local.get $word) (i32.const 8)) (i32.const 0xffff)) (i32.const 0)
              (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 2)))
            (local.get $copy1)))
        ;; Offset 0, or before the window's start: the checked code reports or reads it.
        (br_if $exit (i32.ge_u (i32.sub (local.get $offset) (i32.const 1)) (local.get $op)))
        (local.set $pos (i32.add (local.get $pos) (i32.add (i32.const 1) (i32.and (local.get $tag) (i32.const 3)))))
        (local.set $length
          (select
            (i32.add (i32.const 4) (i32.and (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 7)))
            (i32.add (i32.shr_u (local.get $tag) (i32.const 2)) (i32.const 1))
            (local.get $copy1)))
        (local.set $from (i32.sub (local.get $op) (local.get $offset)))
        (local.set $stop (i32.add (local.get $op) (local.get $length)))
        (if (i32.ge_u (local.get $offset) (i32.const 16))
          (then
            ;; From 16 or more bytes back (most copies): 32 bytes whatever the length, 64
            ;; for a longer one (a copy-1 or copy-2 is at most 64 bytes), 16 at a time; every
            ;; byte read was written before, by an earlier element or an earlier move.
            (v128.store offset=65536 align=1 (local.get $op) (v128.load offset=65536 align=1 (local.get $from)))
            (v128.store offset=65552 align=1 (local.get $op) (v128.load offset=65552 align=1 (local.get $from)))
            (if (i32.gt_u (local.get $length) (i32.const 32))
              (then
                (v128.store offset=65568 align=1 (local.get $op) (v128.load offset=65568 align=1 (local.get $from)))
                (v128.store offset=65584 align=1 (local.get $op) (v128.load offset=65584 align=1 (local.get $from)))))
            (local.set $op (local.get $stop))
            (br $element)))
        ;; §2.2 overlap from 1 to 15 bytes back (the last `offset` bytes repeat): the 16
        ;; bytes from op on, as the pattern repeats them, picked out of the 16 bytes from
        ;; `from` by i8x16.swizzle (libsnappy's pshufb) with a mask of i % offset, then each
        ;; next 16 by a mask of (16 + i) % offset (the masks' table, above); 64 bytes stored
        ;; whatever the length (a copy-1 or copy-2 is at most 64 bytes), so no branch on the
        ;; length. A run of one byte (most of these: SSZ's zero padding) is that byte's
        ;; splat: a 16-byte load from op - 1 would also read bytes the element before has
        ;; just stored, which the CPU cannot forward from its pending stores (it waits for
        ;; them), and attestation's uncompressInto took 3 % longer with it.
        (local.set $repeat
          (if (result v128) (i32.eq (local.get $offset) (i32.const 1))
            (then (v128.load8_splat offset=65536 (local.get $from)))
            (else (i8x16.swizzle (v128.load offset=65536 align=1 (local.get $from))
              (v128.load offset=1024 (i32.shl (local.get $offset) (i32.const 4)))))))
        (local.set $next (v128.load offset=1280 (i32.shl (local.get $offset) (i32.const 4))))
        (v128.store offset=65536 align=1 (local.get $op) (local.get $repeat))
        (local.set $repeat (i8x16.swizzle (local.get $repeat) (local.get $next)))
        (v128.store offset=65552 align=1 (local.get $op) (local.get $repeat))
        (local.set $repeat (i8x16.swizzle (local.get $repeat) (local.get $next)))
        (v128.store offset=65568 align=1 (local.get $op) (local.get $repeat))
        (local.set $repeat (i8x16.swizzle (local.get $repeat) (local.get $next)))
        (v128.store offset=65584 align=1 (local.get $op) (local.get $repeat))
        (local.set $op (local.get $stop))
        (br $element)))
    (i32.store (i32.const 0) (local.get $op))
    (local.get $pos))

  ;; The block compressor (libsnappy 1.1.7's CompressFragment; plain.ts has it plainly):
  ;; compress block[0..$length) into staged[$op..); returns the new op. The block's last
  ;; literal (from the last copy's end, or the whole of a block under 17 bytes) is left to the
  ;; caller: where it starts goes to state[4]. No calls: the V8 of Node 20 and 22 did not
  ;; inline them, and a call per literal cost 2-4 % of a block's compress there
  ;; (docs/findings/2026-12-ts-wasm-kernel.md).
  (func (export "compressBlock") (param $length i32) (param $op i32) (result i32)
    (local $shift i32) (local $ipLimit i32) (local $nextEmit i32) (local $ip i32)
    (local $nextBytes i32) (local $nextHash i32) (local $skip i32) (local $nextIp i32) (local $candidate i32)
    (local $bytes i32) (local $hash i32) (local $step i32) (local $s i32) (local $c i32) (local $diff i64)
    (local $current i32) (local $offset i32) (local $matched i32) (local $n i32)
    (local $copy1 i32) (local $copy2Bytes i32) (local $end i32) (local $from i32)
    (local $long i32) (local $wide i32)
    ;; Table size: the smallest power of two >= the block, within 256..16384 entries (the OR
    ;; gives at least 256), as the shift that leaves the product's top log2(size) bits as the
    ;; hash: 2^(32 - shift) entries of 2 bytes.
    (local.set $shift (i32.clz (i32.or (i32.sub (local.get $length) (i32.const 1)) (i32.const 255))))
    (if (i32.lt_u (local.get $shift) (i32.const 18)) (then (local.set $shift (i32.const 18))))
    (memory.fill (i32.const 327680) (i32.const 0) (i32.shl (i32.const 2) (i32.sub (i32.const 32) (local.get $shift))))
    ;; kInputMarginBytes: no probe past 15 bytes before the end, so in a block under 17 bytes
    ;; (ipLimit < 2, negative under 15) the first probe ends the search: one literal. (Not
    ;; returned early as libsnappy does under 15: the same literal, for a table cleared.)
    (local.set $ipLimit (i32.sub (local.get $length) (i32.const 15)))
    (local.set $ip (i32.const 1))
    (block $done
      (loop $search
        ;; A 4-byte match; after 32 misses the step grows by one every 32 probes.
        (local.set $skip (i32.const 32))
        (block $found
          ;; The first 32 probes are one byte apart: where all of them are within the limit
          ;; (the step-1 probe at ip needs ip + 1 <= ipLimit), they run without the step's
          ;; arithmetic or a bound per probe. The same probes, in the same order.
          (if (i32.le_s (i32.add (local.get $ip) (i32.const 32)) (local.get $ipLimit))
            (then
              (local.set $end (i32.add (local.get $ip) (i32.const 32)))
              (loop $near
                (local.set $bytes (i32.load offset=360448 align=1 (local.get $ip)))
                (local.set $hash (i32.shl (i32.shr_u (i32.mul (local.get $bytes) (i32.const 0x1e35a7bd)) (local.get $shift)) (i32.const 1)))
                (local.set $candidate (i32.load16_u offset=327680 (local.get $hash)))
                (i32.store16 offset=327680 (local.get $hash) (local.get $ip))
                (br_if $found (i32.eq (local.get $bytes) (i32.load offset=360448 align=1 (local.get $candidate))))
                (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
                (br_if $near (i32.lt_s (local.get $ip) (local.get $end))))
              (local.set $skip (i32.const 64))))
          (local.set $nextIp (local.get $ip))
          (local.set $nextBytes (i32.load offset=360448 align=1 (local.get $ip)))
          (local.set $nextHash (i32.shr_u (i32.mul (local.get $nextBytes) (i32.const 0x1e35a7bd)) (local.get $shift)))
          (loop $probe
            (local.set $ip (local.get $nextIp))
            (local.set $bytes (local.get $nextBytes))
            (local.set $hash (local.get $nextHash))
            (local.set $step (i32.shr_u (local.get $skip) (i32.const 5)))
            (local.set $skip (i32.add (local.get $skip) (local.get $step)))
            (local.set $nextIp (i32.add (local.get $ip) (local.get $step)))
            (br_if $done (i32.gt_s (local.get $nextIp) (local.get $ipLimit)))
            (local.set $nextBytes (i32.load offset=360448 align=1 (local.get $nextIp)))
            (local.set $nextHash (i32.shr_u (i32.mul (local.get $nextBytes) (i32.const 0x1e35a7bd)) (local.get $shift)))
            (local.set $candidate (i32.load16_u offset=327680 (i32.shl (local.get $hash) (i32.const 1))))
            (i32.store16 offset=327680 (i32.shl (local.get $hash) (i32.const 1)) (local.get $ip))
            (br_if $probe (i32.ne (local.get $bytes) (i32.load offset=360448 align=1 (local.get $candidate))))))
        ;; Everything since the last copy is a literal (§2.1, never empty). Its tag: length-1
        ;; below 60, else 60/61 and 1/2 length bytes (the fewest that fit; a block is at most
        ;; 64 KiB), as one store without branches (compress.ts: emitLiteralTag).
        (local.set $n (i32.sub (i32.sub (local.get $ip) (local.get $nextEmit)) (i32.const 1)))
        (local.set $long (i32.shr_s (i32.sub (i32.const 59) (local.get $n)) (i32.const 31)))
        (local.set $wide (i32.shr_u (i32.sub (i32.const 255) (local.get $n)) (i32.const 31)))
        (i32.store offset=432128 align=1 (local.get $op)
          (i32.xor (i32.shl (local.get $n) (i32.const 2))
            (i32.and (local.get $long)
              (i32.xor (i32.shl (local.get $n) (i32.const 2))
                (i32.or (i32.or (i32.const 240) (i32.shl (local.get $wide) (i32.const 2)))
                  (i32.shl (local.get $n) (i32.const 8)))))))
        (local.set $op (i32.add (i32.add (local.get $op) (i32.const 1)) (i32.sub (local.get $wide) (local.get $long))))
        ;; Its bytes: up to 256 moved 8 at a time, up to 7 past the end (the block has room to
        ;; read, the staged bytes past it are rewritten or never copied out); longer ones with
        ;; memory.copy.
        (local.set $end (i32.add (local.get $op) (i32.sub (local.get $ip) (local.get $nextEmit))))
        (if (i32.le_u (i32.sub (local.get $ip) (local.get $nextEmit)) (i32.const 256))
          (then
            (local.set $from (local.get $nextEmit))
            (loop $move
              (i64.store offset=432128 align=1 (local.get $op) (i64.load offset=360448 align=1 (local.get $from)))
              (local.set $op (i32.add (local.get $op) (i32.const 8)))
              (local.set $from (i32.add (local.get $from) (i32.const 8)))
              (br_if $move (i32.lt_s (local.get $op) (local.get $end)))))
          (else
            (memory.copy (i32.add (local.get $op) (i32.const 432128))
              (i32.add (local.get $nextEmit) (i32.const 360448)) (i32.sub (local.get $ip) (local.get $nextEmit)))))
        (local.set $op (local.get $end))
        ;; Copies for as long as the position right after one starts another match.
        (loop $match
          ;; Extend the match within the block (FindMatchLength), 8 bytes at a time, the
          ;; first differing byte from the XOR's lowest set bit; byte by byte near the end.
          (local.set $s (i32.add (local.get $ip) (i32.const 4)))
          (local.set $c (i32.add (local.get $candidate) (i32.const 4)))
          (block $extended
            (loop $extend
              (if (i32.gt_s (local.get $s) (i32.sub (local.get $length) (i32.const 8)))
                (then
                  (loop $tail
                    (br_if $extended (i32.ge_s (local.get $s) (local.get $length)))
                    (br_if $extended (i32.ne (i32.load8_u offset=360448 (local.get $s))
                      (i32.load8_u offset=360448 (local.get $c))))
                    (local.set $s (i32.add (local.get $s) (i32.const 1)))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $tail))))
              (local.set $diff (i64.xor (i64.load offset=360448 align=1 (local.get $s))
                (i64.load offset=360448 align=1 (local.get $c))))
              (if (i64.ne (local.get $diff) (i64.const 0))
                (then
                  (local.set $s (i32.add (local.get $s)
                    (i32.wrap_i64 (i64.shr_u (i64.ctz (local.get $diff)) (i64.const 3)))))
                  (br $extended)))
              (local.set $s (i32.add (local.get $s) (i32.const 8)))
              (local.set $c (i32.add (local.get $c) (i32.const 8)))
              (br $extend)))
          ;; EmitCopy (plain.ts: emitCopy), inline: 64-byte copies while 68 or more remain, 60
          ;; from 65..67, then the rest; each copy-1 or copy-2 chosen by a mask, one store.
          (local.set $offset (i32.sub (local.get $ip) (local.get $candidate)))
          (local.set $matched (i32.sub (local.get $s) (local.get $ip)))
          (local.set $copy2Bytes (i32.or (i32.const 2) (i32.shl (local.get $offset) (i32.const 8))))
          (loop $copy
            (local.set $n
              (select (i32.const 64)
                (select (i32.const 60) (local.get $matched) (i32.gt_s (local.get $matched) (i32.const 64)))
                (i32.ge_s (local.get $matched) (i32.const 68))))
            (local.set $copy1 (i32.shr_s
              (i32.and (i32.sub (local.get $n) (i32.const 12)) (i32.sub (local.get $offset) (i32.const 2048)))
              (i32.const 31)))
            (i32.store offset=432128 align=1 (local.get $op)
              (select
                (i32.or (i32.or (i32.or (i32.const 1) (i32.shl (i32.sub (local.get $n) (i32.const 4)) (i32.const 2)))
                  (i32.and (i32.shr_u (local.get $offset) (i32.const 3)) (i32.const 0xe0)))
                  (i32.shl (i32.and (local.get $offset) (i32.const 0xff)) (i32.const 8)))
                (i32.or (local.get $copy2Bytes) (i32.shl (i32.sub (local.get $n) (i32.const 1)) (i32.const 2)))
                (local.get $copy1)))
            (local.set $op (i32.add (i32.add (local.get $op) (i32.const 3)) (local.get $copy1)))
            (local.set $matched (i32.sub (local.get $matched) (local.get $n)))
            (br_if $copy (local.get $matched)))
          (local.set $ip (local.get $s))
          (local.set $nextEmit (local.get $ip))
          (br_if $done (i32.ge_s (local.get $ip) (local.get $ipLimit)))
          ;; Index the byte before and at the new position; try the position itself next.
          (local.set $hash (i32.shr_u (i32.mul (i32.load offset=360447 align=1 (local.get $ip))
            (i32.const 0x1e35a7bd)) (local.get $shift)))
          (i32.store16 offset=327680 (i32.shl (local.get $hash) (i32.const 1)) (i32.sub (local.get $ip) (i32.const 1)))
          (local.set $current (i32.load offset=360448 align=1 (local.get $ip)))
          (local.set $hash (i32.shr_u (i32.mul (local.get $current) (i32.const 0x1e35a7bd)) (local.get $shift)))
          (local.set $candidate (i32.load16_u offset=327680 (i32.shl (local.get $hash) (i32.const 1))))
          (i32.store16 offset=327680 (i32.shl (local.get $hash) (i32.const 1)) (local.get $ip))
          (br_if $match (i32.eq (local.get $current) (i32.load offset=360448 align=1 (local.get $candidate)))))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (br $search)))
    ;; The rest of the block is the caller's last literal.
    (i32.store offset=4 (i32.const 0) (local.get $nextEmit))
    (local.get $op))
)
