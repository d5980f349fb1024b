/* Averaged Perceptron state: `w` and the averaging vector `u` as two arrays
 * (the engine's layout) against one array of (w, u) cells, on rows like the
 * sparse set's (80 random indices over 2^20 features, rows read in order,
 * the weights gathered at random; labels from a hidden separator with
 * noise, so that about a quarter of the rows are mistakes, as on the
 * sparse set). Prints ms per pass for the plain Perceptron, the averaged
 * one with separate arrays, with cells, and with separate arrays and each
 * update of `u` deferred by DEPTH mistakes (its cells prefetched at the
 * mistake, the update applied in mistake order: the same bits as applied
 * at once, which the last line checks); each keeps its own state.
 *
 *   gcc -O2 -o avg_layout benches/c/avg_layout.c && ./avg_layout [ROWS] [PASSES]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DIM (1u << 20)
#define NNZ 80

static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t next(void) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    return s;
}
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static int cmp(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

typedef struct { float w, u; } cell;
/* Mistakes an update of `u` is held back by in the deferred variant. */
#ifndef DEPTH
#define DEPTH 4
#endif

int main(int argc, char **argv) {
    size_t rows = argc > 1 ? strtoul(argv[1], 0, 10) : 500000;
    int passes = argc > 2 ? atoi(argv[2]) : 5;
    uint32_t *idx = malloc(rows * NNZ * 4);
    float *val = malloc(rows * NNZ * 4), *y = malloc(rows * 4);
    float *truth = malloc(DIM * 4);
    for (size_t i = 0; i < DIM; i++) truth[i] = (float)((int64_t)(next() % 2001) - 1000) / 1000.0f;
    for (size_t r = 0; r < rows; r++) {
        float m = 0;
        for (int k = 0; k < NNZ; k++) {
            idx[r * NNZ + k] = next() % DIM;
            val[r * NNZ + k] = (float)(next() % 1000 + 1) / 1000.0f;
        }
        qsort(idx + r * NNZ, NNZ, 4, cmp);
        for (int k = 0; k < NNZ; k++) m += truth[idx[r * NNZ + k]] * val[r * NNZ + k];
        y[r] = (m + (float)((int64_t)(next() % 2001) - 1000) / 150.0f) > 0 ? 1.0f : -1.0f;
    }
    float *w0 = calloc(DIM, 4), *w1 = calloc(DIM, 4), *u = calloc(DIM, 4), *w3 = calloc(DIM, 4), *u3 = calloc(DIM, 4);
    size_t ring[DEPTH]; float ringc[DEPTH]; size_t head = 0, held = 0;
    cell *c = calloc(DIM, sizeof(cell));
    const char *names[4] = {"perceptron", "averaged, w and u apart", "averaged, (w, u) cells", "averaged, u deferred"};
    for (int pass = 0; pass < passes; pass++) {
        for (int v = 0; v < 4; v++) {
            double t0 = now();
            size_t mistakes = 0;
            float tau = 0;
            float *w = v == 0 ? w0 : v == 3 ? w3 : w1;
            for (size_t r = 0; r < rows; r++) {
                const uint32_t *ix = idx + r * NNZ;
                const float *vx = val + r * NNZ;
                float m = 0;
                tau += 1;
                if (v == 2) {
                    for (int k = 0; k < NNZ; k++) m += c[ix[k]].w * vx[k];
                } else {
                    for (int k = 0; k < NNZ; k++) m += w[ix[k]] * vx[k];
                }
                if (y[r] * m > 0) continue;
                mistakes++;
                float a = y[r], ta = (tau - 1) * a;
                if (v == 0) {
                    for (int k = 0; k < NNZ; k++) w[ix[k]] += a * vx[k];
                } else if (v == 1) {
                    for (int k = 0; k < NNZ; k++) { w[ix[k]] += a * vx[k]; u[ix[k]] += ta * vx[k]; }
                } else if (v == 3) {
                    for (int k = 0; k < NNZ; k++) { w[ix[k]] += a * vx[k]; __builtin_prefetch(u3 + ix[k], 1); }
                    if (held == DEPTH) {
                        size_t o = ring[head]; float oc = ringc[head];
                        for (int k = 0; k < NNZ; k++) u3[idx[o * NNZ + k]] += oc * val[o * NNZ + k];
                        held--;
                    }
                    ring[head] = r; ringc[head] = ta; head = (head + 1) % DEPTH; held++;
                } else {
                    for (int k = 0; k < NNZ; k++) { c[ix[k]].w += a * vx[k]; c[ix[k]].u += ta * vx[k]; }
                }
            }
            if (v == 3) {
                for (; held; held--) {
                    size_t h = (head + DEPTH - held) % DEPTH, o = ring[h];
                    for (int k = 0; k < NNZ; k++) u3[idx[o * NNZ + k]] += ringc[h] * val[o * NNZ + k];
                }
            }
            printf("pass %d  %-26s %8.1f ms  %zu mistakes\n", pass + 1, names[v], (now() - t0) * 1e3, mistakes);
        }
    }
    printf("u identical: %d, w identical: %d\n", memcmp(u, u3, DIM * 4) == 0, memcmp(w1, w3, DIM * 4) == 0);
    return 0;
}
