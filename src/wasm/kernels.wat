;; hitmask mask kernels, hand-written WebAssembly with 128-bit SIMD.
;; Layout (see src/mask.ts): pixel (x, y) is bit x&31 of word (x>>5)*height + y, so one v128 holds
;; 4 consecutive rows of one 32-px strip and the sub-word x offset is one uniform lane shift.
;; Hand-written rather than compiled: clang scalarised the uniform shifts into 4x extract/replace_lane
;; (research notes §3.3). Every i32x4.shl / i32x4.shr_u here takes one scalar count (taken mod 32).
;;
;; Pair kernels take the clip computed in JS (x0..x1 × y0..y1 in A's pixels, B's top-left at dx, dy)
;; and byte pointers ap/bp to the masks' words; ah/bh are heights, bn is B's strip count.
;; The strip scheme matches src/mask.ts: o = s*32 - dx, bs = o >> 5, sh = o & 31; when sh != 0 and
;; both B strips bs, bs+1 exist, a row is (B[bs] >>> sh) | (B[bs+1] << (32 - sh)), otherwise it is
;; one word (B >>> rs) << ls. The `memory` line is rewritten by scripts/build-wasm.ts to build a
;; shared-memory and a plain-memory variant.
(module
  (memory (import "env" "memory") 1 65536 shared)

  ;; The strip scheme (see above) for A's strip s, B's rows from A's row y0: returns B's byte pointers bi
  ;; and bj (the next strip), the shifts rs and ls, and `both`: 1 where a row is (B[bi] >>> rs) | (B[bj] << ls),
  ;; 0 where it is (B[bi] >>> rs) << ls (bi moved to strip 0 when bs = -1). Written once, called per strip.
  (func $strip (param $s i32) (param $dx i32) (param $dy i32) (param $y0 i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (result i32 i32 i32 i32 i32)
    (local $o i32) (local $bs i32) (local $sh i32) (local $bi i32) (local $step i32)
    (local.set $o (i32.sub (i32.shl (local.get $s) (i32.const 5)) (local.get $dx)))
    (local.set $bs (i32.shr_s (local.get $o) (i32.const 5)))
    (local.set $sh (i32.and (local.get $o) (i32.const 31)))
    (local.set $step (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $bi (i32.add (local.get $bp)
      (i32.shl (i32.add (i32.mul (local.get $bs) (local.get $bh)) (i32.sub (local.get $y0) (local.get $dy))) (i32.const 2))))
    (if (i32.and (i32.ne (local.get $sh) (i32.const 0))
          (i32.and (i32.ge_s (local.get $bs) (i32.const 0)) (i32.lt_s (i32.add (local.get $bs) (i32.const 1)) (local.get $bn))))
      (then (return (local.get $bi) (i32.add (local.get $bi) (local.get $step)) (local.get $sh) (i32.sub (i32.const 32) (local.get $sh)) (i32.const 1))))
    ;; bs = -1 only with sh != 0 (a clipped strip starts less than 32 px left of B's first pixel)
    (if (i32.lt_s (local.get $bs) (i32.const 0))
      (then (return (i32.add (local.get $bi) (local.get $step)) (i32.const 0) (i32.const 0) (i32.sub (i32.const 32) (local.get $sh)) (i32.const 0))))
    (local.get $bi) (i32.const 0) (local.get $sh) (i32.const 0) (i32.const 0))

  ;; 1 when any pixel is set in both masks: 8 rows per branch (two v128 ORed, one any_true).
  (func $overlaps (export "overlaps")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (result i32)
    (local $s i32) (local $send i32) (local $rs i32) (local $ls i32) (local $both i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $rows4 i32)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    (loop $strip
      (local.set $ai (i32.add (local.get $ap)
        (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2))))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh) (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      (local.set $end (i32.add (local.get $ai) (local.get $rows4)))
      (if (local.get $both)
        (then
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (if (v128.any_true (v128.or
                  (v128.and (v128.load (local.get $ai))
                    (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs))
                             (i32x4.shl (v128.load (local.get $bj)) (local.get $ls))))
                  (v128.and (v128.load offset=16 (local.get $ai))
                    (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs))
                             (i32x4.shl (v128.load offset=16 (local.get $bj)) (local.get $ls))))))
              (then (return (i32.const 1))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (if (i32.and (i32.load (local.get $ai))
                  (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                          (i32.shl (i32.load (local.get $bj)) (local.get $ls))))
              (then (return (i32.const 1))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
            (br $t))))
        (else
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (if (v128.any_true (v128.or
                  (v128.and (v128.load (local.get $ai))
                    (i32x4.shl (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs)) (local.get $ls)))
                  (v128.and (v128.load offset=16 (local.get $ai))
                    (i32x4.shl (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs)) (local.get $ls)))))
              (then (return (i32.const 1))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (if (i32.and (i32.load (local.get $ai))
                  (i32.shl (i32.shr_u (i32.load (local.get $bi)) (local.get $rs)) (local.get $ls)))
              (then (return (i32.const 1))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (br $t)))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (i32.const 0))

  ;; The first pixel set in both masks in row-major order: its row (or -1), its x stored at `out`. The
  ;; $overlaps loops, except that a vector that hits hands over to the row loop, which finds the row;
  ;; no strip looks below the best row so far, so an early hit ends the scan early.
  (func $first (export "first")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $out i32) (result i32)
    (local $w i32) (local $besty i32) (local $s i32) (local $send i32) (local $rs i32) (local $ls i32) (local $both i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $besty (local.get $y1))
    (loop $strip
      (local.set $ai (i32.add (local.get $ap)
        (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2))))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh) (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      ;; Later strips only look above the best row so far (ties go to the leftmost strip).
      (local.set $end (i32.add (local.get $ai) (i32.shl (i32.sub (local.get $besty) (local.get $y0)) (i32.const 2))))
      (if (local.get $both)
        (then
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (if (v128.any_true (v128.or
                  (v128.and (v128.load (local.get $ai))
                    (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs))
                             (i32x4.shl (v128.load (local.get $bj)) (local.get $ls))))
                  (v128.and (v128.load offset=16 (local.get $ai))
                    (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs))
                             (i32x4.shl (v128.load offset=16 (local.get $bj)) (local.get $ls))))))
              (then (br $vdone)))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (if (local.tee $w (i32.and (i32.load (local.get $ai))
                  (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                          (i32.shl (i32.load (local.get $bj)) (local.get $ls)))))
              (then (call $hit (local.get $ai) (local.get $ap) (local.get $s) (local.get $ah) (local.get $w) (local.get $out))
                    (local.set $besty) (br $sdone)))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
            (br $t))))
        (else
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (if (v128.any_true (v128.or
                  (v128.and (v128.load (local.get $ai))
                    (i32x4.shl (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs)) (local.get $ls)))
                  (v128.and (v128.load offset=16 (local.get $ai))
                    (i32x4.shl (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs)) (local.get $ls)))))
              (then (br $vdone)))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (if (local.tee $w (i32.and (i32.load (local.get $ai))
                  (i32.shl (i32.shr_u (i32.load (local.get $bi)) (local.get $rs)) (local.get $ls))))
              (then (call $hit (local.get $ai) (local.get $ap) (local.get $s) (local.get $ah) (local.get $w) (local.get $out))
                    (local.set $besty) (br $sdone)))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (br $t)))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (select (i32.const -1) (local.get $besty) (i32.eq (local.get $besty) (local.get $y1))))

  ;; A first-point hit at byte ai of A's strip s: stores x = 32s + ctz(w) at `out`, returns the row.
  (func $hit (param $ai i32) (param $ap i32) (param $s i32) (param $ah i32) (param $w i32) (param $out i32) (result i32)
    (i32.store (local.get $out) (i32.add (i32.shl (local.get $s) (i32.const 5)) (i32.ctz (local.get $w))))
    (i32.sub (i32.shr_u (i32.sub (local.get $ai) (local.get $ap)) (i32.const 2)) (i32.mul (local.get $s) (local.get $ah))))


  ;; Number of pixels set in both masks. i8x16.popcnt, then pairwise widening adds into 4 u32 lanes;
  ;; each lane sees at most a quarter of a mask's 2^28 words (< 2^32 bits), the sum is returned as f64.
  (func $area (export "area")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (result f64)
    (local $s i32) (local $send i32) (local $rs i32) (local $ls i32) (local $both i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $rows4 i32)
    (local $acc v128) (local $tail i32)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    (loop $strip
      (local.set $ai (i32.add (local.get $ap)
        (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2))))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh) (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      (local.set $end (i32.add (local.get $ai) (local.get $rows4)))
      (if (local.get $both)
        (then
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.add
                (i8x16.popcnt (v128.and (v128.load (local.get $ai))
                  (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs))
                           (i32x4.shl (v128.load (local.get $bj)) (local.get $ls)))))
                (i8x16.popcnt (v128.and (v128.load offset=16 (local.get $ai))
                  (v128.or (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs))
                           (i32x4.shl (v128.load offset=16 (local.get $bj)) (local.get $ls))))))))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (local.set $tail (i32.add (local.get $tail) (i32.popcnt (i32.and (i32.load (local.get $ai))
              (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                      (i32.shl (i32.load (local.get $bj)) (local.get $ls)))))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
            (br $t))))
        (else
          (block $vdone (loop $v
            (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
            (local.set $acc (i32x4.add (local.get $acc)
              (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.add
                (i8x16.popcnt (v128.and (v128.load (local.get $ai))
                  (i32x4.shl (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs)) (local.get $ls))))
                (i8x16.popcnt (v128.and (v128.load offset=16 (local.get $ai))
                  (i32x4.shl (i32x4.shr_u (v128.load offset=16 (local.get $bi)) (local.get $rs)) (local.get $ls)))))))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 32)))
            (br $v)))
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (local.set $tail (i32.add (local.get $tail) (i32.popcnt (i32.and (i32.load (local.get $ai))
              (i32.shl (i32.shr_u (i32.load (local.get $bi)) (local.get $rs)) (local.get $ls))))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (br $t)))))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (f64.add
      (f64.add
        (f64.add (f64.convert_i32_u (i32x4.extract_lane 0 (local.get $acc))) (f64.convert_i32_u (i32x4.extract_lane 1 (local.get $acc))))
        (f64.add (f64.convert_i32_u (i32x4.extract_lane 2 (local.get $acc))) (f64.convert_i32_u (i32x4.extract_lane 3 (local.get $acc)))))
      (f64.convert_i32_u (local.get $tail))))

  ;; C = A & shifted B over the clip (C is zeroed by the caller and has A's size; cp is its pointer).
  ;; op 0: C = A & B (overlapMask); op 1: A |= B & keep (draw; keep clears padding on A's last strip);
  ;; op 2: A &= ~B (erase). One function keeps the module small; op is loop-invariant, so the
  ;; branches below sit outside the row loops.
  (func $combine (export "combine")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $cp i32) (param $op i32) (param $lastStrip i32) (param $edge i32)
    (local $s i32) (local $send i32) (local $ls i32) (local $rs i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $ci i32) (local $end i32) (local $rows4 i32)
    (local $both i32) (local $keep i32) (local $kv v128) (local $bv v128) (local $w i32)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    (loop $strip
      (local.set $ai (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2)))
      (local.set $ci (i32.add (local.get $cp) (local.get $ai)))
      (local.set $ai (i32.add (local.get $ap) (local.get $ai)))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh) (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      (local.set $end (i32.add (local.get $ai) (local.get $rows4)))
      (local.set $keep (select (local.get $edge) (i32.const -1) (i32.eq (local.get $s) (local.get $lastStrip))))
      (local.set $kv (i32x4.splat (local.get $keep)))
      ;; 4 rows per vector
      (block $vdone (loop $v
        (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end)))
        (if (local.get $both)
          (then (local.set $bv (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs))
                                        (i32x4.shl (v128.load (local.get $bj)) (local.get $ls)))))
          (else (local.set $bv (i32x4.shl (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs)) (local.get $ls)))))
        (if (i32.eqz (local.get $op))
          (then (v128.store (local.get $ci) (v128.and (v128.load (local.get $ai)) (local.get $bv))))
          (else (if (i32.eq (local.get $op) (i32.const 1))
            (then (v128.store (local.get $ai) (v128.or (v128.load (local.get $ai)) (v128.and (local.get $bv) (local.get $kv)))))
            (else (v128.store (local.get $ai) (v128.andnot (v128.load (local.get $ai)) (local.get $bv)))))))
        (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 16)))
        (local.set $bj (i32.add (local.get $bj) (i32.const 16)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 16)))
        (br $v)))
      (block $sdone (loop $t
        (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
        (if (local.get $both)
          (then (local.set $w (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                                      (i32.shl (i32.load (local.get $bj)) (local.get $ls)))))
          (else (local.set $w (i32.shl (i32.shr_u (i32.load (local.get $bi)) (local.get $rs)) (local.get $ls)))))
        (if (i32.eqz (local.get $op))
          (then (i32.store (local.get $ci) (i32.and (i32.load (local.get $ai)) (local.get $w))))
          (else (if (i32.eq (local.get $op) (i32.const 1))
            (then (i32.store (local.get $ai) (i32.or (i32.load (local.get $ai)) (i32.and (local.get $w) (local.get $keep)))))
            (else (i32.store (local.get $ai) (i32.and (i32.load (local.get $ai)) (i32.xor (local.get $w) (i32.const -1))))))))
        (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
        (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 4)))
        (br $t)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send)))))

  ;; Batched overlaps: n records of 8 i32 at tp (ap, aw, ah, bp, bw, bh, dx, dy: both masks' word
  ;; pointers and sizes, B's top-left in A's pixels); clips each pair here, writes 0/1 to byte rp + k
  ;; and returns the number of hits. One call for many pairs, so neither the JS -> wasm call nor the
  ;; clip in JS is paid per pair. Records may be split across threads (disjoint k ranges).
  (func $overlapsBatch (export "overlapsBatch") (param $tp i32) (param $n i32) (param $rp i32) (result i32)
    (local $end i32) (local $hit i32) (local $hits i32)
    (local $aw i32) (local $ah i32) (local $bw i32) (local $bh i32) (local $dx i32) (local $dy i32)
    (local $x0 i32) (local $x1 i32) (local $y0 i32) (local $y1 i32)
    (local.set $end (i32.add (local.get $tp) (i32.shl (local.get $n) (i32.const 5))))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $tp) (local.get $end)))
      (local.set $aw (i32.load offset=4 (local.get $tp)))
      (local.set $ah (i32.load offset=8 (local.get $tp)))
      (local.set $bw (i32.load offset=16 (local.get $tp)))
      (local.set $bh (i32.load offset=20 (local.get $tp)))
      (local.set $dx (i32.load offset=24 (local.get $tp)))
      (local.set $dy (i32.load offset=28 (local.get $tp)))
      (local.set $hit (i32.const 0))
      ;; Boxes meet when -bw < dx < aw and -bh < dy < ah (sides are below 2^30, so nothing overflows).
      (if (i32.and
            (i32.and (i32.lt_s (local.get $dx) (local.get $aw)) (i32.gt_s (local.get $dx) (i32.sub (i32.const 0) (local.get $bw))))
            (i32.and (i32.lt_s (local.get $dy) (local.get $ah)) (i32.gt_s (local.get $dy) (i32.sub (i32.const 0) (local.get $bh)))))
        (then
          (local.set $x0 (select (local.get $dx) (i32.const 0) (i32.gt_s (local.get $dx) (i32.const 0))))
          (local.set $y0 (select (local.get $dy) (i32.const 0) (i32.gt_s (local.get $dy) (i32.const 0))))
          (local.set $x1 (i32.add (local.get $dx) (local.get $bw)))
          (local.set $x1 (select (local.get $aw) (local.get $x1) (i32.lt_s (local.get $aw) (local.get $x1))))
          (local.set $y1 (i32.add (local.get $dy) (local.get $bh)))
          (local.set $y1 (select (local.get $ah) (local.get $y1) (i32.lt_s (local.get $ah) (local.get $y1))))
          (local.set $hit (call $overlaps
            (i32.load (local.get $tp)) (local.get $ah) (i32.load offset=12 (local.get $tp)) (local.get $bh)
            (i32.shr_u (i32.add (local.get $bw) (i32.const 31)) (i32.const 5))
            (local.get $dx) (local.get $dy) (local.get $x0) (local.get $x1) (local.get $y0) (local.get $y1)))))
      (i32.store8 (local.get $rp) (local.get $hit))
      (local.set $hits (i32.add (local.get $hits) (local.get $hit)))
      (local.set $tp (i32.add (local.get $tp) (i32.const 32)))
      (local.set $rp (i32.add (local.get $rp) (i32.const 1)))
      (br $l)))
    (local.get $hits))

  ;; Sets n words from byte ptr to value. TypedArray.fill on a SharedArrayBuffer view takes V8's
  ;; element-by-element path: 8.5 µs for 32K words against 0.85 µs on the JS heap; this loop is a memset.
  (func (export "fill32") (param $p i32) (param $n i32) (param $value i32)
    (local $end i32) (local $v v128)
    ;; All-zero and all-one words are byte fills: memory.fill is 3x faster than the v128 loop (1.7 against
    ;; 5.0 µs for a 1920x1080 plane).
    (if (i32.or (i32.eqz (local.get $value)) (i32.eq (local.get $value) (i32.const -1)))
      (then (memory.fill (local.get $p) (i32.and (local.get $value) (i32.const 255)) (i32.shl (local.get $n) (i32.const 2))) (return)))
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $v (i32x4.splat (local.get $value)))
    (block $vdone (loop $l
      (br_if $vdone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
      (v128.store (local.get $p) (local.get $v))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $l)))
    (block $done (loop $t
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (i32.store (local.get $p) (local.get $value))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $t))))

  ;; Copies n words (memmove), for clone() between masks of one arena.
  (func (export "copy32") (param $dst i32) (param $src i32) (param $n i32)
    (memory.copy (local.get $dst) (local.get $src) (i32.shl (local.get $n) (i32.const 2))))

  ;; ---- raster and fromRGBA kernels ----

  ;; Raster queries over the OR of k planes (CollisionRaster layers, all of height ah): tp points to k
  ;; plane pointers; B (bp, bh, bn strips) has its top-left at (dx, dy); the clip is x0..x1 × y0..y1 in
  ;; raster pixels, with the same strip scheme as $combine. op 0: 1 when some pixel of B is set on a
  ;; plane (else 0); op 1: how many such pixels; op 2: the row of the first one in row-major order
  ;; (ties: leftmost strip), its x stored at tp; -1 when none. Ops 0 and 2 leave the vector loop on the
  ;; first 4 rows that hit and let the scalar loop find the row.
  (func $rasterQuery (export "rasterQuery")
    (param $tp i32) (param $k i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $op i32) (result f64)
    (local $s i32) (local $send i32) (local $o i32) (local $ls i32) (local $rs i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $both i32) (local $q i32) (local $tend i32)
    (local $w i32) (local $a v128) (local $bv v128) (local $v v128) (local $acc v128) (local $tail i32)
    (local $besty i32) (local $bestx i32)
    (local.set $tend (i32.add (local.get $tp) (i32.shl (local.get $k) (i32.const 2))))
    (local.set $besty (local.get $y1))
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (loop $strip
      ;; ai: byte offset of row y0 of strip s inside every plane
      (local.set $ai (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2)))
      (local.set $end (i32.add (local.get $ai) (i32.shl (i32.sub (local.get $besty) (local.get $y0)) (i32.const 2))))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh) (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      ;; 4 rows per vector
      (block $vdone (loop $vl
        (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end)))
        (if (local.get $both)
          (then (local.set $bv (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs))
                                        (i32x4.shl (v128.load (local.get $bj)) (local.get $ls)))))
          (else (local.set $bv (i32x4.shl (i32x4.shr_u (v128.load (local.get $bi)) (local.get $rs)) (local.get $ls)))))
        (local.set $a (v128.load (i32.add (i32.load (local.get $tp)) (local.get $ai))))
        (local.set $q (i32.add (local.get $tp) (i32.const 4)))
        (block $ldone (loop $l
          (br_if $ldone (i32.ge_u (local.get $q) (local.get $tend)))
          (local.set $a (v128.or (local.get $a) (v128.load (i32.add (i32.load (local.get $q)) (local.get $ai)))))
          (local.set $q (i32.add (local.get $q) (i32.const 4)))
          (br $l)))
        (local.set $v (v128.and (local.get $a) (local.get $bv)))
        (if (i32.eq (local.get $op) (i32.const 1))
          (then (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (local.get $v)))))))
          (else (br_if $vdone (v128.any_true (local.get $v)))))
        (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 16)))
        (local.set $bj (i32.add (local.get $bj) (i32.const 16)))
        (br $vl)))
      ;; the last rows, and the rows of a vector that hit
      (block $sdone (loop $t
        (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
        (if (local.get $both)
          (then (local.set $w (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                                      (i32.shl (i32.load (local.get $bj)) (local.get $ls)))))
          (else (local.set $w (i32.shl (i32.shr_u (i32.load (local.get $bi)) (local.get $rs)) (local.get $ls)))))
        (local.set $q (local.get $tp))
        (local.set $o (i32.const 0))
        (block $ldone (loop $l
          (br_if $ldone (i32.ge_u (local.get $q) (local.get $tend)))
          (local.set $o (i32.or (local.get $o) (i32.load (i32.add (i32.load (local.get $q)) (local.get $ai)))))
          (local.set $q (i32.add (local.get $q) (i32.const 4)))
          (br $l)))
        (local.set $w (i32.and (local.get $w) (local.get $o)))
        (if (i32.eq (local.get $op) (i32.const 1))
          (then (local.set $tail (i32.add (local.get $tail) (i32.popcnt (local.get $w)))))
          (else (if (local.get $w)
            (then
              (if (i32.eqz (local.get $op)) (then (return (f64.const 1))))
              (local.set $besty (i32.sub (i32.shr_u (local.get $ai) (i32.const 2)) (i32.mul (local.get $s) (local.get $ah))))
              (local.set $bestx (i32.add (i32.shl (local.get $s) (i32.const 5)) (i32.ctz (local.get $w))))
              (br $sdone)))))
        (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
        (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
        (br $t)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (if (i32.eq (local.get $op) (i32.const 1))
      (then (return (f64.add
        (f64.add
          (f64.add (f64.convert_i32_u (i32x4.extract_lane 0 (local.get $acc))) (f64.convert_i32_u (i32x4.extract_lane 1 (local.get $acc))))
          (f64.add (f64.convert_i32_u (i32x4.extract_lane 2 (local.get $acc))) (f64.convert_i32_u (i32x4.extract_lane 3 (local.get $acc)))))
        (f64.convert_i32_u (local.get $tail))))))
    (if (i32.eqz (local.get $op)) (then (return (f64.const 0))))
    (if (i32.eq (local.get $besty) (local.get $y1)) (then (return (f64.const -1))))
    (i32.store (local.get $tp) (local.get $bestx))
    (f64.convert_i32_u (local.get $besty)))

  ;; Mask words from RGBA pixels: `rows` rows of `cols` pixels at src (row stride `stride` bytes) become
  ;; bits of the words from dst on (row r, strip s at dst + (s * ah + r) * 4). op 0: alpha > t; op 1:
  ;; some RGB channel differs from key (0xBBGGRR, memory order) by more than t. 16 pixels per step:
  ;; op 0 takes each alpha by one uniform lane shift and narrows the 16 into bytes in order; op 1
  ;; compares all bytes at once (|p - key| as two saturating subtractions), keeps RGB, and narrows
  ;; the per-pixel lane masks. i8x16.bitmask then gives the 16 bits. Fewer than 16 left: one by one.
  (func $rgbaMask (export "rgbaMask")
    (param $src i32) (param $stride i32) (param $cols i32) (param $rows i32) (param $dst i32) (param $ah i32)
    (param $op i32) (param $key i32) (param $t i32)
    (local $r i32) (local $p i32) (local $q i32) (local $x i32) (local $w i32) (local $g i32) (local $hit i32) (local $c i32)
    (local $sstride i32) (local $tv v128) (local $kv v128) (local $rgb v128) (local $zero v128)
    (local.set $sstride (i32.shl (local.get $ah) (i32.const 2)))
    (local.set $tv (i8x16.splat (local.get $t)))
    (local.set $kv (i32x4.splat (local.get $key)))
    (local.set $rgb (i32x4.splat (i32.const 0x00ffffff)))
    (block $rdone (loop $row
      (br_if $rdone (i32.ge_u (local.get $r) (local.get $rows)))
      (local.set $p (i32.add (local.get $src) (i32.mul (local.get $r) (local.get $stride))))
      (local.set $q (i32.add (local.get $dst) (i32.shl (local.get $r) (i32.const 2))))
      (local.set $x (i32.const 0))
      (block $gdone (loop $grp
        (br_if $gdone (i32.gt_u (i32.add (local.get $x) (i32.const 16)) (local.get $cols)))
        (if (local.get $op)
          (then (local.set $g (i8x16.bitmask (i8x16.narrow_i16x8_s
            (i16x8.narrow_i32x4_s
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load (local.get $p)))) (local.get $tv))) (local.get $zero))
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load offset=16 (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=16 (local.get $p)))) (local.get $tv))) (local.get $zero)))
            (i16x8.narrow_i32x4_s
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load offset=32 (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=32 (local.get $p)))) (local.get $tv))) (local.get $zero))
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load offset=48 (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=48 (local.get $p)))) (local.get $tv))) (local.get $zero)))))))
          (else (local.set $g (i8x16.bitmask (i8x16.gt_u
            (i8x16.narrow_i16x8_u
              (i16x8.narrow_i32x4_u (i32x4.shr_u (v128.load (local.get $p)) (i32.const 24))
                                    (i32x4.shr_u (v128.load offset=16 (local.get $p)) (i32.const 24)))
              (i16x8.narrow_i32x4_u (i32x4.shr_u (v128.load offset=32 (local.get $p)) (i32.const 24))
                                    (i32x4.shr_u (v128.load offset=48 (local.get $p)) (i32.const 24))))
            (local.get $tv))))))
        ;; even group: the word's low half; odd group: complete the word and store it
        (if (i32.and (local.get $x) (i32.const 16))
          (then
            (i32.store (local.get $q) (i32.or (local.get $w) (i32.shl (local.get $g) (i32.const 16))))
            (local.set $q (i32.add (local.get $q) (local.get $sstride))))
          (else (local.set $w (local.get $g))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $grp)))
      (if (i32.and (local.get $cols) (i32.const 31))
        (then
          (if (i32.eqz (i32.and (local.get $x) (i32.const 16))) (then (local.set $w (i32.const 0))))
          (block $pdone (loop $px
            (br_if $pdone (i32.ge_u (local.get $x) (local.get $cols)))
            (if (local.get $op)
              (then
                ;; |p_c - key_c| > t  <=>  (p_c - key_c + t) as u32 > 2t
                (local.set $hit (i32.const 0))
                (local.set $c (i32.const 0))
                (loop $ch
                  (local.set $hit (i32.or (local.get $hit) (i32.gt_u
                    (i32.add (i32.sub (i32.load8_u (i32.add (local.get $p) (local.get $c)))
                                      (i32.and (i32.shr_u (local.get $key) (i32.shl (local.get $c) (i32.const 3))) (i32.const 255)))
                             (local.get $t))
                    (i32.shl (local.get $t) (i32.const 1)))))
                  (local.set $c (i32.add (local.get $c) (i32.const 1)))
                  (br_if $ch (i32.lt_u (local.get $c) (i32.const 3)))))
              (else (local.set $hit (i32.gt_u (i32.load8_u offset=3 (local.get $p)) (local.get $t)))))
            (local.set $w (i32.or (local.get $w) (i32.shl (local.get $hit) (local.get $x))))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $px)))
          (i32.store (local.get $q) (local.get $w))))
      (local.set $r (i32.add (local.get $r) (i32.const 1)))
      (br $row))))
)
