;; Pair queries: overlaps, first overlapping pixel and overlap area of mask B placed over mask A (the
;; writes are in wasm-combine.wat). Part of the kernels module (see wasm-kernels.wat for the layout and
;; the strip scheme).
(module
  ;; @uses: defined in another part (named by the import) and declared here so that wabt reads this part
  ;; on its own; scripts/build-wasm.ts drops the lines up to @end when it merges the parts.
  (memory (import "env" "memory") 1 65536 shared)
  (table $shifts (import "wasm-kernels" "shifts") 124 funcref)
  (type $scan (func (param i32 i32 i32 i32) (result i32)))
  (type $count (func (param i32 i32 i32 i32) (result v128)))
  (type $rows (func (param i32 i32 i32 i32 i32 i32 i32) (result i32 i32)))
  ;; @end

  ;; 1 when any pixel is set in both masks: 16 rows per branch (four v128 ORed, one any_true), then 4.
  ;; The strip scheme is inline (no $strip call: sh is the same for every strip, bs and the pointers
  ;; step by one strip), and a strip's last 1..3 rows are one more vector ending at its last row (rows
  ;; seen twice cannot change the answer) where it has 4 rows or more (measured 1.4x faster on small
  ;; masks than a $strip call, 8 rows a branch and a row loop for the tails).
  (func $overlaps (export "overlaps")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (result i32)
    (local $s i32) (local $send i32) (local $sh i32) (local $bs i32) (local $k i32)
    (local $w i32) (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $rows4 i32)
    (local $a i32) (local $b i32) (local $astep i32) (local $bstep i32) (local $m v128)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    ;; A's strip s meets B's strip bs = o >> 5, o = 32s - dx, shifted by sh = o & 31 (the same for every s)
    (local.set $w (i32.sub (i32.shl (local.get $s) (i32.const 5)) (local.get $dx)))
    (local.set $bs (i32.shr_s (local.get $w) (i32.const 5)))
    (local.set $sh (i32.and (local.get $w) (i32.const 31)))
    (local.set $astep (i32.shl (local.get $ah) (i32.const 2)))
    (local.set $bstep (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $a (i32.add (local.get $ap) (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0))
                                             (i32.const 2))))
    (local.set $b (i32.add (local.get $bp)
      (i32.shl (i32.add (i32.mul (local.get $bs) (local.get $bh)) (i32.sub (local.get $y0) (local.get $dy)))
        (i32.const 2))))
    (loop $strip
      (local.set $ai (local.get $a))
      (local.set $end (i32.add (local.get $a) (local.get $rows4)))
      (if (i32.and (i32.ne (local.get $sh) (i32.const 0))
            (i32.and (i32.ge_s (local.get $bs) (i32.const 0))
              (i32.lt_s (i32.add (local.get $bs) (i32.const 1)) (local.get $bn))))
        (then
          ;; Rows of two B words: 16 rows at a time in the constant-shift loop, then 4; it stops at 4 rows
          ;; that hit or with 0..3 left.
          (local.set $bi (local.get $b))
          (local.set $bj (i32.add (local.get $b) (local.get $bstep)))
          (local.set $w (i32.sub (call_indirect $shifts (type $scan) (local.get $ai) (local.get $bi) (local.get $bj)
                                   (local.get $end) (i32.sub (local.get $sh) (i32.const 1))) (local.get $ai)))
          (if (i32.le_u (i32.add (local.get $w) (i32.const 16)) (local.get $rows4)) (then (return (i32.const 1))))
          (if (i32.lt_u (local.get $w) (local.get $rows4))
            (then
              (local.set $k (i32.sub (i32.const 32) (local.get $sh)))
              (if (i32.ge_u (local.get $rows4) (i32.const 16))
                (then
                  ;; the strip's last 4 rows
                  (local.set $w (i32.sub (local.get $rows4) (i32.const 16)))
                  (if (v128.any_true (v128.and (v128.load (i32.add (local.get $ai) (local.get $w)))
                        (v128.or (i32x4.shr_u (v128.load (i32.add (local.get $bi) (local.get $w))) (local.get $sh))
                                 (i32x4.shl (v128.load (i32.add (local.get $bj) (local.get $w))) (local.get $k)))))
                    (then (return (i32.const 1)))))
                (else
                  (block $sdone (loop $t
                    (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
                    (if (i32.and (i32.load (local.get $ai))
                          (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $sh))
                                  (i32.shl (i32.load (local.get $bj)) (local.get $k))))
                      (then (return (i32.const 1))))
                    (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
                    (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
                    (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
                    (br $t))))))))
        (else
          ;; One B word a row. Left edge (bs = -1): A & (B[bs + 1] << 32 - sh). Otherwise A & (B[bs] >>> sh),
          ;; which meets exactly where (A << sh) & B[bs] does: the loop tests X & (Y << k), X and Y being A
          ;; and B one way round or the other, one shift a word instead of two.
          (if (i32.lt_s (local.get $bs) (i32.const 0))
            (then (local.set $bj (i32.add (local.get $b) (local.get $bstep)))
              (local.set $k (i32.sub (i32.const 32) (local.get $sh))))
            (else (local.set $bj (local.get $b)) (local.set $k (local.get $sh))))
          (if (local.get $k)
            (then (if (i32.eqz (i32.lt_s (local.get $bs) (i32.const 0)))
              (then (local.set $ai (local.get $bj)) (local.set $bj (local.get $a))
                (local.set $end (i32.add (local.get $ai) (local.get $rows4)))))))
          ;; Y << k as Y * 2^k: one multiply by a vector made once, where V8 emits four instructions for each
          ;; shift by a variable (measured 5% faster)
          (local.set $m (i32x4.splat (i32.shl (i32.const 1) (local.get $k))))
          (if (i32.ge_u (local.get $rows4) (i32.const 16))
            (then
              ;; 16 rows at a time, then 4
              (block $vdone (loop $v
                (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 64)) (local.get $end)))
                (if (v128.any_true (v128.or (v128.or
                      (v128.and (v128.load (local.get $ai)) (i32x4.mul (v128.load (local.get $bj)) (local.get $m)))
                      (v128.and (v128.load offset=16 (local.get $ai))
                        (i32x4.mul (v128.load offset=16 (local.get $bj)) (local.get $m))))
                    (v128.or
                      (v128.and (v128.load offset=32 (local.get $ai))
                        (i32x4.mul (v128.load offset=32 (local.get $bj)) (local.get $m)))
                      (v128.and (v128.load offset=48 (local.get $ai))
                        (i32x4.mul (v128.load offset=48 (local.get $bj)) (local.get $m))))))
                  (then (return (i32.const 1))))
                (local.set $ai (i32.add (local.get $ai) (i32.const 64)))
                (local.set $bj (i32.add (local.get $bj) (i32.const 64)))
                (br $v)))
              (block $wdone (loop $q
                (br_if $wdone (i32.gt_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end)))
                (if (v128.any_true (v128.and (v128.load (local.get $ai))
                                     (i32x4.mul (v128.load (local.get $bj)) (local.get $m))))
                  (then (return (i32.const 1))))
                (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
                (local.set $bj (i32.add (local.get $bj) (i32.const 16)))
                (br $q)))
              ;; 0..3 rows left: the strip's last 4 (ai + w, w <= 0 bytes away)
              (if (i32.lt_u (local.get $ai) (local.get $end))
                (then
                  (local.set $w (i32.sub (i32.sub (local.get $end) (i32.const 16)) (local.get $ai)))
                  (if (v128.any_true (v128.and (v128.load (i32.add (local.get $ai) (local.get $w)))
                        (i32x4.mul (v128.load (i32.add (local.get $bj) (local.get $w))) (local.get $m))))
                    (then (return (i32.const 1)))))))
            (else
              (block $sdone (loop $t
                (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
                (if (i32.and (i32.load (local.get $ai)) (i32.shl (i32.load (local.get $bj)) (local.get $k)))
                  (then (return (i32.const 1))))
                (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
                (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
                (br $t)))))))
      (local.set $a (i32.add (local.get $a) (local.get $astep)))
      (local.set $b (i32.add (local.get $b) (local.get $bstep)))
      (local.set $bs (i32.add (local.get $bs) (i32.const 1)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (i32.const 0))

  ;; The first pixel set in both masks in row-major order: its row (or -1), its x stored at `out`. Clips
  ;; of two strips or more, 16 rows or more and over 256 words go to $firstRows (rows across the strips);
  ;; smaller ones, where the first band is most of the clip, stay here. Bands of rows go across every strip
  ;; before the next band: the band that holds the first hit ends the scan, however late the left strips'
  ;; first hits are. The first band is 256 words (8 rows at least), each next one 32 times the rows of the
  ;; one before. Within a band, the $overlaps loops, except that a vector that hits hands over to the row
  ;; loop, which finds the row; no strip looks below the best row so far, so ties go to the leftmost
  ;; strip. One strip is one band.
  (func $first (export "first")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $out i32) (result i32)
    (local $w i32) (local $besty i32) (local $s i32) (local $s0 i32) (local $send i32) (local $rs i32) (local $ls i32)
    (local $sh i32) (local $bs i32) (local $bs0 i32) (local $a i32) (local $b i32) (local $astep i32) (local $bstep i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $yb i32) (local $ye i32) (local $h i32)
    (local.set $s0 (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $h (i32.sub (local.get $y1) (local.get $y0)))
    (if (i32.and (i32.and (i32.ge_s (local.get $h) (i32.const 16)) (i32.ne (local.get $s0) (local.get $send)))
          (i32.gt_u (i32.mul (local.get $h) (i32.add (i32.sub (local.get $send) (local.get $s0)) (i32.const 1)))
            (i32.const 256)))
      (then (return (call $firstRows (local.get $ap) (local.get $ah) (local.get $bp) (local.get $bh) (local.get $bn)
        (local.get $dx) (local.get $dy) (local.get $x0) (local.get $x1) (local.get $y0) (local.get $y1)
        (local.get $out)))))
    ;; the strip scheme inline, as in $overlaps: sh is the same for every strip
    (local.set $w (i32.sub (i32.shl (local.get $s0) (i32.const 5)) (local.get $dx)))
    (local.set $bs0 (i32.shr_s (local.get $w) (i32.const 5)))
    (local.set $sh (i32.and (local.get $w) (i32.const 31)))
    (local.set $astep (i32.shl (local.get $ah) (i32.const 2)))
    (local.set $bstep (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $yb (local.get $y0))
    ;; the first band: 256 words over all strips, 8 rows at least; one strip is one band
    (local.set $h (i32.div_u (i32.const 256) (i32.add (i32.sub (local.get $send) (local.get $s0)) (i32.const 1))))
    (local.set $h (select (i32.sub (local.get $y1) (local.get $y0))
      (select (local.get $h) (i32.const 8) (i32.gt_u (local.get $h) (i32.const 8)))
      (i32.eq (local.get $s0) (local.get $send))))
    (loop $band
      (local.set $ye (select (local.get $y1) (i32.add (local.get $yb) (local.get $h))
        (i32.gt_s (local.get $h) (i32.sub (local.get $y1) (local.get $yb)))))
      (local.set $besty (local.get $ye))
      (local.set $s (local.get $s0))
      (local.set $bs (local.get $bs0))
      (local.set $a (i32.add (local.get $ap) (i32.shl
                                               (i32.add (i32.mul (local.get $s0) (local.get $ah)) (local.get $yb))
                                               (i32.const 2))))
      (local.set $b (i32.add (local.get $bp)
        (i32.shl (i32.add (i32.mul (local.get $bs0) (local.get $bh)) (i32.sub (local.get $yb) (local.get $dy)))
          (i32.const 2))))
      (loop $strip
        (local.set $ai (local.get $a))
        (local.set $end (i32.add (local.get $a) (i32.shl (i32.sub (local.get $besty) (local.get $yb)) (i32.const 2))))
        (if (i32.and (i32.ne (local.get $sh) (i32.const 0))
              (i32.and (i32.ge_s (local.get $bs) (i32.const 0))
                (i32.lt_s (i32.add (local.get $bs) (i32.const 1)) (local.get $bn))))
          (then
            ;; rows of two B words: (B[bi] >>> sh) | (B[bj] << 32 - sh)
            (local.set $bi (local.get $b))
            (local.set $bj (i32.add (local.get $b) (local.get $bstep)))
            (local.set $rs (local.get $sh))
            (local.set $ls (i32.sub (i32.const 32) (local.get $sh)))
            (local.set $w (i32.sub (call_indirect $shifts (type $scan) (local.get $ai) (local.get $bi) (local.get $bj)
                                     (local.get $end) (i32.sub (local.get $sh) (i32.const 1))) (local.get $ai)))
            (local.set $ai (i32.add (local.get $ai) (local.get $w)))
            (local.set $bi (i32.add (local.get $bi) (local.get $w)))
            (local.set $bj (i32.add (local.get $bj) (local.get $w)))
            (block $sdone (loop $t
              (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
              (if (local.tee $w (i32.and (i32.load (local.get $ai))
                    (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $rs))
                            (i32.shl (i32.load (local.get $bj)) (local.get $ls)))))
                (then (call $hit (local.get $ai) (local.get $ap) (local.get $s) (local.get $ah) (local.get $w)
                        (local.get $out))
                      (local.set $besty) (br $sdone)))
              (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
              (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
              (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
              (br $t))))
          (else
            ;; one B word a row, (B[bi] >>> rs) << ls: strip 0 shifted left on the left edge (bs = -1)
            (if (i32.lt_s (local.get $bs) (i32.const 0))
              (then (local.set $bi (i32.add (local.get $b) (local.get $bstep))) (local.set $rs (i32.const 0))
                (local.set $ls (i32.sub (i32.const 32) (local.get $sh))))
              (else (local.set $bi (local.get $b)) (local.set $rs (local.get $sh)) (local.set $ls (i32.const 0))))
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
                (then (call $hit (local.get $ai) (local.get $ap) (local.get $s) (local.get $ah) (local.get $w)
                        (local.get $out))
                      (local.set $besty) (br $sdone)))
              (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
              (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
              (br $t)))))
        (local.set $a (i32.add (local.get $a) (local.get $astep)))
        (local.set $b (i32.add (local.get $b) (local.get $bstep)))
        (local.set $bs (i32.add (local.get $bs) (i32.const 1)))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        ;; a hit in the band's first row ends it: no later strip can be above it
        (br_if $strip (i32.and (i32.le_s (local.get $s) (local.get $send))
                        (i32.gt_s (local.get $besty) (local.get $yb)))))
      (if (i32.lt_s (local.get $besty) (local.get $ye)) (then (return (local.get $besty))))
      (local.set $yb (local.get $ye))
      (local.set $h (i32.shl (local.get $h) (i32.const 5)))
      (br_if $band (i32.lt_s (local.get $yb) (local.get $y1))))
    (i32.const -1))

  ;; $first on clips of two strips or more, 16 rows or more and over 256 words. Rows go 16 at a time across
  ;; every strip ($rowsBoth1..31, $rowsAligned): the first group of rows that hits holds the first row
  ;; whichever strip hits, its first lane that hits is that row, and $rowHit finds the row's leftmost hit.
  ;; So the scan never goes past the 16 rows that hold the first hit, however late the left strips' first
  ;; hits are (the blobs of bench/point-scenes.ts: 2-3.3x faster than $first's bands), and a full scan is
  ;; faster than strip by strip (256²: 1.4x, 1024²: 1.1x; 16 rows of a strip are a cache line of each
  ;; mask: 8 rows a group were 9% slower). A hit in the first row's first strip is the answer at once.
  (func $firstRows
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (param $out i32) (result i32)
    (local $w i32) (local $s0 i32) (local $n i32) (local $full i32) (local $sh i32) (local $left i32) (local $k i32)
    (local $astep i32) (local $bstep i32) (local $a i32) (local $b i32) (local $end i32) (local $m i32)
    (local $rows i32)
    (local.set $s0 (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $n (i32.sub (i32.add (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)) (i32.const 1))
                    (local.get $s0)))
    (local.set $rows (i32.sub (local.get $y1) (local.get $y0)))
    ;; the strip scheme inline, as in $overlaps: A's strip s0 meets B's strip bs = w >> 5 (-1: the left
    ;; edge) shifted by sh, the same for every strip
    (local.set $w (i32.sub (i32.shl (local.get $s0) (i32.const 5)) (local.get $dx)))
    (local.set $left (i32.shr_u (local.get $w) (i32.const 31)))
    (local.set $sh (i32.and (local.get $w) (i32.const 31)))
    ;; the strips that have a B strip bs + 1: all, or all but the last (the right edge)
    (local.set $full (select (local.get $n) (i32.sub (local.get $n) (i32.const 1))
      (i32.lt_s (i32.add (i32.shr_s (local.get $w) (i32.const 5)) (local.get $n)) (local.get $bn))))
    (local.set $astep (i32.shl (local.get $ah) (i32.const 2)))
    (local.set $bstep (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $a (i32.add (local.get $ap) (i32.shl (i32.add (i32.mul (local.get $s0) (local.get $ah)) (local.get $y0))
                                             (i32.const 2))))
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $rows) (i32.const 2))))
    ;; B's strip bs + 1 at A's row y0
    (local.set $b (i32.add (local.get $bp) (i32.shl (i32.add
      (i32.mul (i32.add (i32.shr_s (local.get $w) (i32.const 5)) (i32.const 1)) (local.get $bh))
      (i32.sub (local.get $y0) (local.get $dy))) (i32.const 2))))
    (call $rowHit (local.get $a) (local.get $b) (i32.const 1) (local.get $full) (local.get $left) (local.get $sh)
      (local.get $astep) (local.get $bstep))
    (local.set $m)
    (local.set $k)
    (if (i32.eqz (local.get $m))
      (then
        (if (result i32 i32) (local.get $sh)
          (then (call_indirect $shifts (type $rows) (local.get $a) (local.get $b) (local.get $full) (local.get $astep)
                  (local.get $bstep)
            (i32.or (local.get $left) (i32.shl (i32.lt_s (local.get $full) (local.get $n)) (i32.const 1)))
            (local.get $end)
            (i32.add (local.get $sh) (i32.const 92))))
          (else (call $rowsAligned (local.get $a) (i32.sub (local.get $b) (local.get $bstep)) (local.get $n)
                  (local.get $astep) (local.get $bstep) (local.get $end))))
        (local.set $m)
        (local.set $w)
        (if (i32.eqz (local.get $m)) (then (return (i32.const -1))))
        ;; the group's first row that hits (B's pointer goes as far as A's)
        (local.set $b (i32.add (local.get $b) (i32.sub (local.get $w) (local.get $a))))
        (local.set $m (i32.shl (i32.ctz (local.get $m)) (i32.const 2)))
        (local.set $a (i32.add (local.get $w) (local.get $m)))
        (local.set $b (i32.add (local.get $b) (local.get $m)))
        (call $rowHit (local.get $a) (local.get $b) (local.get $n) (local.get $full) (local.get $left) (local.get $sh)
          (local.get $astep) (local.get $bstep))
        (local.set $m)
        (local.set $k)))
    ;; the hit: word m of strip s0 + k, in the row of A's byte a (strip s0)
    (i32.store (local.get $out) (i32.add (i32.shl (i32.add (local.get $s0) (local.get $k)) (i32.const 5))
                                  (i32.ctz (local.get $m))))
    (i32.sub (i32.shr_u (i32.sub (local.get $a) (local.get $ap)) (i32.const 2))
      (i32.mul (local.get $s0) (local.get $ah))))

  ;; One row of $first from the left, k strips at most: A's word at a (strip s0), B's strip bs + 1 at b
  ;; (strip bs is none on the left edge, strip bs + 1 none past the first `full` strips). Returns the
  ;; first strip that hits (0-based) and its word, or k and 0.
  (func $rowHit (param $a i32) (param $b i32) (param $k i32) (param $full i32) (param $left i32) (param $sh i32)
    (param $astep i32) (param $bstep i32) (result i32 i32)
    (local $i i32) (local $bw i32) (local $bv i32) (local $w i32)
    (if (i32.eqz (local.get $left)) (then (local.set $bw (i32.load (i32.sub (local.get $b) (local.get $bstep))))))
    (block $done (loop $strip
      (br_if $done (i32.ge_u (local.get $i) (local.get $k)))
      (local.set $bv (i32.const 0))
      (if (i32.lt_u (local.get $i) (local.get $full)) (then (local.set $bv (i32.load (local.get $b)))))
      ;; sh = 0: B's strip bs alone (a shift by 32 is one by 0)
      (if (local.tee $w (i32.and (i32.load (local.get $a))
            (select (i32.or (i32.shr_u (local.get $bw) (local.get $sh))
                      (i32.shl (local.get $bv) (i32.sub (i32.const 32) (local.get $sh))))
              (local.get $bw) (local.get $sh))))
        (then (return (local.get $i) (local.get $w))))
      (local.set $bw (local.get $bv))
      (local.set $a (i32.add (local.get $a) (local.get $astep)))
      (local.set $b (i32.add (local.get $b) (local.get $bstep)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $strip)))
    (local.get $k) (i32.const 0))

  ;; $rowsBoth (wasm-kernels.wat) where sh = 0: each strip meets one B word, B's strip bs at b.
  (func $rowsAligned (param $a i32) (param $b i32) (param $n i32) (param $astep i32) (param $bstep i32) (param $end i32)
    (result i32 i32)
    (local $pa i32) (local $pb i32) (local $k i32) (local $m i32) (local $acc0 v128) (local $acc1 v128)
    (local $acc2 v128) (local $acc3 v128)
    (block $none (loop $group
      (local.set $pa (local.get $a))
      (local.set $pb (local.get $b))
      (local.set $acc0 (v128.const i64x2 0 0))
      (local.set $acc1 (v128.const i64x2 0 0))
      (local.set $acc2 (v128.const i64x2 0 0))
      (local.set $acc3 (v128.const i64x2 0 0))
      (local.set $k (local.get $n))
      (loop $strip
        (local.set $acc0 (v128.or (local.get $acc0) (v128.and (v128.load (local.get $pa)) (v128.load (local.get $pb)))))
        (local.set $acc1 (v128.or (local.get $acc1)
                           (v128.and (v128.load offset=16 (local.get $pa)) (v128.load offset=16 (local.get $pb)))))
        (local.set $acc2 (v128.or (local.get $acc2)
                           (v128.and (v128.load offset=32 (local.get $pa)) (v128.load offset=32 (local.get $pb)))))
        (local.set $acc3 (v128.or (local.get $acc3)
                           (v128.and (v128.load offset=48 (local.get $pa)) (v128.load offset=48 (local.get $pb)))))
        (local.set $pa (i32.add (local.get $pa) (local.get $astep)))
        (local.set $pb (i32.add (local.get $pb) (local.get $bstep)))
        (br_if $strip (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      ;; bit k: row k of the group hits
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

  ;; A first-point hit at byte ai of A's strip s: stores x = 32s + ctz(w) at `out`, returns the row.
  (func $hit (param $ai i32) (param $ap i32) (param $s i32) (param $ah i32) (param $w i32) (param $out i32) (result i32)
    (i32.store (local.get $out) (i32.add (i32.shl (local.get $s) (i32.const 5)) (i32.ctz (local.get $w))))
    (i32.sub (i32.shr_u (i32.sub (local.get $ai) (local.get $ap)) (i32.const 2))
      (i32.mul (local.get $s) (local.get $ah))))


  ;; Number of pixels set in both masks. i8x16.popcnt, then pairwise widening adds into 4 u32 lanes;
  ;; each lane sees at most a quarter of a mask's 2^28 words and one more word a strip (< 2^32 bits), the sum is
  ;; returned as f64.
  ;; The strip scheme is inline as in $overlaps (one-word rows count X & (Y << k) the same way). Rows
  ;; left by the wide loops go 4 at a time, then a strip's last 1..3 rows as the vector of its last 4 rows
  ;; with the lanes already counted masked off (a row loop only in strips of 1..3 rows). The wide loops
  ;; skip the popcounts of blocks of rows where the masks do not meet (measured 1.4x faster on a typical
  ;; contact, 6% slower where every block has pixels in common).
  (func $area (export "area")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (result f64)
    (local $s i32) (local $send i32) (local $sh i32) (local $bs i32) (local $k i32) (local $both i32)
    (local $ai i32) (local $bi i32) (local $bj i32) (local $end i32) (local $rows4 i32)
    (local $a i32) (local $b i32) (local $astep i32) (local $bstep i32)
    (local $acc v128) (local $tail i32) (local $w i32) (local $v v128) (local $u v128) (local $m v128)
    (local.set $s (i32.shr_s (local.get $x0) (i32.const 5)))
    (local.set $send (i32.shr_s (i32.sub (local.get $x1) (i32.const 1)) (i32.const 5)))
    (local.set $rows4 (i32.shl (i32.sub (local.get $y1) (local.get $y0)) (i32.const 2)))
    (local.set $w (i32.sub (i32.shl (local.get $s) (i32.const 5)) (local.get $dx)))
    (local.set $bs (i32.shr_s (local.get $w) (i32.const 5)))
    (local.set $sh (i32.and (local.get $w) (i32.const 31)))
    (local.set $astep (i32.shl (local.get $ah) (i32.const 2)))
    (local.set $bstep (i32.shl (local.get $bh) (i32.const 2)))
    (local.set $a (i32.add (local.get $ap) (i32.shl (i32.add (i32.mul (local.get $s) (local.get $ah)) (local.get $y0))
                                             (i32.const 2))))
    (local.set $b (i32.add (local.get $bp)
      (i32.shl (i32.add (i32.mul (local.get $bs) (local.get $bh)) (i32.sub (local.get $y0) (local.get $dy)))
        (i32.const 2))))
    (loop $strip
      (local.set $both (i32.and (i32.ne (local.get $sh) (i32.const 0))
        (i32.and (i32.ge_s (local.get $bs) (i32.const 0))
          (i32.lt_s (i32.add (local.get $bs) (i32.const 1)) (local.get $bn)))))
      ;; Rows of two B words: A at ai, B at bi and bj, shifts sh and k = 32 - sh. One-word rows: X & (Y << k),
      ;; X at ai and Y at bj (see $overlaps).
      (local.set $ai (local.get $a))
      (local.set $bi (local.get $b))
      (if (local.get $both)
        (then (local.set $bj (i32.add (local.get $b) (local.get $bstep)))
          (local.set $k (i32.sub (i32.const 32) (local.get $sh))))
        (else
          (if (i32.lt_s (local.get $bs) (i32.const 0))
            (then (local.set $bj (i32.add (local.get $b) (local.get $bstep)))
              (local.set $k (i32.sub (i32.const 32) (local.get $sh))))
            (else (local.set $bj (local.get $b)) (local.set $k (local.get $sh))
              (if (local.get $k) (then (local.set $ai (local.get $b)) (local.set $bj (local.get $a))))))
          ;; bi is read (not used) by the row loop's select: a valid address, not strip -1's
          (local.set $bi (local.get $bj))))
      (local.set $end (i32.add (local.get $ai) (local.get $rows4)))
      (if (i32.lt_u (local.get $rows4) (i32.const 16))
        (then
          ;; 1..3 rows: one by one
          (block $sdone (loop $t
            (br_if $sdone (i32.ge_u (local.get $ai) (local.get $end)))
            (local.set $tail (i32.add (local.get $tail) (i32.popcnt (i32.and (i32.load (local.get $ai))
              (select
                (i32.or (i32.shr_u (i32.load (local.get $bi)) (local.get $sh))
                  (i32.shl (i32.load (local.get $bj)) (local.get $k)))
                (i32.shl (i32.load (local.get $bj)) (local.get $k))
                (local.get $both))))))
            (local.set $ai (i32.add (local.get $ai) (i32.const 4)))
            (local.set $bi (i32.add (local.get $bi) (i32.const 4)))
            (local.set $bj (i32.add (local.get $bj) (i32.const 4)))
            (br $t))))
        (else
          (if (local.get $both)
            (then
              ;; The constant-shift loop takes 16 rows at a time; 4 at a time below, then the last ones.
              (local.set $acc (i32x4.add (local.get $acc)
                (call_indirect $shifts (type $count) (local.get $ai) (local.get $bi) (local.get $bj) (local.get $end)
                  (i32.add (local.get $sh) (i32.const 30)))))
              (local.set $w (i32.and (local.get $rows4) (i32.const -64)))
              (local.set $ai (i32.add (local.get $ai) (local.get $w)))
              (local.set $bi (i32.add (local.get $bi) (local.get $w)))
              (local.set $bj (i32.add (local.get $bj) (local.get $w)))
              (block $wdone (loop $q
                (br_if $wdone (i32.gt_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end)))
                (local.set $acc (i32x4.add (local.get $acc)
                  (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
                                                   (i8x16.popcnt (v128.and (v128.load (local.get $ai))
                    (v128.or (i32x4.shr_u (v128.load (local.get $bi)) (local.get $sh))
                      (i32x4.shl (v128.load (local.get $bj)) (local.get $k)))))))))
                (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
                (local.set $bi (i32.add (local.get $bi) (i32.const 16)))
                (local.set $bj (i32.add (local.get $bj) (i32.const 16)))
                (br $q)))
              (local.set $w (i32.sub (i32.sub (local.get $end) (i32.const 16)) (local.get $ai)))
              (local.set $v (v128.and (v128.load (i32.add (local.get $ai) (local.get $w)))
                (v128.or (i32x4.shr_u (v128.load (i32.add (local.get $bi) (local.get $w))) (local.get $sh))
                         (i32x4.shl (v128.load (i32.add (local.get $bj) (local.get $w))) (local.get $k))))))
            (else
              ;; Y << k as Y * 2^k (see $overlaps)
              (local.set $m (i32x4.splat (i32.shl (i32.const 1) (local.get $k))))
              (block $vdone (loop $v
                (br_if $vdone (i32.gt_u (i32.add (local.get $ai) (i32.const 32)) (local.get $end)))
                (local.set $v (v128.and (v128.load (local.get $ai))
                                (i32x4.mul (v128.load (local.get $bj)) (local.get $m))))
                (local.set $u (v128.and (v128.load offset=16 (local.get $ai))
                                (i32x4.mul (v128.load offset=16 (local.get $bj)) (local.get $m))))
                (if (v128.any_true (v128.or (local.get $v) (local.get $u)))
                  (then (local.set $acc (i32x4.add (local.get $acc)
                    (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
                                                     (i8x16.add (i8x16.popcnt (local.get $v))
                                                       (i8x16.popcnt (local.get $u)))))))))
                (local.set $ai (i32.add (local.get $ai) (i32.const 32)))
                (local.set $bj (i32.add (local.get $bj) (i32.const 32)))
                (br $v)))
              (if (i32.le_u (i32.add (local.get $ai) (i32.const 16)) (local.get $end))
                (then
                  (local.set $acc (i32x4.add (local.get $acc)
                    (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u
                                                     (i8x16.popcnt (v128.and (v128.load (local.get $ai))
                      (i32x4.mul (v128.load (local.get $bj)) (local.get $m))))))))
                  (local.set $ai (i32.add (local.get $ai) (i32.const 16)))
                  (local.set $bj (i32.add (local.get $bj) (i32.const 16)))))
              (local.set $w (i32.sub (i32.sub (local.get $end) (i32.const 16)) (local.get $ai)))
              (local.set $v (v128.and (v128.load (i32.add (local.get $ai) (local.get $w)))
                (i32x4.mul (v128.load (i32.add (local.get $bj) (local.get $w))) (local.get $m))))))
          ;; The strip's last 4 rows, 0..3 of them not counted yet: w = -4 * (rows counted already), so lane k
          ;; counts when k >= -w / 4 (w = -16, nothing left, masks every lane).
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (i8x16.popcnt (v128.and (local.get $v)
              (i32x4.ge_s (v128.const i32x4 0 1 2 3) (i32x4.splat
                                                       (i32.shr_s (i32.sub (i32.const 0) (local.get $w))
                                                         (i32.const 2))))))))))))
      (local.set $a (i32.add (local.get $a) (local.get $astep)))
      (local.set $b (i32.add (local.get $b) (local.get $bstep)))
      (local.set $bs (i32.add (local.get $bs) (i32.const 1)))
      (local.set $s (i32.add (local.get $s) (i32.const 1)))
      (br_if $strip (i32.le_s (local.get $s) (local.get $send))))
    (f64.add
      (f64.add
        (f64.add (f64.convert_i32_u (i32x4.extract_lane 0 (local.get $acc)))
          (f64.convert_i32_u (i32x4.extract_lane 1 (local.get $acc))))
        (f64.add (f64.convert_i32_u (i32x4.extract_lane 2 (local.get $acc)))
          (f64.convert_i32_u (i32x4.extract_lane 3 (local.get $acc)))))
      (f64.convert_i32_u (local.get $tail)))))
