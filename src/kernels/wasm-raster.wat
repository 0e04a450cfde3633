;; Raster queries over the OR of several planes. Part of the kernels module (see wasm-kernels.wat).
(module
  ;; @uses: defined in another part (named by the import) and declared here so that wabt reads this part
  ;; on its own; scripts/build-wasm.ts drops the lines up to @end when it merges the parts.
  (memory (import "env" "memory") 1 65536 shared)
  (func $strip (import "wasm-kernels" "strip")
    (param $s i32) (param $dx i32) (param $dy i32) (param $y0 i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (result i32 i32 i32 i32 i32))
  ;; @end

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
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh)
        (local.get $bn))
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
              (local.set $besty (i32.sub (i32.shr_u (local.get $ai) (i32.const 2))
                                  (i32.mul (local.get $s) (local.get $ah))))
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
          (f64.add (f64.convert_i32_u (i32x4.extract_lane 0 (local.get $acc)))
            (f64.convert_i32_u (i32x4.extract_lane 1 (local.get $acc))))
          (f64.add (f64.convert_i32_u (i32x4.extract_lane 2 (local.get $acc)))
            (f64.convert_i32_u (i32x4.extract_lane 3 (local.get $acc)))))
        (f64.convert_i32_u (local.get $tail))))))
    (if (i32.eqz (local.get $op)) (then (return (f64.const 0))))
    (if (i32.eq (local.get $besty) (local.get $y1)) (then (return (f64.const -1))))
    (i32.store (local.get $tp) (local.get $bestx))
    (f64.convert_i32_u (local.get $besty))))
