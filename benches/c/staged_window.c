/* Could the idle second core take the default order's cost off the one
 * that trains? A second thread copies each window's rows, in training
 * order, into one of two staging buffers; the training thread dots the
 * staged window in order (so its reads are sequential again) while the
 * next one is staged. Against the sequential order and `Order::Chunks` as
 * the engine runs it (the next window and the row 2 ahead prefetched), on
 * MNIST-like CSR rows as in row_order.c. Prints the median ms of passes
 * 3..PASSES. See SPEED.md ("A second core staging the window").
 *
 *   gcc -O2 -march=x86-64-v3 -pthread -o staged_window benches/c/staged_window.c
 *   ./staged_window 60000 14 [AHEAD]   # AHEAD: rows the stager prefetches ahead (8)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <stdatomic.h>

enum { DIM = 784 };
static int CHUNK = 64, WINDOW = 64 * 16;
static uint32_t *idx; static float *val; static uint64_t *off;
static float w[DIM];
static uint64_t state = 88172645463325252ull;
static uint64_t rnd(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static float dotp(const uint32_t *I, const float *V, uint64_t a, uint64_t b) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0; uint64_t k = a;
    for (; k + 4 <= b; k += 4) { s0 += w[I[k]] * V[k]; s1 += w[I[k+1]] * V[k+1]; s2 += w[I[k+2]] * V[k+2]; s3 += w[I[k+3]] * V[k+3]; }
    for (; k < b; k++) s0 += w[I[k]] * V[k];
    return (s0 + s1) + (s2 + s3);
}
static void prefetch_row(uint32_t r) {
    for (const char *p = (const char *)&idx[off[r]], *e = (const char *)&idx[off[r + 1]]; p < e; p += 64) __asm__ volatile("prefetcht0 (%0)" ::"r"(p));
    for (const char *p = (const char *)&val[off[r]], *e = (const char *)&val[off[r + 1]]; p < e; p += 64) __asm__ volatile("prefetcht0 (%0)" ::"r"(p));
}
static void shuffle(uint32_t *a, int n) { for (int i = n - 1; i > 0; i--) { int j = rnd() % (i + 1); uint32_t t = a[i]; a[i] = a[j]; a[j] = t; } }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* Two staging buffers. */
static uint32_t *bidx[2]; static float *bval[2]; static uint64_t *boff[2];
static _Atomic int ready[2], quit; static uint32_t *gorder; static int gn; static _Atomic int go;
static int AHEAD = 8;
static void *stager(void *arg) {
    (void)arg;
    for (;;) {
        while (atomic_load(&go) == 0) { if (atomic_load(&quit)) return 0; }
        int nw = (gn + WINDOW - 1) / WINDOW;
        for (int k = 0; k < nw; k++) {
            int b = k & 1;
            while (atomic_load_explicit(&ready[b], memory_order_acquire)) ;
            int a = k * WINDOW, e = a + WINDOW < gn ? a + WINDOW : gn;
            uint64_t o = 0; boff[b][0] = 0;
            for (int i = a; i < e; i++) {
                if (i + AHEAD < e) prefetch_row(gorder[i + AHEAD]);
                uint64_t s = off[gorder[i]], len = off[gorder[i] + 1] - s;
                memcpy(bidx[b] + o, idx + s, 4 * len); memcpy(bval[b] + o, val + s, 4 * len);
                o += len; boff[b][i - a + 1] = o;
            }
            atomic_store_explicit(&ready[b], 1, memory_order_release);
        }
        atomic_store(&go, 0);
    }
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 60000, passes = argc > 2 ? atoi(argv[2]) : 12;
    if (argc > 3) AHEAD = atoi(argv[3]);
    idx = malloc(4 * (size_t)n * 200); val = malloc(4 * (size_t)n * 200); off = malloc(8 * (size_t)(n + 1));
    uint32_t *order = malloc(4 * (size_t)n), *stream = malloc(4 * (size_t)n), *chunks = malloc(4 * (size_t)n);
    for (int b = 0; b < 2; b++) { bidx[b] = malloc(4 * (size_t)WINDOW * 200); bval[b] = malloc(4 * (size_t)WINDOW * 200); boff[b] = malloc(8 * (size_t)(WINDOW + 1)); }
    enum { O = 3 }; double *times = malloc(sizeof *times * O * passes);
    off[0] = 0;
    for (int r = 0; r < n; r++) { uint64_t o = off[r];
        for (uint32_t k = 0, len = 100 + rnd() % 100, j = rnd() % 50; k < len && j < DIM; k++, j += 1 + rnd() % 4) idx[o] = j, val[o++] = (rnd() % 255) / 255.f;
        off[r + 1] = o; }
    for (int i = 0; i < DIM; i++) w[i] = (rnd() % 1000) / 1000.f - 0.5f;
    pthread_t th; pthread_create(&th, 0, stager, 0);
    int nc = (n + CHUNK - 1) / CHUNK; float sink = 0;
    for (int pass = 0; pass < passes; pass++) for (int o = 0; o < O; o++) {
        for (int c = 0; c < nc; c++) chunks[c] = c;
        shuffle(chunks, nc);
        int m = 0;
        for (int c = 0; c < nc; c++) for (int r = chunks[c] * CHUNK; r < (int)(chunks[c] + 1) * CHUNK && r < n; r++) stream[m++] = r;
        memcpy(order, stream, 4 * (size_t)n);
        for (int a = 0; a < n; a += WINDOW) shuffle(order + a, (a + WINDOW < n ? WINDOW : n - a));
        if (o == 0) for (int i = 0; i < n; i++) order[i] = i;
        double t = now();
        if (o == 2) {
            gorder = order; gn = n; atomic_store(&go, 1);
            int nw = (n + WINDOW - 1) / WINDOW;
            for (int k = 0; k < nw; k++) {
                int b = k & 1;
                while (!atomic_load_explicit(&ready[b], memory_order_acquire)) ;
                int rows = (k + 1) * WINDOW < n ? WINDOW : n - k * WINDOW;
                for (int i = 0; i < rows; i++) sink += dotp(bidx[b], bval[b], boff[b][i], boff[b][i + 1]);
                atomic_store_explicit(&ready[b], 0, memory_order_release);
            }
            while (atomic_load(&go)) ;
        } else {
            for (int i = 0; i < n; i++) {
                if (o == 1 && i + WINDOW < n) prefetch_row(stream[i + WINDOW]);
                if (o == 1 && i + 2 < n) prefetch_row(order[i + 2]);
                sink += dotp(idx, val, off[order[i]], off[order[i] + 1]);
            }
        }
        times[o * passes + pass] = now() - t;
    }
    atomic_store(&quit, 1);
    const char *names[O] = {"sequential", "Order::Chunks (next window + row 2 ahead prefetched)", "staged by a second thread, dotted in order"};
    printf("%d rows (%.1f MB), median ms of passes 3..%d (sum %g)\n", n, off[n] * 8 / 1e6, passes, sink);
    for (int o = 0; o < O; o++) { qsort(times + o * passes + 2, passes - 2, sizeof *times, cmp); printf("%8.2f  %s\n", times[o * passes + 2 + (passes - 2) / 2] * 1e3, names[o]); }
    return 0;
}
