// C reference for bench/simd.bench.ts: the `overlaps` full scan (no hit) of the strip layout with SSE2
// (4 rows per vector) or AVX2 (8 rows per vector), 16 rows per branch like the WebAssembly kernel. It is
// the physical-limit anchor for the kernel, not part of the library. Built by the benchmark when a C
// compiler is present: cc -O3 -msse2 (or -mavx2 -DUSE_AVX2) overlaps.c -o overlaps
// Input file (little-endian int32): aw ah bw bh dx dy, then A's words, then B's words (strip layout).
// Prints the median nanoseconds per call over repeated samples.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const uint32_t *A, *B;
static int aw, ah, bw, bh, dx, dy;

static int overlaps(void) {
    int x0 = dx > 0 ? dx : 0, y0 = dy > 0 ? dy : 0;
    int x1 = aw < dx + bw ? aw : dx + bw, y1 = ah < dy + bh ? ah : dy + bh;
    int bn = (bw + 31) >> 5, rows = y1 - y0;
    for (int s = x0 >> 5; s <= (x1 - 1) >> 5; s++) {
        int o = s * 32 - dx, bs = o >> 5, sh = o & 31;
        const uint32_t *a = A + (size_t)s * ah + y0, *b = B + (size_t)bs * bh + (y0 - dy), *c = b + bh;
        int r = 0;
        if (!(sh != 0 && bs >= 0 && bs + 1 < bn)) {
            // One B word per row (the strips at B's edges): plain scalar code, a small share of a scan.
            int rs = sh, ls = 0;
            if (bs < 0) { b = c; rs = 0; ls = 32 - sh; }
            for (; r < rows; r++) if (a[r] & ((b[r] >> rs) << ls)) return 1;
            continue;
        }
#ifdef USE_AVX2
        __m128i rc = _mm_cvtsi32_si128(sh), lc = _mm_cvtsi32_si128(32 - sh);
        for (; r + 16 <= rows; r += 16) {
            __m256i v0 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + r)),
                _mm256_or_si256(_mm256_srl_epi32(_mm256_loadu_si256((const __m256i *)(b + r)), rc), _mm256_sll_epi32(_mm256_loadu_si256((const __m256i *)(c + r)), lc)));
            __m256i v1 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(a + r + 8)),
                _mm256_or_si256(_mm256_srl_epi32(_mm256_loadu_si256((const __m256i *)(b + r + 8)), rc), _mm256_sll_epi32(_mm256_loadu_si256((const __m256i *)(c + r + 8)), lc)));
            __m256i v = _mm256_or_si256(v0, v1);
            if (!_mm256_testz_si256(v, v)) return 1;
        }
#else
        __m128i rc = _mm_cvtsi32_si128(sh), lc = _mm_cvtsi32_si128(32 - sh);
        for (; r + 16 <= rows; r += 16) {
            __m128i v = _mm_setzero_si128();
            for (int k = 0; k < 16; k += 4) {
                v = _mm_or_si128(v, _mm_and_si128(_mm_loadu_si128((const __m128i *)(a + r + k)),
                    _mm_or_si128(_mm_srl_epi32(_mm_loadu_si128((const __m128i *)(b + r + k)), rc), _mm_sll_epi32(_mm_loadu_si128((const __m128i *)(c + r + k)), lc))));
            }
            if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) != 0xffff) return 1;
        }
#endif
        for (; r < rows; r++) if (a[r] & ((b[r] >> sh) | (c[r] << (32 - sh)))) return 1;
    }
    return 0;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb");
    int32_t h[6];
    if (!f || fread(h, 4, 6, f) != 6) return 2;
    aw = h[0]; ah = h[1]; bw = h[2]; bh = h[3]; dx = h[4]; dy = h[5];
    size_t na = (size_t)((aw + 31) >> 5) * ah, nb = (size_t)((bw + 31) >> 5) * bh;
    uint32_t *wa = malloc(na * 4), *wb = malloc(nb * 4);
    if (fread(wa, 4, na, f) != na || fread(wb, 4, nb, f) != nb) return 2;
    A = wa; B = wb;
    volatile int sink = 0;
    int iters = 1;
    for (double t0 = now(); now() - t0 < 1e7; iters *= 2) for (int i = 0; i < iters; i++) sink += overlaps(); // warm up, ~10 ms
    double samples[15];
    for (int k = 0; k < 15; k++) {
        double t0 = now();
        for (int i = 0; i < iters; i++) sink += overlaps();
        samples[k] = (now() - t0) / iters;
    }
    qsort(samples, 15, sizeof samples[0], cmp);
    printf("%d %.1f\n", overlaps(), samples[7]);
    return 0;
}
