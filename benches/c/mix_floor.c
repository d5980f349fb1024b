/* What parameter mixing must cost on this machine, without Rust: the
 * averaged Perceptron's row work (as two_cores.c: the margin w·x, and on
 * a mistake w += y·x and u += c·y·x) over f32 arrays of 2^20, its f64
 * averaging sums folded at the end of a pass (sum += τ·w − u, u = 0), and
 * parameter mixing of P parts on one thread (`train --parts P --threads
 * 1`), each mix in the least memory traffic its layout allows:
 *
 *   - one part: every row on one state (its sums folded only when the
 *     model is made, as the engine does);
 *   - P parts, passes only: each part its P-th of the rows on its own
 *     state (w, u), nothing mixed — what the parts' row work costs when
 *     P states share the caches;
 *   - P parts, full copies (the engine's layout): each part holds w, u
 *     and its own sums; after the parts' passes, one sweep folds every
 *     part and sums means and sum increments into the mixed state, and
 *     each part copies the mixed w and sums back as its next pass starts;
 *   - P parts, shared sums: each part holds w and u only; the sweep adds
 *     every part's τ·w − u to the one copy of the sums, and the parts copy
 *     back w alone.
 *
 * Prints the median ms of passes 2..PASSES of each and its ratio to one
 * part: the least `--parts P --threads 1` can cost here in each layout
 * (SPEED.md, "Parallel passes (parameter mixing)").
 *
 *   gcc -O2 -march=x86-64-v3 -o mix_floor benches/c/mix_floor.c
 *   ./mix_floor sparse.svm 16 7
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svm_rows.h"

/* Rows lo..hi on (w, u); returns τ, the steps taken. */
static float pass(size_t lo, size_t hi, float *w, float *u) {
    return averaged_rows(lo, hi, w, u, 0);
}

static void *zeroed(size_t bytes) {
    void *p = calloc(1, bytes);
    if (!p) { perror("calloc"); exit(1); }
    return p;
}

#define CHUNK 4096

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s FILE [PARTS] [PASSES]\n", argv[0]); return 2; }
    int parts = argc > 2 ? atoi(argv[2]) : 16;
    int passes = argc > 3 ? atoi(argv[3]) : 7;
    if (parts < 1 || parts > 64 || passes < 2 || passes > 64) { fprintf(stderr, "PARTS 1..64, PASSES 2..64\n"); return 2; }
    load(argv[1]);
    float *w[64], *u[64];
    double *sum[64], tau[64];
    for (int p = 0; p < parts; p++) {
        w[p] = zeroed(DIM * sizeof(float));
        u[p] = zeroed(DIM * sizeof(float));
        sum[p] = zeroed(DIM * sizeof(double));
    }
    float *mw = zeroed(DIM * sizeof(float));
    double *msum = zeroed(DIM * sizeof(double)), *acc = zeroed(CHUNK * sizeof(double));
    double one[64], split[64], full[64], shared[64];
    double mu = 1.0 / parts;
    for (int k = 0; k < passes; k++) {
        /* One part. */
        double t = now();
        pass(0, rows, w[0], u[0]);
        one[k] = now() - t;
        /* P parts, passes only. */
        t = now();
        for (int p = 0; p < parts; p++) pass(p * rows / parts, (p + 1) * rows / parts, w[p], u[p]);
        split[k] = now() - t;
        /* P parts, full copies: each loads the last mix as its pass starts. */
        t = now();
        for (int p = 0; p < parts; p++) {
            if (k > 0) {
                memcpy(w[p], mw, DIM * sizeof(float));
                memcpy(sum[p], msum, DIM * sizeof(double));
                memset(u[p], 0, DIM * sizeof(float));
            }
            tau[p] = pass(p * rows / parts, (p + 1) * rows / parts, w[p], u[p]);
        }
        for (size_t a = 0; a < DIM; a += CHUNK) {
            memset(acc, 0, CHUNK * sizeof(double));
            for (size_t i = a; i < a + CHUNK; i++) msum[i] = sum[0][i];
            for (int p = 0; p < parts; p++) {
                for (size_t i = a; i < a + CHUNK; i++) {
                    double s = sum[p][i] + tau[p] * w[p][i] - u[p][i];
                    acc[i - a] += mu * w[p][i];
                    msum[i] += s - sum[p][i];
                }
            }
            for (size_t i = a; i < a + CHUNK; i++) mw[i] = (float)acc[i - a];
        }
        full[k] = now() - t;
        /* P parts, shared sums (msum is the one copy). */
        t = now();
        for (int p = 0; p < parts; p++) {
            if (k > 0) {
                memcpy(w[p], mw, DIM * sizeof(float));
                memset(u[p], 0, DIM * sizeof(float));
            }
            tau[p] = pass(p * rows / parts, (p + 1) * rows / parts, w[p], u[p]);
        }
        for (size_t a = 0; a < DIM; a += CHUNK) {
            memset(acc, 0, CHUNK * sizeof(double));
            for (int p = 0; p < parts; p++) {
                for (size_t i = a; i < a + CHUNK; i++) {
                    acc[i - a] += mu * w[p][i];
                    msum[i] += tau[p] * w[p][i] - u[p][i];
                }
            }
            for (size_t i = a; i < a + CHUNK; i++) mw[i] = (float)acc[i - a];
        }
        shared[k] = now() - t;
    }
    double m1 = median(one + 1, passes - 1), ms = median(split + 1, passes - 1);
    double mf = median(full + 1, passes - 1), mh = median(shared + 1, passes - 1);
    printf("%zu rows, %llu non-zeros, %d parts on one thread; median of passes 2..%d\n", rows,
           (unsigned long long)start[rows], parts, passes);
    printf("one part:                           %8.1f ms\n", m1);
    printf("%2d parts, passes only:             %8.1f ms  (%.2fx one part)\n", parts, ms, ms / m1);
    printf("%2d parts, full copies, mixed:      %8.1f ms  (%.2fx)\n", parts, mf, mf / m1);
    printf("%2d parts, shared sums, mixed:      %8.1f ms  (%.2fx)\n", parts, mh, mh / m1);
    return 0;
}
