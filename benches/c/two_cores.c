/* What a second core buys a sparse Perceptron pass on this machine,
 * without Rust: the rows of a LIBSVM file (indices taken modulo 2^20,
 * values as f32), and the averaged Perceptron's work on each row — the
 * margin w·x, and on a mistake w += y·x and u += c·y·x (the averaging
 * vector) — over f32 arrays of 2^20 (8 MB of state a copy):
 *
 *   - one thread, every row, one copy of the state;
 *   - one thread, the first half of the rows;
 *   - two threads at once, each its half of the rows and its own copy of
 *     the state (what `train --parts 2 --threads 2` runs between mixes).
 *
 * Prints the median ms of passes 2..PASSES of each, and the speed-up of
 * two threads over one: the most `--parts 2 --threads 2` can gain here
 * before any mixing. Compare with `rosenblatt bench scaling DATASET
 * --learner averaged-perceptron --parts 1,2 --threads 1,2` (SPEED.md,
 * "Parallel passes").
 *
 *   gcc -O2 -march=x86-64-v3 -pthread -o two_cores benches/c/two_cores.c
 *   ./two_cores sparse.svm 7
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "svm_rows.h"

struct part {
    size_t lo, hi;
    float *w, *u;
    float c;
    double ms;
    pthread_barrier_t *go;
};

static void pass(struct part *p) {
    p->c = averaged_rows(p->lo, p->hi, p->w, p->u, p->c);
}

static void *timed(void *arg) {
    struct part *p = arg;
    if (p->go) pthread_barrier_wait(p->go);
    double t = now();
    pass(p);
    p->ms = now() - t;
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s FILE [PASSES]\n", argv[0]); return 2; }
    int passes = argc > 2 ? atoi(argv[2]) : 7;
    load(argv[1]);
    float *w[2], *u[2];
    for (int k = 0; k < 2; k++) {
        w[k] = calloc(DIM, sizeof(float));
        u[k] = calloc(DIM, sizeof(float));
    }
    double one[64], half[64], two[64];
    for (int p = 0; p < passes; p++) {
        struct part a = {0, rows, w[0], u[0], 0, 0, NULL};
        timed(&a);
        one[p] = a.ms;
        struct part h = {0, rows / 2, w[1], u[1], 0, 0, NULL};
        timed(&h);
        half[p] = h.ms;
        pthread_barrier_t go;
        pthread_barrier_init(&go, NULL, 2);
        struct part x = {0, rows / 2, w[0], u[0], 0, 0, &go}, z = {rows / 2, rows, w[1], u[1], 0, 0, &go};
        pthread_t t;
        double t0 = now();
        pthread_create(&t, NULL, timed, &z);
        timed(&x);
        pthread_join(t, NULL);
        two[p] = now() - t0;
        pthread_barrier_destroy(&go);
    }
    double m1 = median(one + 1, passes - 1), mh = median(half + 1, passes - 1), m2 = median(two + 1, passes - 1);
    printf("%zu rows, %llu non-zeros; median of passes 2..%d\n", rows, (unsigned long long)start[rows], passes);
    printf("one thread, every row:        %8.1f ms\n", m1);
    printf("one thread, half the rows:    %8.1f ms\n", mh);
    printf("two threads, a half each:     %8.1f ms  (%.2fx one thread)\n", m2, m1 / m2);
    return 0;
}
