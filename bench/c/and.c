// C reference for bench/speed.bench.ts: overlapMask's kernel on the strip layout with SSE2 (4 rows per
// vector), writing every word of a result of A's size (the clip's rows ANDed, the words around them zeroed),
// as src/kernels/wasm-pairs.wat's $combine does for overlapMask. The physical-limit anchor for that call, not
// part of the library. Built by the benchmark when a C compiler is present: cc -O3 -msse2 and.c -o and
// Input file (little-endian int32): aw ah bw bh dx dy, then A's words, then B's words (strip layout).
// Prints the result's popcount and the median nanoseconds per call over repeated samples.
#include <emmintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const uint32_t *A, *B;
static uint32_t *C;
static int aw, ah, bw, bh, dx, dy;

__attribute__((noinline)) static void and_(void) {
    int x0 = dx > 0 ? dx : 0, y0 = dy > 0 ? dy : 0;
    int x1 = aw < dx + bw ? aw : dx + bw, y1 = ah < dy + bh ? ah : dy + bh;
    int bn = (bw + 31) >> 5, an = (aw + 31) >> 5, rows = y1 - y0;
    uint32_t *z = C;
    for (int s = x0 >> 5; s <= (x1 - 1) >> 5; s++) {
        int o = s * 32 - dx, bs = o >> 5, sh = o & 31;
        const uint32_t *a = A + (size_t)s * ah + y0, *b = B + (size_t)bs * bh + (y0 - dy), *c = b + bh;
        uint32_t *d = C + (size_t)s * ah + y0;
        memset(z, 0, (size_t)(d - z) * 4);
        z = d + rows;
        int r = 0;
        if (!(sh != 0 && bs >= 0 && bs + 1 < bn)) {
            // One B word per row (the strips at B's edges).
            int rs = sh, ls = 0;
            if (bs < 0) { b = c; rs = 0; ls = 32 - sh; }
            for (; r < rows; r++) d[r] = a[r] & ((b[r] >> rs) << ls);
            continue;
        }
        __m128i rc = _mm_cvtsi32_si128(sh), lc = _mm_cvtsi32_si128(32 - sh);
        for (; r + 4 <= rows; r += 4) {
            _mm_storeu_si128((__m128i *)(d + r), _mm_and_si128(_mm_loadu_si128((const __m128i *)(a + r)),
                _mm_or_si128(_mm_srl_epi32(_mm_loadu_si128((const __m128i *)(b + r)), rc), _mm_sll_epi32(_mm_loadu_si128((const __m128i *)(c + r)), lc))));
        }
        for (; r < rows; r++) d[r] = a[r] & ((b[r] >> sh) | (c[r] << (32 - sh)));
    }
    memset(z, 0, (size_t)(C + (size_t)an * ah - z) * 4);
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
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    int32_t h[6];
    if (!f || fread(h, 4, 6, f) != 6) return 2;
    aw = h[0]; ah = h[1]; bw = h[2]; bh = h[3]; dx = h[4]; dy = h[5];
    size_t na = (size_t)((aw + 31) >> 5) * ah, nb = (size_t)((bw + 31) >> 5) * bh;
    uint32_t *wa = malloc(na * 4), *wb = malloc(nb * 4);
    C = malloc(na * 4);
    if (fread(wa, 4, na, f) != na || fread(wb, 4, nb, f) != nb) return 2;
    A = wa; B = wb;
    int iters = 1;
    for (double t0 = now(); now() - t0 < 1e7; iters *= 2) for (int i = 0; i < iters; i++) { and_(); __asm__ volatile("" ::: "memory"); } // warm up, ~10 ms
    double samples[15];
    for (int k = 0; k < 15; k++) {
        double t0 = now();
        for (int i = 0; i < iters; i++) { and_(); __asm__ volatile("" ::: "memory"); }
        samples[k] = (now() - t0) / iters;
    }
    qsort(samples, 15, sizeof samples[0], cmp);
    long bits = 0;
    for (size_t i = 0; i < na; i++) bits += __builtin_popcount(C[i]);
    printf("%ld %.1f %.1f %.1f\n", bits, samples[7], samples[0], samples[14]);
    return 0;
}
