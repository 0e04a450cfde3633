;; hitmask's mask kernels, hand-written WebAssembly with 128-bit SIMD. This part: the module's memory, the
;; strip scheme ($strip) and the constant-shift loops with their table ($shifts). The other parts, each a
;; module that wabt reads on its own: wasm-pairs.wat (pair queries), wasm-combine.wat (pair writes),
;; wasm-batch.wat (batched overlaps, word fills and copies), wasm-raster.wat (raster queries) and
;; wasm-rgba.wat (mask bits from RGBA pixels). scripts/build-wasm.ts merges them, in that order, into the
;; one module shipped (src/kernels/README.md).
;;
;; Layout (see src/core/mask.ts): pixel (x, y) is bit x&31 of word (x>>5)*height + y, so one v128 holds
;; 4 consecutive rows of one 32-px strip and the sub-word x offset is one uniform lane shift.
;; Hand-written rather than compiled: clang scalarised the uniform shifts into 4x extract/replace_lane.
;; Every i32x4.shl / i32x4.shr_u here takes one scalar count (taken mod 32).
;;
;; Pair kernels take the clip computed in JS (x0..x1 × y0..y1 in A's pixels, B's top-left at dx, dy)
;; and byte pointers ap/bp to the masks' words; ah/bh are heights, bn is B's strip count.
;; The strip scheme matches src/kernels/kernels.ts: o = s*32 - dx, bs = o >> 5, sh = o & 31; when sh != 0
;; and both B strips bs, bs+1 exist, a row is (B[bs] >>> sh) | (B[bs+1] << (32 - sh)), otherwise it is
;; one word (B >>> rs) << ls. The `memory` line is rewritten by scripts/build-wasm.ts to build a
;; shared-memory and a plain-memory variant.
(module
  (memory (import "env" "memory") 1 65536 shared)

  ;; The strip scheme (see above) for A's strip s, B's rows from A's row y0: returns B's byte pointers bi
  ;; and bj (the next strip), the shifts rs and ls, and `both`: 1 where a row is (B[bi] >>> rs) | (B[bj] << ls),
  ;; 0 where it is (B[bi] >>> rs) << ls (bi moved to strip 0 when bs = -1). Written once, called per strip.
  (func $strip
    (param $s i32) (param $dx i32) (param $dy i32) (param $y0 i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (result i32 i32 i32 i32 i32)
    (local $o i32) (local $bs i32) (local $sh i32) (local $bi i32) (local $step i32)
    (local.set $o (i32.sub (i32.shl (local.get $s) (i32.const 5)) (local.get $dx)))
    (local.set $bs (i32.shr_s (local.get $o) (i32.const 5)))
    (local.set $sh (i32.and (local.get $o) (i32.const 31)))
    (local.set $step (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $bi (i32.add (local.get $bp)
      (i32.shl (i32.add (i32.mul (local.get $bs) (local.get $bh)) (i32.sub (local.get $y0) (local.get $dy)))
        (i32.const 2))))
    (if (i32.and (i32.ne (local.get $sh) (i32.const 0))
          (i32.and (i32.ge_s (local.get $bs) (i32.const 0))
            (i32.lt_s (i32.add (local.get $bs) (i32.const 1)) (local.get $bn))))
      (then (return (local.get $bi) (i32.add (local.get $bi) (local.get $step)) (local.get $sh)
              (i32.sub (i32.const 32) (local.get $sh)) (i32.const 1))))
    ;; bs = -1 only with sh != 0 (a clipped strip starts less than 32 px left of B's first pixel)
    (if (i32.lt_s (local.get $bs) (i32.const 0))
      (then (return (i32.add (local.get $bi) (local.get $step)) (i32.const 0) (i32.const 0)
              (i32.sub (i32.const 32) (local.get $sh)) (i32.const 0))))
    (local.get $bi) (i32.const 0) (local.get $sh) (i32.const 0) (i32.const 0))

  ;; Loops with constant shifts, one function per shift. The @each block below is the copy for shift 1:
  ;; scripts/build-wasm.ts writes it once per shift 1..31, each `1 (;SH;)` set to the shift, each
  ;; `31 (;LS;)` to 32 minus it, each function's name ending in the shift ($scanBoth1 … $scanBoth31);
  ;; `$scanBoth1 (;@each;)` in the table becomes the 31 names. V8 compiles a shift by a variable into four
  ;; instructions (movq, and 31, vmovq, vpsrld) and repeats them at every use; a constant shift is one
  ;; instruction. The kernels pick the function for the strip's shift through the table $shifts: index
  ;; sh - 1 for $scanBoth, 30 + sh for $areaBoth, 61 + sh for $andBoth, 92 + sh for $rowsBoth.
  (type $scan (func (param i32 i32 i32 i32) (result i32)))
  (type $count (func (param i32 i32 i32 i32) (result v128)))
  (type $write (func (param i32 i32 i32 i32 i32)))
  (type $rows (func (param i32 i32 i32 i32 i32 i32 i32) (result i32 i32)))
  (table $shifts 124 funcref)
  (elem (table $shifts) (i32.const 0)
    func $scanBoth1 (;@each;) $areaBoth1 (;@each;) $andBoth1 (;@each;) $rowsBoth1 (;@each;))

  ;; @each
  ;; The rows from ai where A meets (B[bi] >>> SH) | (B[bj] << LS), 16 then 4 at a time: returns the
  ;; ai of the first block that hits, or where fewer than 4 rows are left; the caller's row loop goes on from there.
  (func $scanBoth1 (type $scan) (param $ai i32) (param $bi i32) (param $bj i32) (param $end i32) (result i32)
    (block $vdone (loop $v
      (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 64)) (local.get $end)))
      (br_if $vdone (v128.any_true (v128.or (v128.or
            (v128.and (v128.load (local.get $ai))
              (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (i32.const 1 (;SH;)))
                       (i32x4.shl (v128.load (local.get $bj)) (i32.const 31 (;LS;)))))
            (v128.and (v128.load offset=16 (local.get $ai))
              (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (i32.const 1 (;SH;)))
                       (i32x4.shl (v128.load offset=16 (local.get $bj)) (i32.const 31 (;LS;))))))
          (v128.or
            (v128.and (v128.load offset=32 (local.get $ai))
              (v128.or (i32x4.shr_u (v128.load offset=32 (local.get $bi)) (i32.const 1 (;SH;)))
                       (i32x4.shl (v128.load offset=32 (local.get $bj)) (i32.const 31 (;LS;)))))
            (v128.and (v128.load offset=48 (local.get $ai))
              (v128.or (i32x4.shr_u (v128.load offset=48 (local.get $bi)) (i32.const 1 (;SH;)))
                       (i32x4.shl (v128.load offset=48 (local.get $bj)) (i32.const 31 (;LS;)))))))))
      (local.set $ai (i32.add (local.get $ai) (i32.const 64)))
      (local.set $bi (i32.add (local.get $bi) (i32.const 64)))
      (local.set $bj (i32.add (local.get $bj) (i32.const 64)))
      (br $v)))
    ;; Then 4 rows at a time, so that at most 3 rows (or the 16 that hit) are left to the row loop.
    (block $wdone (loop $w
      (br_if $wdone (i32.gt_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end)))
      (br_if $wdone (v128.any_true (v128.and (v128.load (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (i32.const 1 (;SH;)))
                 (i32x4.shl (v128.load (local.get $bj)) (i32.const 31 (;LS;)))))))
      (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
      (local.set $bi (i32.add (local.get $bi) (i32.const 16)))
      (local.set $bj (i32.add (local.get $bj) (i32.const 16)))
      (br $w)))
    (local.get $ai))

  ;; Per-lane popcounts of A & ((B[bi] >>> SH) | (B[bj] << LS)) over the rows from ai, 16 at a time
  ;; while 16 remain (the caller counts the last ones).
  (func $areaBoth1 (type $count) (param $ai i32) (param $bi i32) (param $bj i32) (param $end i32) (result v128)
    (local $acc v128) (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (block $vdone (loop $v
      (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 64)) (local.get $end)))
      (local.set $v0 (v128.and (v128.load (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load (local.get $bj)) (i32.const 31 (;LS;))))))
      (local.set $v1 (v128.and (v128.load offset=16 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=16 (local.get $bj)) (i32.const 31 (;LS;))))))
      (local.set $v2 (v128.and (v128.load offset=32 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=32 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=32 (local.get $bj)) (i32.const 31 (;LS;))))))
      (local.set $v3 (v128.and (v128.load offset=48 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=48 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=48 (local.get $bj)) (i32.const 31 (;LS;))))))
      ;; 16 rows that do not meet (most, where sprites' clips are mostly transparent) skip the popcounts
      (if (v128.any_true (v128.or (v128.or (local.get $v0) (local.get $v1)) (v128.or (local.get $v2) (local.get $v3))))
        (then (local.set $acc (i32x4.add (local.get $acc)
          (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.add
            (i8x16.add (i8x16.popcnt (local.get $v0)) (i8x16.popcnt (local.get $v1)))
            (i8x16.add (i8x16.popcnt (local.get $v2)) (i8x16.popcnt (local.get $v3))))))))))
      (local.set $ai (i32.add (local.get $ai) (i32.const 64)))
      (local.set $bi (i32.add (local.get $bi) (i32.const 64)))
      (local.set $bj (i32.add (local.get $bj) (i32.const 64)))
      (br $v)))
    (local.get $acc))
  ;; C = A & ((B[bi] >>> SH) | (B[bj] << LS)) for the rows from ai (C's from ci), 16 at a time while
  ;; 16 remain (the caller does the last ones): overlapMask.
  (func $andBoth1 (type $write) (param $ai i32) (param $bi i32) (param $bj i32) (param $end i32) (param $ci i32)
    (block $vdone (loop $v
      (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 64)) (local.get $end)))
      (v128.store (local.get $ci) (v128.and (v128.load (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load (local.get $bj)) (i32.const 31 (;LS;))))))
      (v128.store offset=16 (local.get $ci) (v128.and (v128.load offset=16 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=16 (local.get $bj)) (i32.const 31 (;LS;))))))
      (v128.store offset=32 (local.get $ci) (v128.and (v128.load offset=32 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=32 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=32 (local.get $bj)) (i32.const 31 (;LS;))))))
      (v128.store offset=48 (local.get $ci) (v128.and (v128.load offset=48 (local.get $ai))
        (v128.or (i32x4.shr_u (v128.load offset=48 (local.get $bi)) (i32.const 1 (;SH;)))
          (i32x4.shl (v128.load offset=48 (local.get $bj)) (i32.const 31 (;LS;))))))
      (local.set $ai (i32.add (local.get $ai) (i32.const 64)))
      (local.set $bi (i32.add (local.get $bi) (i32.const 64)))
      (local.set $bj (i32.add (local.get $bj) (i32.const 64)))
      (local.set $ci (i32.add (local.get $ci) (i32.const 64)))
      (br $v))))
  ;; Groups of 16 rows across the strips, for $firstRows (wasm-pairs.wat): A from a (its first strip), B's
  ;; strip bs + 1 of that strip from b; n strips with both B strips, then (edges & 2) the right edge's
  ;; strip with strip bs alone; (edges & 1) the first strip is on the left edge (no strip bs). Each B word
  ;; is loaded once: strip bs + 1 of one strip is strip bs of the next. Group after group until a reaches
  ;; end (the last group ends there, seeing some rows twice): returns the a of the first group that hits
  ;; and its rows that hit (bit k: row k), or end and 0.
  (func $rowsBoth1 (type $rows) (param $a i32) (param $b i32) (param $n i32) (param $astep i32) (param $bstep i32)
    (param $edges i32) (param $end i32) (result i32 i32)
    (local $pa i32) (local $pb i32) (local $k i32) (local $m i32)
    (local $c0 v128) (local $c1 v128) (local $c2 v128) (local $c3 v128)
    (local $n0 v128) (local $n1 v128) (local $n2 v128) (local $n3 v128)
    (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (block $none (loop $group
      (local.set $pa (local.get $a))
      (local.set $pb (local.get $b))
      (local.set $c0 (v128.const i64x2 0 0))
      (local.set $c1 (v128.const i64x2 0 0))
      (local.set $c2 (v128.const i64x2 0 0))
      (local.set $c3 (v128.const i64x2 0 0))
      (if (i32.eqz (i32.and (local.get $edges) (i32.const 1)))
        (then
          (local.set $k (i32.sub (local.get $pb) (local.get $bstep)))
          (local.set $c0 (v128.load (local.get $k)))
          (local.set $c1 (v128.load offset=16 (local.get $k)))
          (local.set $c2 (v128.load offset=32 (local.get $k)))
          (local.set $c3 (v128.load offset=48 (local.get $k)))))
      (local.set $acc0 (v128.const i64x2 0 0))
      (local.set $acc1 (v128.const i64x2 0 0))
      (local.set $acc2 (v128.const i64x2 0 0))
      (local.set $acc3 (v128.const i64x2 0 0))
      (local.set $k (local.get $n))
      (block $sdone (loop $strip
        (br_if $sdone (i32.eqz (local.get $k)))
        (local.set $n0 (v128.load (local.get $pb)))
        (local.set $n1 (v128.load offset=16 (local.get $pb)))
        (local.set $n2 (v128.load offset=32 (local.get $pb)))
        (local.set $n3 (v128.load offset=48 (local.get $pb)))
        (local.set $acc0 (v128.or (local.get $acc0) (v128.and (v128.load (local.get $pa))
          (v128.or (i32x4.shr_u (local.get $c0) (i32.const 1 (;SH;)))
            (i32x4.shl (local.get $n0) (i32.const 31 (;LS;)))))))
        (local.set $acc1 (v128.or (local.get $acc1) (v128.and (v128.load offset=16 (local.get $pa))
          (v128.or (i32x4.shr_u (local.get $c1) (i32.const 1 (;SH;)))
            (i32x4.shl (local.get $n1) (i32.const 31 (;LS;)))))))
        (local.set $acc2 (v128.or (local.get $acc2) (v128.and (v128.load offset=32 (local.get $pa))
          (v128.or (i32x4.shr_u (local.get $c2) (i32.const 1 (;SH;)))
            (i32x4.shl (local.get $n2) (i32.const 31 (;LS;)))))))
        (local.set $acc3 (v128.or (local.get $acc3) (v128.and (v128.load offset=48 (local.get $pa))
          (v128.or (i32x4.shr_u (local.get $c3) (i32.const 1 (;SH;)))
            (i32x4.shl (local.get $n3) (i32.const 31 (;LS;)))))))
        (local.set $c0 (local.get $n0))
        (local.set $c1 (local.get $n1))
        (local.set $c2 (local.get $n2))
        (local.set $c3 (local.get $n3))
        (local.set $pa (i32.add (local.get $pa) (local.get $astep)))
        (local.set $pb (i32.add (local.get $pb) (local.get $bstep)))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $strip)))
      (if (i32.and (local.get $edges) (i32.const 2))
        (then
          (local.set $acc0 (v128.or (local.get $acc0)
                             (v128.and (v128.load (local.get $pa)) (i32x4.shr_u (local.get $c0) (i32.const 1 (;SH;))))))
          (local.set $acc1 (v128.or (local.get $acc1)
                             (v128.and (v128.load offset=16 (local.get $pa))
                               (i32x4.shr_u (local.get $c1) (i32.const 1 (;SH;))))))
          (local.set $acc2 (v128.or (local.get $acc2)
                             (v128.and (v128.load offset=32 (local.get $pa))
                               (i32x4.shr_u (local.get $c2) (i32.const 1 (;SH;))))))
          (local.set $acc3 (v128.or (local.get $acc3)
                             (v128.and (v128.load offset=48 (local.get $pa))
                               (i32x4.shr_u (local.get $c3) (i32.const 1 (;SH;))))))))
      (if (local.tee $m (i32.or (i32.or (i32x4.bitmask (i32x4.ne (local.get $acc0) (v128.const i64x2 0 0)))
            (i32.shl (i32x4.bitmask (i32x4.ne (local.get $acc1) (v128.const i64x2 0 0))) (i32.const 4)))
            (i32.or (i32.shl (i32x4.bitmask (i32x4.ne (local.get $acc2) (v128.const i64x2 0 0))) (i32.const 8))
              (i32.shl (i32x4.bitmask (i32x4.ne (local.get $acc3) (v128.const i64x2 0 0))) (i32.const 12)))))
        (then (return (local.get $a) (local.get $m))))
      ;; the next 16 rows; the last group ends at the clip's last row (the rows it sees twice have no hit)
      (local.set $a (i32.add (local.get $a) (i32.const 64)))
      (local.set $b (i32.add (local.get $b) (i32.const 64)))
      (br_if $none (i32.eq (local.get $a) (local.get $end)))
      (if (i32.gt_u (i32.add (local.get $a) (i32.const 64)) (local.get $end))
        (then
          (local.set $b (i32.sub (local.get $b) (i32.sub (i32.add (local.get $a) (i32.const 64)) (local.get $end))))
          (local.set $a (i32.sub (local.get $end) (i32.const 64)))))
      (br $group)))
    (local.get $end) (i32.const 0))
  ;; @end
)
