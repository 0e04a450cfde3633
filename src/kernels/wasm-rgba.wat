;; Mask bits from RGBA pixels (Mask.fromRGBA, fromColorKey). Part of the kernels module (see wasm-kernels.wat).
(module
  ;; @uses: defined in another part (named by the import) and declared here so that wabt reads this part
  ;; on its own; scripts/build-wasm.ts drops the lines up to @end when it merges the parts.
  (memory (import "env" "memory") 1 65536 shared)
  ;; @end

  ;; bits of the words from dst on (row r, strip s at dst + (s * ah + r) * 4). op 0: alpha > t; op 1:
  ;; some RGB channel differs from key (0xBBGGRR, memory order) by more than t. 16 pixels per step:
  ;; op 0 takes each alpha by one uniform lane shift and narrows the 16 into bytes in order; op 1
  ;; compares all bytes at once (|p - key| as two saturating subtractions), keeps RGB, and narrows
  ;; the per-pixel lane masks. i8x16.bitmask then gives the 16 bits. Fewer than 16 left: one by one.
  (func $rgbaMask (export "rgbaMask")
    (param $src i32) (param $stride i32) (param $cols i32) (param $rows i32) (param $dst i32) (param $ah i32)
    (param $op i32) (param $key i32) (param $t i32)
    (local $r i32) (local $p i32) (local $q i32) (local $x i32) (local $w i32) (local $g i32) (local $hit i32)
    (local $c i32)
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
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=16 (local.get $p)))) (local.get $tv)))
                (local.get $zero)))
            (i16x8.narrow_i32x4_s
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load offset=32 (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=32 (local.get $p)))) (local.get $tv)))
                (local.get $zero))
              (i32x4.ne (v128.and (local.get $rgb) (i8x16.gt_u (v128.or
                (i8x16.sub_sat_u (v128.load offset=48 (local.get $p)) (local.get $kv))
                (i8x16.sub_sat_u (local.get $kv) (v128.load offset=48 (local.get $p)))) (local.get $tv)))
                (local.get $zero)))))))
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
                                      (i32.and (i32.shr_u (local.get $key) (i32.shl (local.get $c) (i32.const 3)))
                                        (i32.const 255)))
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
      (br $row)))))
