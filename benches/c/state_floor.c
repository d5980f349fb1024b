/* What a sparse pass that reads and writes per-feature state at every
 * non-zero costs on this machine, without Rust: the rows of a LIBSVM file
 * (indices taken modulo 2^20, values as f32), then, for each row,
 *
 *   - cells of 8 bytes (FTRL-Proximal's f32 z and sqrt n: 8 MB), 16
 *     bytes (16 MB) or 32 bytes (EG±'s cells: 32 MB) read at the row's
 *     indices and written back with one add: what memory alone costs,
 *     with and without the cells of the row 4 ahead prefetched (the
 *     engine's `STATE_AHEAD`);
 *   - FTRL-Proximal's step as the engine computes it (f32 cells, f64
 *     arithmetic, the logistic loss, l1 = l2 = beta = 1, alpha = 0.1),
 *     the row 4 ahead prefetched: a plain scalar C copy of the engine;
 *     then closer to the engine: values as u8 times 1/16 (the sparse
 *     set's shard encoding; other files' values are only approximated),
 *     the margin in four partial sums, the loss's gradient by expf; and
 *     the row first gathered into scratch arrays, then weights and
 *     margin in lanes of four (`ftrl.rs`'s layout).
 *
 * Prints the median ms of passes 2..PASSES of each. Compare with the
 * engine's read-only pass over the same rows as shards (`rosenblatt bench
 * read`) and its `train --learner ftrl-proximal --threads 1 --order
 * sequential --json` pass times, run alternately. See SPEED.md ("State
 * floors, FTRL-Proximal in C").
 *
 * With HUGE=1 in the environment, every cell array is allocated on 2 MB
 * boundaries and advised into 2 MB pages (madvise MADV_HUGEPAGE) before
 * it is first written, as the engine's learners do with large state
 * (crates/learners/src/memory.rs); compare runs with and without.
 *
 *   gcc -O2 -march=x86-64-v3 -o state_floor benches/c/state_floor.c -lm
 *   ./state_floor sparse.svm 4        # every variant
 *   ./state_floor sparse.svm 4 ftrl   # the FTRL-Proximal copies alone
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

/* n * size zeroed bytes; with HUGE set, on 2 MB boundaries and advised
 * into 2 MB pages before the zeroing writes them. */
static void *cells_calloc(size_t n, size_t size) {
    static const size_t huge = 2u << 20;
    if (!getenv("HUGE")) return calloc(n, size);
    size_t len = (n * size + huge - 1) / huge * huge;
    void *p = NULL;
    if (posix_memalign(&p, huge, len)) return NULL;
    madvise(p, len, MADV_HUGEPAGE);
    return memset(p, 0, len);
}

#define DIM (1u << 20)

static uint32_t *idx;
static float *val, *labels;
static uint64_t *off;
static size_t rows;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void prefetch_cells(const char *cells, size_t bytes, size_t r) {
    for (uint64_t k = off[r]; k < off[r + 1]; k++) __builtin_prefetch(cells + (size_t)idx[k] * bytes);
}

/* Cells of `words` doubles: each row's cells read into a margin, then the
 * last word of each written with one add. */
static double touch(double *cells, size_t words, int prefetch) {
    double t = now(), sum = 0;
    for (size_t r = 0; r < rows; r++) {
        if (prefetch && r + 4 < rows) prefetch_cells((const char *)cells, 8 * words, r + 4);
        double m = 0, g;
        for (uint64_t k = off[r]; k < off[r + 1]; k++) m += cells[(size_t)idx[k] * words] * val[k];
        g = m > 0 ? -1e-9 : 1e-9;
        for (uint64_t k = off[r]; k < off[r + 1]; k++) cells[(size_t)idx[k] * words + words - 1] += g * val[k];
        sum += m;
    }
    if (sum == 12345.678) puts("");
    return now() - t;
}

/* FTRL-Proximal: weights of the row for its margin, the logistic
 * gradient, then each cell's update, as `ftrl.rs` computes them. */
static const double L1 = 1.0, L2 = 1.0, BETA = 1.0, INV_ALPHA = 10.0;

/* A coordinate's weight from its state `z` and `s = sqrt n`. */
static inline double weight(double z, double s) {
    double shrunk = (L1 - z < 0 ? L1 - z : 0) + (-L1 - z > 0 ? -L1 - z : 0);
    return shrunk / ((BETA + s) * INV_ALPHA + L2);
}

/* Entry k's step for gradient g at weight w: sigma = (sqrt(n + g^2) -
 * sqrt n)/alpha, z += g - sigma w, n += g^2. */
static inline void step(float (*cells)[2], uint64_t k, double g, double w) {
    double z = cells[idx[k]][0], s = cells[idx[k]][1], s2 = sqrt(s * s + g * g);
    cells[idx[k]][0] = (float)(z + g - (s2 - s) * INV_ALPHA * w);
    cells[idx[k]][1] = (float)s2;
}

static double ftrl(float (*cells)[2]) {
    static double ws[1 << 16];
    double t = now(), sum = 0;
    for (size_t r = 0; r < rows; r++) {
        if (r + 4 < rows) prefetch_cells((const char *)cells, 8, r + 4);
        uint64_t a = off[r], b = off[r + 1];
        double m = 0;
        for (uint64_t k = a; k < b; k++) {
            ws[k - a] = weight(cells[idx[k]][0], cells[idx[k]][1]);
            m += ws[k - a] * val[k];
        }
        double y = labels[r], gm = -y / (1.0 + exp(y * m));
        for (uint64_t k = a; k < b; k++) step(cells, k, gm * val[k], ws[k - a]);
        sum += m;
    }
    if (sum == 12345.678) puts("");
    return now() - t;
}

/* The sparse set's values as stored in its shards: u8 times 1/16. */
static uint8_t *val8;

static inline float value8(uint64_t k) {
    return val8[k] * 0.0625f;
}

/* FTRL-Proximal closer to the engine: u8 values, four partial sums, the
 * gradient by expf; `lanes` also gathers the row's state into scratch
 * arrays first and computes weights and margin in lanes of four. */
static double ftrl_engine(float (*cells)[2], int lanes) {
    static double zs[1 << 16], ss[1 << 16], vs[1 << 16], ws[1 << 16];
    double t = now(), sum = 0;
    for (size_t r = 0; r < rows; r++) {
        if (r + 4 < rows) prefetch_cells((const char *)cells, 8, r + 4);
        uint64_t a = off[r], b = off[r + 1];
        size_t n = b - a, padded = (n + 3) / 4 * 4;
        double m;
        if (!lanes) {
            double p[4] = {0, 0, 0, 0};
            for (uint64_t k = a; k < b; k++) {
                ws[k - a] = weight(cells[idx[k]][0], cells[idx[k]][1]);
                p[(k - a) % 4] += ws[k - a] * (double)value8(k);
            }
            m = (p[0] + p[1]) + (p[2] + p[3]);
        } else {
            for (size_t k = 0; k < padded; k++) {
                if (k < n) zs[k] = cells[idx[a + k]][0], ss[k] = cells[idx[a + k]][1], vs[k] = value8(a + k);
                else zs[k] = ss[k] = vs[k] = 0;
            }
            double p[4] = {0, 0, 0, 0};
            for (size_t q = 0; q < padded; q += 4)
                for (int j = 0; j < 4; j++) {
                    ws[q + j] = weight(zs[q + j], ss[q + j]);
                    p[j] += ws[q + j] * vs[q + j];
                }
            m = (p[0] + p[1]) + (p[2] + p[3]);
        }
        float y = labels[r];
        double gm = -(double)y * (double)(1.0f / (1.0f + expf((float)(y * m))));
        for (uint64_t k = a; k < b; k++) step(cells, k, gm * (double)value8(k), ws[k - a]);
        sum += m;
    }
    if (sum == 12345.678) puts("");
    return now() - t;
}

static int load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return perror(path), 0;
    size_t cap = 1 << 20, ncap = 1 << 26, n = 0;
    off = malloc(8 * cap), labels = malloc(4 * cap), idx = malloc(4 * ncap), val = malloc(4 * ncap);
    off[0] = 0;
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        if (rows + 2 >= cap) cap *= 2, off = realloc(off, 8 * cap), labels = realloc(labels, 4 * cap);
        labels[rows] = line[0] == '-' ? -1.f : 1.f;
        for (char *p = strchr(line, ' '), *e; p && *p;) {
            while (*p == ' ') p++;
            unsigned long i = strtoul(p, &e, 10);
            if (e == p || *e != ':') break;
            float v = strtof(e + 1, &p);
            if (n == ncap) ncap *= 2, idx = realloc(idx, 4 * ncap), val = realloc(val, 4 * ncap);
            idx[n] = (uint32_t)((i - 1) % DIM), val[n++] = v;
        }
        off[++rows] = n;
        if (n - off[rows - 1] > (1 << 16)) return fprintf(stderr, "row %zu: over 65,536 entries\n", rows), 0;
    }
    fclose(f);
    printf("%zu rows, %zu non-zeros\n", rows, (size_t)n);
    return rows > 0;
}

enum { VARIANTS = 9 };

int main(int argc, char **argv) {
    if (argc < 2) return fprintf(stderr, "usage: state_floor FILE [PASSES] [ftrl]\n"), 2;
    int passes = argc > 2 ? atoi(argv[2]) : 4, only_ftrl = argc > 3 && !strcmp(argv[3], "ftrl");
    if (passes < 2) return fprintf(stderr, "PASSES must be at least 2\n"), 2;
    if (!load(argv[1])) return 1;
    double *c1 = cells_calloc(DIM, 8), *c2 = cells_calloc((size_t)DIM * 2, 8), *c4 = cells_calloc((size_t)DIM * 4, 8);
    float (*fc)[2] = cells_calloc(DIM, sizeof *fc), (*fc2)[2] = cells_calloc(DIM, sizeof *fc),
          (*fc3)[2] = cells_calloc(DIM, sizeof *fc);
    if (!c1 || !c2 || !c4 || !fc || !fc2 || !fc3) return fprintf(stderr, "out of memory\n"), 1;
    val8 = malloc(off[rows]);
    for (size_t k = 0; k < off[rows]; k++) val8[k] = (uint8_t)(val[k] * 16 + 0.5f);
    double *t = calloc((size_t)VARIANTS * passes, sizeof *t);
    const char *names[VARIANTS] = {
        "8-byte cells (8 MB)",
        "8-byte cells, row 4 ahead prefetched",
        "16-byte cells (16 MB)",
        "16-byte cells, row 4 ahead prefetched",
        "32-byte cells (32 MB)",
        "32-byte cells, row 4 ahead prefetched",
        "FTRL-Proximal in C, row 4 ahead prefetched",
        "FTRL-Proximal in C, u8 values, four partial sums, expf",
        "FTRL-Proximal in C, as that, gathered into scratch, lanes of four",
    };
    for (int p = 0; p < passes; p++) {
        if (!only_ftrl) {
            t[0 * passes + p] = touch(c1, 1, 0);
            t[1 * passes + p] = touch(c1, 1, 1);
            t[2 * passes + p] = touch(c2, 2, 0);
            t[3 * passes + p] = touch(c2, 2, 1);
            t[4 * passes + p] = touch(c4, 4, 0);
            t[5 * passes + p] = touch(c4, 4, 1);
        }
        t[6 * passes + p] = ftrl(fc);
        t[7 * passes + p] = ftrl_engine(fc2, 0);
        t[8 * passes + p] = ftrl_engine(fc3, 1);
    }
    for (int v = only_ftrl ? VARIANTS - 3 : 0; v < VARIANTS; v++) {
        qsort(t + v * passes + 1, passes - 1, sizeof *t, cmpd);
        printf("%9.1f ms  %s\n", t[v * passes + 1 + (passes - 2) / 2] * 1e3, names[v]);
    }
    return 0;
}
