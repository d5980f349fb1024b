/* What AdaGrad's logistic pass costs in plain C with its state laid out
 * two ways, on the rows of a LIBSVM file (indices modulo 2^20): the
 * weights `w` and the sums of squared gradients `G` as two f32 arrays of
 * 2^20 (the engine's `Sgd::v` and `Sgd::g2`: two cache lines per feature)
 * or as one array of 8-byte cells {w, G} (one line per feature). Each row:
 * the margin w·x, the logistic gradient, then per entry
 * G += (g·x)², w += (c·x)/√G, as `scalar::adagrad_step` (f64 products,
 * f32 state), with the row 4 ahead prefetched in both layouts.
 *
 * Prints the median ms of passes 2..PASSES of each layout, run
 * alternately. See SPEED.md ("AdaGrad's step").
 *
 *   gcc -O2 -march=x86-64-v3 -o adagrad_layout benches/c/adagrad_layout.c -lm
 *   ./adagrad_layout hashed.svm 7
 */
#include <math.h>
#include <string.h>

#include "svm_rows.h"

#define AHEAD 4

static double sigmoid_grad(double ym) { return 1.0 / (1.0 + exp(ym)); }

static inline float step_w(float *g2, float w, float x, double c, double g) {
    double xd = x;
    float gx = (float)(g * xd);
    *g2 += gx * gx;
    return w + (float)(c * xd) / sqrtf(*g2);
}

/* w and G in two arrays. */
static double split(float *w, float *g2, double eta, double *err) {
    double t = now(), mistakes = 0;
    for (size_t r = 0; r < rows; r++) {
        if (r + AHEAD < rows)
            for (uint64_t k = start[r + AHEAD]; k < start[r + AHEAD + 1]; k++) {
                __builtin_prefetch(w + idx[k], 1);
                __builtin_prefetch(g2 + idx[k], 1);
            }
        float m = 0;
        for (uint64_t k = start[r]; k < start[r + 1]; k++) m += w[idx[k]] * val[k];
        double y = label[r], ym = y * m;
        mistakes += ym <= 0;
        double g = -sigmoid_grad(ym), c = -eta * g * y;
        g *= y;
        for (uint64_t k = start[r]; k < start[r + 1]; k++) {
            uint32_t i = idx[k];
            w[i] = step_w(&g2[i], w[i], val[k], c, g);
        }
    }
    *err = mistakes / rows;
    return now() - t;
}

/* w and G side by side in 8-byte cells. */
static double cells(float (*s)[2], double eta, double *err) {
    double t = now(), mistakes = 0;
    for (size_t r = 0; r < rows; r++) {
        if (r + AHEAD < rows)
            for (uint64_t k = start[r + AHEAD]; k < start[r + AHEAD + 1]; k++) __builtin_prefetch(s[idx[k]], 1);
        float m = 0;
        for (uint64_t k = start[r]; k < start[r + 1]; k++) m += s[idx[k]][0] * val[k];
        double y = label[r], ym = y * m;
        mistakes += ym <= 0;
        double g = -sigmoid_grad(ym), c = -eta * g * y;
        g *= y;
        for (uint64_t k = start[r]; k < start[r + 1]; k++) {
            float *cell = s[idx[k]];
            cell[0] = step_w(&cell[1], cell[0], val[k], c, g);
        }
    }
    *err = mistakes / rows;
    return now() - t;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE.svm [PASSES]\n", argv[0]);
        return 2;
    }
    int passes = argc > 2 ? atoi(argv[2]) : 7;
    if (passes < 2 || passes > 64) passes = 7;
    load(argv[1]);
    float *w = calloc(DIM, 4), *g2 = calloc(DIM, 4);
    float(*s)[2] = calloc(DIM, 8);
    double ts[64], tc[64], es = 0, ec = 0;
    for (int p = 0; p < passes; p++) {
        ts[p] = split(w, g2, 0.5, &es);
        tc[p] = cells(s, 0.5, &ec);
    }
    /* Both layouts did the same arithmetic in the same order. */
    if (es != ec) fprintf(stderr, "layouts disagree on the error\n");
    for (size_t i = 0; i < DIM; i++)
        if (w[i] != s[i][0] || g2[i] != s[i][1]) {
            fprintf(stderr, "layouts disagree at %zu\n", i);
            return 1;
        }
    printf("%zu rows, %d passes; median ms of passes 2..%d; last pass online error %.4f\n", rows, passes, passes, es);
    printf("w and G in two arrays  %8.1f\n", median(ts + 1, passes - 1));
    printf("w and G in one cell    %8.1f\n", median(tc + 1, passes - 1));
    return 0;
}
