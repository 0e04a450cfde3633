;; Batched overlaps and the memory helpers (word fill, word copy). Part of the kernels module (see wasm-kernels.wat).
(module
  ;; @uses: defined in another part (named by the import) and declared here so that wabt reads this part
  ;; on its own; scripts/build-wasm.ts drops the lines up to @end when it merges the parts.
  (memory (import "env" "memory") 1 65536 shared)
  (func $overlaps (import "wasm-pairs" "overlaps")
    (param $ap i32) (param $ah i32) (param $bp i32) (param $bh i32) (param $bn i32)
    (param $dx i32) (param $dy i32) (param $x0 i32) (param $x1 i32) (param $y0 i32) (param $y1 i32)
    (result i32))
  ;; @end

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
            (i32.and (i32.lt_s (local.get $dx) (local.get $aw))
              (i32.gt_s (local.get $dx) (i32.sub (i32.const 0) (local.get $bw))))
            (i32.and (i32.lt_s (local.get $dy) (local.get $ah))
              (i32.gt_s (local.get $dy) (i32.sub (i32.const 0) (local.get $bh)))))
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
  ;; element-by-element path (about 10x slower than on the JS heap); this loop is a memset.
  (func (export "fill32") (param $p i32) (param $n i32) (param $value i32)
    (local $end i32) (local $v v128)
    ;; All-zero and all-one words are byte fills: memory.fill is 3x faster than the v128 loop.
    (if (i32.or (i32.eqz (local.get $value)) (i32.eq (local.get $value) (i32.const -1)))
      (then (memory.fill (local.get $p) (i32.and (local.get $value) (i32.const 255))
              (i32.shl (local.get $n) (i32.const 2))) (return)))
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
    (memory.copy (local.get $dst) (local.get $src) (i32.shl (local.get $n) (i32.const 2)))))
