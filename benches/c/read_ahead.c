/* What a software read-ahead does to a plain sequential read, without Rust.
 *
 * Maps FILE and sums it in u64 lanes, as `rosenblatt::read_only_pass` does,
 * with no prefetch and with a prefetch of the line 4, 8, 16 or 32 KB ahead
 * (one per 64 bytes). Prints the median milliseconds of 9 passes for each,
 * three rounds. See SPEED.md ("The sequential order and the read-only pass
 * on an Intel Xeon").
 *
 *   gcc -O3 -march=native -o /tmp/read_ahead benches/c/read_ahead.c
 *   /tmp/read_ahead DATASET/shard-00000.rbs
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <xmmintrin.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

__attribute__((noinline)) static uint64_t plain(const uint64_t *p, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += p[i];
    return s;
}

__attribute__((noinline)) static uint64_t ahead(const uint64_t *p, size_t n, size_t d) {
    uint64_t s = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        /* A prefetch never faults: past the end of the mapping it is dropped. */
        _mm_prefetch((const char *)(p + i) + d, _MM_HINT_T0);
        for (int k = 0; k < 8; k++) s += p[i + k];
    }
    for (; i < n; i++) s += p[i];
    return s;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 8) {
        perror(argv[1]);
        return 1;
    }
    const uint64_t *p = mmap(0, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    size_t n = st.st_size / 8, ds[] = {0, 4096, 8192, 16384, 32768};
    volatile uint64_t sink = 0;
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 5; j++) {
            double t[9];
            for (int k = 0; k < 9; k++) {
                double a = now();
                sink += ds[j] ? ahead(p, n, ds[j]) : plain(p, n);
                t[k] = now() - a;
            }
            qsort(t, 9, sizeof t[0], cmp);
            printf("ahead %5zu B: %.3f ms\n", ds[j], t[4] * 1e3);
        }
    return 0;
}
