/* What the order of rows costs a sparse dot on this core, without Rust.
 *
 * MNIST-like CSR rows (100-200 sorted indices below 784, f32 values, about
 * 1.4 KB a row in two arrays) dotted with 784 f32 weights (in L1), in the
 * orders `Order::Chunks` chooses between, with its prefetches or without.
 * Prints the median milliseconds of passes 3..PASSES for each order, the
 * orders interleaved pass by pass. See SPEED.md ("Random rows on this core").
 *
 *   gcc -O2 -march=x86-64-v3 -o /tmp/row_order benches/c/row_order.c
 *   /tmp/row_order 60000 12     # 84 MB of rows: from memory
 *   /tmp/row_order 10240 300    # 14 MB: inside the 32 MB L3
 *   /tmp/row_order 60000 12 16 256   # 16-row chunks, 256-row windows
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { DIM = 784, ORDERS = 10 };

/* Rows per chunk and per window: Order::Chunks' 64 and 16 × 64 unless given. */
static int CHUNK = 64, WINDOW = 64 * 16;

static uint32_t *idx;
static float *val;
static uint64_t *off;
static float w[DIM];
/* A window's rows copied in training order (order 6). */
static uint32_t *bidx;
static float *bval;
static uint64_t *boff;

static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static float dot(uint64_t a, uint64_t b) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    uint64_t k = a;
    for (; k + 4 <= b; k += 4) {
        s0 += w[idx[k]] * val[k];
        s1 += w[idx[k + 1]] * val[k + 1];
        s2 += w[idx[k + 2]] * val[k + 2];
        s3 += w[idx[k + 3]] * val[k + 3];
    }
    for (; k < b; k++) s0 += w[idx[k]] * val[k];
    return (s0 + s1) + (s2 + s3);
}

/* Every cache line of row r, both arrays. Inline assembly: GCC dropped
 * _mm_prefetch from this loop at -O2. */
static void prefetch_row(uint32_t r) {
    for (const char *p = (const char *)&idx[off[r]], *e = (const char *)&idx[off[r + 1]]; p < e; p += 64)
        __asm__ volatile("prefetcht0 (%0)" ::"r"(p));
    for (const char *p = (const char *)&val[off[r]], *e = (const char *)&val[off[r + 1]]; p < e; p += 64)
        __asm__ volatile("prefetcht0 (%0)" ::"r"(p));
}

/* The first two cache lines of each of row r's arrays. */
static void prefetch_head(uint32_t r) {
    __asm__ volatile("prefetcht0 (%0)" ::"r"(&idx[off[r]]));
    __asm__ volatile("prefetcht0 64(%0)" ::"r"(&idx[off[r]]));
    __asm__ volatile("prefetcht0 (%0)" ::"r"(&val[off[r]]));
    __asm__ volatile("prefetcht0 64(%0)" ::"r"(&val[off[r]]));
}

static void shuffle(uint32_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = rnd() % (i + 1);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *names[ORDERS] = {
    "sequential",
    "sequential, each row prefetched 2 ahead",
    "chunks in random order, rows as stored, next window prefetched",
    "window shuffled, no prefetch",
    "window shuffled, next window prefetched (Order::Chunks)",
    "window shuffled, next window and the row 2 ahead prefetched",
    "window copied in shuffled order into a buffer, then dotted in order; next window prefetched",
    "window shuffled, next window and the row 3 ahead prefetched",
    "window shuffled, next window and the row 4 ahead prefetched",
    "window shuffled, next window, the row 2 ahead and the head of the row 6 ahead prefetched",
};

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 60000, passes = argc > 2 ? atoi(argv[2]) : 12;
    if (argc > 4) CHUNK = atoi(argv[3]), WINDOW = atoi(argv[4]);
    if (CHUNK < 1 || WINDOW < CHUNK) return fprintf(stderr, "usage: row_order ROWS PASSES [CHUNK WINDOW]\n"), 2;
    if (n < WINDOW || passes < 3) return fprintf(stderr, "usage: row_order ROWS>=%d PASSES>=3\n", WINDOW), 2;
    idx = malloc(sizeof *idx * (size_t)n * 200);
    val = malloc(sizeof *val * (size_t)n * 200);
    off = malloc(sizeof *off * (n + 1));
    uint32_t *order = malloc(4 * (size_t)n), *stream = malloc(4 * (size_t)n), *chunks = malloc(4 * (size_t)n);
    bidx = malloc(sizeof *bidx * (size_t)WINDOW * 200);
    bval = malloc(sizeof *bval * (size_t)WINDOW * 200);
    boff = malloc(sizeof *boff * (WINDOW + 1));
    double *times = malloc(sizeof *times * ORDERS * passes);
    off[0] = 0;
    for (int r = 0; r < n; r++) {
        uint64_t o = off[r];
        for (uint32_t k = 0, len = 100 + rnd() % 100, j = rnd() % 50; k < len && j < DIM; k++, j += 1 + rnd() % 4)
            idx[o] = j, val[o++] = (rnd() % 255) / 255.f;
        off[r + 1] = o;
    }
    for (int i = 0; i < DIM; i++) w[i] = (rnd() % 1000) / 1000.f - 0.5f;
    int nc = (n + CHUNK - 1) / CHUNK;
    float sink = 0;
    for (int pass = 0; pass < passes; pass++) {
        for (int o = 0; o < ORDERS; o++) {
            /* Order::Chunks: chunks in a random order (stream), windows of it shuffled (order). */
            for (int c = 0; c < nc; c++) chunks[c] = c;
            shuffle(chunks, nc);
            int m = 0;
            for (int c = 0; c < nc; c++)
                for (int r = chunks[c] * CHUNK; r < (int)(chunks[c] + 1) * CHUNK && r < n; r++) stream[m++] = r;
            memcpy(order, stream, 4 * (size_t)n);
            if (o >= 3)
                for (int a = 0; a < n; a += WINDOW) shuffle(order + a, (a + WINDOW < n ? WINDOW : n - a));
            if (o < 2)
                for (int i = 0; i < n; i++) order[i] = i;
            int window = o == 2 || o >= 4, ahead = o == 1 || o == 5 || o == 9 ? 2 : o == 7 ? 3 : o == 8 ? 4 : 0;
            double t = now();
            if (o == 6) {
                for (int a = 0; a < n; a += WINDOW) {
                    int e = a + WINDOW < n ? a + WINDOW : n;
                    boff[0] = 0;
                    for (int i = a; i < e; i++) {
                        uint64_t s = off[order[i]], len = off[order[i] + 1] - s;
                        memcpy(bidx + boff[i - a], idx + s, 4 * len);
                        memcpy(bval + boff[i - a], val + s, 4 * len);
                        boff[i - a + 1] = boff[i - a] + len;
                    }
                    for (int i = e; i < e + WINDOW && i < n; i++) prefetch_row(stream[i]);
                    uint32_t *si = idx;
                    float *sv = val;
                    idx = bidx, val = bval;
                    for (int i = 0; i < e - a; i++) sink += dot(boff[i], boff[i + 1]);
                    idx = si, val = sv;
                }
                times[o * passes + pass] = now() - t;
                continue;
            }
            for (int i = 0; i < n; i++) {
                if (window && i + WINDOW < n) prefetch_row(stream[i + WINDOW]);
                if (ahead && i + ahead < n) prefetch_row(order[i + ahead]);
                if (o == 9 && i + 6 < n) prefetch_head(order[i + 6]);
                sink += dot(off[order[i]], off[order[i] + 1]);
            }
            times[o * passes + pass] = now() - t;
        }
    }
    printf("%d rows (%.1f MB), median ms of passes 3..%d (sum %g)\n", n, off[n] * 8 / 1e6, passes, sink);
    for (int o = 0; o < ORDERS; o++) {
        qsort(times + o * passes + 2, passes - 2, sizeof *times, cmp);
        printf("%8.2f  %s\n", times[o * passes + 2 + (passes - 2) / 2] * 1e3, names[o]);
    }
    return 0;
}
