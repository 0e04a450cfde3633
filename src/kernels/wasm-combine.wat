;; Pair writes: combine (C = A & B for overlapMask, A |= B for draw, A &= ~B for erase) of mask B placed
;; over mask A. Part of the kernels module (see wasm-kernels.wat for the layout and the strip scheme).
(module
  ;; @uses: defined in another part (named by the import) and declared here so that wabt reads this part
  ;; on its own; scripts/build-wasm.ts drops the lines up to @end when it merges the parts.
  (memory (import "env" "memory") 1 65536 shared)
  (table $shifts (import "wasm-kernels" "shifts") 124 funcref)
  (func $strip (import "wasm-kernels" "strip")
    (param $s i32) (param $dx i32) (param $dy i32) (param $y0 i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (result i32 i32 i32 i32 i32))
  (type $write (func (param i32 i32 i32 i32 i32)))
  ;; @end

  ;; C = A & shifted B over the clip, C's other words zeroed (C has A's size; cp is its pointer).
  ;; op 0: C = A & B (overlapMask; lastStrip is A's last strip, the end of C's zeroing); op 1: A |= B & keep
  ;; (draw; keep clears padding on A's last strip); op 2: A &= ~B (erase). One function keeps the module
  ;; small; op is loop-invariant, so the branches below sit outside the row loops. Zeroing C around the
  ;; clip here ($zero) saves a call from JS per strip.
  (func $combine (export "combine")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $cp i32) (param $op i32) (param $lastStrip i32) (param $edge i32)
    (local $s i32) (local $send i32) (local $ls i32) (local $rs i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $ci i32) (local $end i32) (local $rows4 i32)
    (local $both i32) (local $keep i32) (local $kv v128) (local $bv v128) (local $w i32) (local $z i32)
    (local.set $z (local.get $cp))
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    (loop $strip
      (local.set $ai (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0)) (i32.const 2)))
      (local.set $ci (i32.add (local.get $cp) (local.get $ai)))
      (local.set $ai (i32.add (local.get $ap) (local.get $ai)))
      ;; op 0: zero C from the end of the last strip's rows to this strip's first row.
      (if (i32.eqz (local.get $op))
        (then
          (call $zero (local.get $z) (local.get $ci))
          (local.set $z (i32.add (local.get $ci) (local.get $rows4)))))
      (call $strip (local.get $s) (local.get $dx) (local.get $dy) (local.get $y0) (local.get $bp) (local.get $bh)
        (local.get $bn))
      (local.set $both) (local.set $ls) (local.set $rs) (local.set $bj) (local.set $bi)
      (local.set $end (i32.add (local.get $ai) (local.get $rows4)))
      (local.set $keep (select (local.get $edge) (i32.const -1) (i32.eq (local.get $s) (local.get $lastStrip))))
      (local.set $kv (i32x4.splat (local.get $keep)))
      ;; overlapMask on two-word rows: 16 rows at a time with constant shifts, then the loops below finish.
      (if (i32.and (local.get $both) (i32.eqz (local.get $op)))
        (then
          (call_indirect $shifts (type $write) (local.get $ai) (local.get $bi) (local.get $bj) (local.get $end)
            (local.get $ci) (i32.add (local.get $rs) (i32.const 61)))
          (local.set $w (i32.and (i32.sub (local.get $end) (local.get $ai)) (i32.const -64)))
          (local.set $ai (i32.add (local.get $ai) (local.get $w)))
          (local.set $bi (i32.add (local.get $bi) (local.get $w)))
          (local.set $bj (i32.add (local.get $bj) (local.get $w)))
          (local.set $ci (i32.add (local.get $ci) (local.get $w)))))
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
            (then (v128.store (local.get $ai) (v128.or (v128.load (local.get $ai))
                                                (v128.and (local.get $bv) (local.get $kv)))))
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
            (then (i32.store (local.get $ai) (i32.or (i32.load (local.get $ai))
                                               (i32.and (local.get $w) (local.get $keep)))))
            (else (i32.store (local.get $ai) (i32.and (i32.load (local.get $ai))
                                               (i32.xor (local.get $w) (i32.const -1))))))))
        (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
        (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
        (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
        (local.set $ci (i32.add (local.get $ci) (i32.const 4)))
        (br $t)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (if (i32.eqz (local.get $op))
      (then (call $zero (local.get $z)
        (i32.add (local.get $cp) (i32.shl (i32.mul (i32.add (local.get $lastStrip) (i32.const 1)) (local.get $ah))
                                   (i32.const 2)))))))

  ;; Zeroes the bytes p..end−1 (whole words): short runs (the rows between two strips' clips) word by word,
  ;; since a memory.fill is a call out of the WebAssembly code; longer ones with memory.fill.
  (func $zero (param $p i32) (param $end i32)
    (if (i32.gt_u (i32.sub (local.get $end) (local.get $p)) (i32.const 64))
      (then (memory.fill (local.get $p) (i32.const 0) (i32.sub (local.get $end) (local.get $p))) (return)))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (i32.store (local.get $p) (i32.const 0))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $l)))))
