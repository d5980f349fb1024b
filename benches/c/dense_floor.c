/* What a sequential Perceptron pass over dense-u8 rows costs on this core,
 * without Rust, against a read of the same bytes: MNIST 9-vs-rest as the
 * engine stores it (a dense-u8 shard: 256-byte header, ROWS f32 labels,
 * then ROWS rows of DIM bytes on a 64-byte boundary), in storage order.
 *
 *   - read-only: every byte summed in u64 lanes, with and without a
 *     prefetch 8 KB ahead, the faster of the two (as `bench read` takes
 *     the faster of the engine's `read_only_pass` and
 *     `read_only_pass_ahead`);
 *   - Perceptron: the margin as the engine's AVX2 kernel computes it (four
 *     accumulators of eight lanes, bytes widened to f32, one FMA each;
 *     times the shard's scale, plus a bias), and on a mistake w += y·s·x,
 *     b += y (eight lanes at a time); the rows 4 ahead prefetched (`SEQUENTIAL_AHEAD`).
 *
 * Passes alternate (read, Perceptron, read, ...) so that both see the same
 * machine; prints the medians, their ratio, and the mistakes of the first
 * two passes, which should match `rosenblatt train DIR --learner perceptron
 * --order sequential --threads 1`'s (same order, same arithmetic). See
 * SPEED.md ("Floors").
 *
 *   gcc -O2 -march=x86-64-v3 -o dense_floor benches/c/dense_floor.c
 *   ./dense_floor DIR/shard-00000.rbs 60000 784 0.003921569 [PASSES]
 */
#include <fcntl.h>
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Every byte summed in u64 lanes, 32 bytes a load, four accumulators;
 * with `ahead`, each line also prefetched 8 KB ahead (the engine's
 * `read_only_pass_ahead`; the faster of the two is the read). */
static uint64_t read_only(const uint8_t *p, size_t n, int ahead) {
    __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        if (ahead) {
            _mm_prefetch((const char *)p + i + 8192, _MM_HINT_T0);
            _mm_prefetch((const char *)p + i + 8192 + 64, _MM_HINT_T0);
        }
        s0 = _mm256_add_epi64(s0, _mm256_loadu_si256((const __m256i *)(p + i)));
        s1 = _mm256_add_epi64(s1, _mm256_loadu_si256((const __m256i *)(p + i + 32)));
        s2 = _mm256_add_epi64(s2, _mm256_loadu_si256((const __m256i *)(p + i + 64)));
        s3 = _mm256_add_epi64(s3, _mm256_loadu_si256((const __m256i *)(p + i + 96)));
    }
    uint64_t o[4], s = 0;
    _mm256_storeu_si256((__m256i *)o, _mm256_add_epi64(_mm256_add_epi64(s0, s1), _mm256_add_epi64(s2, s3)));
    for (int k = 0; k < 4; k++) s += o[k];
    for (; i < n; i++) s += p[i];
    return s;
}

static inline __m256 widen(const uint8_t *x) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)x)));
}

static float dot(const uint8_t *x, const float *w, int d) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int k = 0;
    for (; k + 32 <= d; k += 32) {
        a0 = _mm256_fmadd_ps(widen(x + k), _mm256_loadu_ps(w + k), a0);
        a1 = _mm256_fmadd_ps(widen(x + k + 8), _mm256_loadu_ps(w + k + 8), a1);
        a2 = _mm256_fmadd_ps(widen(x + k + 16), _mm256_loadu_ps(w + k + 16), a2);
        a3 = _mm256_fmadd_ps(widen(x + k + 24), _mm256_loadu_ps(w + k + 24), a3);
    }
    for (; k + 8 <= d; k += 8) a0 = _mm256_fmadd_ps(widen(x + k), _mm256_loadu_ps(w + k), a0);
    __m256 s = _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3));
    float o[8];
    _mm256_storeu_ps(o, s);
    float r = ((o[0] + o[4]) + (o[2] + o[6])) + ((o[1] + o[5]) + (o[3] + o[7]));
    for (; k < d; k++) r += x[k] * w[k];
    return r;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s SHARD ROWS DIM SCALE [PASSES]\n", argv[0]);
        return 2;
    }
    size_t rows = strtoull(argv[2], 0, 10), d = strtoull(argv[3], 0, 10);
    float scale = strtof(argv[4], 0);
    int passes = argc > 5 ? atoi(argv[5]) : 21;
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        perror(argv[1]);
        return 1;
    }
    size_t n = st.st_size, at = 256 + (4 * rows + 63) / 64 * 64;
    if (at + rows * d > n || passes < 3) {
        fprintf(stderr, "%s: %zu bytes hold no %zu rows of %zu bytes (or PASSES < 3)\n", argv[1], n, rows, d);
        return 1;
    }
    const uint8_t *p = mmap(0, n, PROT_READ, MAP_SHARED, fd, 0);
    const float *labels = (const float *)(p + 256);
    const uint8_t *x = p + at;
    float *w = calloc(d + 8, sizeof(float)), b = 0;
    double *tr = malloc(passes * sizeof(double)), *tp = malloc(passes * sizeof(double));
    for (int pass = 0; pass < passes; pass++) {
        double t = now();
        volatile uint64_t sink = read_only(x, rows * d, 0);
        double t1 = now();
        sink = read_only(x, rows * d, 1);
        (void)sink;
        double t2 = now();
        tr[pass] = t1 - t < t2 - t1 ? t1 - t : t2 - t1;
        t = now();
        long mistakes = 0;
        for (size_t r = 0; r < rows; r++) {
            if (r + 4 < rows)
                for (size_t l = 0; l < d; l += 64) _mm_prefetch((const char *)x + (r + 4) * d + l, _MM_HINT_T0);
            const uint8_t *row = x + r * d;
            float y = labels[r];
            if (y * (dot(row, w, d) * scale + b) <= 0) {
                mistakes++;
                float a = y * scale;
                size_t k = 0;
                for (; k + 8 <= d; k += 8)
                    _mm256_storeu_ps(w + k, _mm256_fmadd_ps(widen(row + k), _mm256_set1_ps(a), _mm256_loadu_ps(w + k)));
                for (; k < d; k++) w[k] += a * row[k];
                b += y;
            }
        }
        tp[pass] = now() - t;
        if (pass < 2) printf("pass %d: %ld mistakes\n", pass + 1, mistakes);
    }
    /* The first pass pays the page faults: medians of passes 2.. */
    qsort(tr + 1, passes - 1, sizeof(double), cmp);
    qsort(tp + 1, passes - 1, sizeof(double), cmp);
    double r = tr[1 + (passes - 1) / 2], q = tp[1 + (passes - 1) / 2];
    printf("read-only %.2f ms, Perceptron %.2f ms: %.2fx the read\n", r * 1e3, q * 1e3, q / r);
    return 0;
}
