/* The sparse rows the C floors share: a LIBSVM file read into CSR arrays
 * (indices taken modulo 2^20, values as f32, labels as ±1), the averaged
 * Perceptron's work on a run of them, a clock, and the median of a run of
 * timings. Included by two_cores.c and
 * mix_floor.c, each one file built by itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DIM (1u << 20)

static float *label;
static uint64_t *start;
static uint32_t *idx;
static float *val;
static size_t rows;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void load(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) { perror(path); exit(1); }
    size_t cap_r = 1 << 16, cap_e = 1 << 22, e = 0;
    label = malloc(cap_r * sizeof *label);
    start = malloc((cap_r + 1) * sizeof *start);
    idx = malloc(cap_e * sizeof *idx);
    val = malloc(cap_e * sizeof *val);
    char *line = NULL;
    size_t n = 0;
    start[0] = 0;
    while (getline(&line, &n, f) > 0) {
        char *p = line, *q;
        float y = strtof(p, &q);
        if (q == p) continue;
        if (rows + 2 > cap_r) {
            cap_r *= 2;
            label = realloc(label, cap_r * sizeof *label);
            start = realloc(start, (cap_r + 1) * sizeof *start);
        }
        label[rows] = y > 0 ? 1.0f : -1.0f;
        p = q;
        for (;;) {
            unsigned long i = strtoul(p, &q, 10);
            if (q == p || *q != ':') break;
            p = q + 1;
            float v = strtof(p, &q);
            p = q;
            if (e + 1 > cap_e) {
                cap_e *= 2;
                idx = realloc(idx, cap_e * sizeof *idx);
                val = realloc(val, cap_e * sizeof *val);
            }
            idx[e] = (uint32_t)(i % DIM);
            val[e] = v;
            e++;
        }
        start[++rows] = e;
    }
    free(line);
    fclose(f);
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n) {
    qsort(t, n, sizeof *t, cmp);
    return t[n / 2];
}

/* The averaged Perceptron's row work on rows lo..hi over f32 arrays of
 * DIM: the margin w·x, and on a mistake w += y·x and u += c·y·x (the
 * averaging vector), c counting steps from `c`. Returns c after the rows. */
static float averaged_rows(size_t lo, size_t hi, float *w, float *u, float c) {
    for (size_t r = lo; r < hi; r++) {
        float m = 0;
        for (uint64_t k = start[r]; k < start[r + 1]; k++) m += w[idx[k]] * val[k];
        float y = label[r];
        if (y * m <= 0) {
            for (uint64_t k = start[r]; k < start[r + 1]; k++) {
                w[idx[k]] += y * val[k];
                u[idx[k]] += c * y * val[k];
            }
        }
        c += 1;
    }
    return c;
}
