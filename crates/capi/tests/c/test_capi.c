/* The C ABI from C: every entry point on good and bad input, a trainer
 * against the rows it learned, and predictions against `rosenblatt
 * predict` bit for bit.
 *
 * usage: test_capi MODEL ROWS.svm PREDICTIONS.txt DATASET_DIR SMALL_DIR
 *   MODEL            a model trained by `rosenblatt train`
 *   ROWS.svm         LIBSVM text (one-based), e.g. `rosenblatt export` output
 *   PREDICTIONS.txt  `rosenblatt predict` of MODEL on ROWS.svm converted with
 *                    --encoding sparse-u32-f32 (the rows as C hands them in)
 *   DATASET_DIR      a dataset directory with ±1 labels, for rb_train
 *   SMALL_DIR        a few hundred of its rows, for every learner by name
 *
 * Built by .ci/run with -std=c11 -Wall -Wextra -Werror -pedantic against
 * librosenblatt.a and run under valgrind. */
#include "rosenblatt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: CHECK(%s) failed; last error: %s\n", __FILE__, \
                    __LINE__, #cond, rb_last_error());                             \
            failures++;                                                            \
        }                                                                          \
    } while (0)

/* Rows of a LIBSVM file, zero-based. */
typedef struct {
    uint64_t n;
    uint64_t *indptr;
    uint32_t *indices;
    float *values;
    float *labels;
} csr;

static void csr_free(csr *c) {
    free(c->indptr);
    free(c->indices);
    free(c->values);
    free(c->labels);
}

static int read_svm(const char *path, csr *c) {
    FILE *f = fopen(path, "r");
    size_t cap_rows = 1024, cap_nnz = 1 << 16, nnz = 0;
    char line[1 << 16];
    if (!f) return 0;
    memset(c, 0, sizeof *c);
    c->indptr = malloc((cap_rows + 1) * sizeof *c->indptr);
    c->labels = malloc(cap_rows * sizeof *c->labels);
    c->indices = malloc(cap_nnz * sizeof *c->indices);
    c->values = malloc(cap_nnz * sizeof *c->values);
    c->indptr[0] = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        if (c->n == cap_rows) {
            cap_rows *= 2;
            c->indptr = realloc(c->indptr, (cap_rows + 1) * sizeof *c->indptr);
            c->labels = realloc(c->labels, cap_rows * sizeof *c->labels);
        }
        c->labels[c->n] = strtof(p, &end);
        p = end;
        for (;;) {
            unsigned long idx = strtoul(p, &end, 10);
            if (end == p || *end != ':') break;
            p = end + 1;
            if (nnz == cap_nnz) {
                cap_nnz *= 2;
                c->indices = realloc(c->indices, cap_nnz * sizeof *c->indices);
                c->values = realloc(c->values, cap_nnz * sizeof *c->values);
            }
            c->indices[nnz] = (uint32_t)(idx - 1);
            c->values[nnz] = strtof(p, &end);
            p = end;
            nnz++;
        }
        c->indptr[++c->n] = nnz;
    }
    fclose(f);
    return 1;
}

static void bad_input_is_refused(void) {
    rb_model *m = NULL;
    rb_train_options o;
    rb_trainer *t = NULL;
    uint64_t dim = 0;
    CHECK(rb_model_load("/nonexistent/model", &m) == RB_ERR_INPUT && m == NULL);
    CHECK(strstr(rb_last_error(), "/nonexistent/model") != NULL);
    CHECK(rb_model_load(NULL, &m) == RB_ERR_ARGUMENT);
    CHECK(strstr(rb_last_error(), "path is NULL") != NULL);
    CHECK(rb_model_dim(NULL, &dim) == RB_ERR_ARGUMENT);
    rb_model_free(NULL);
    rb_trainer_free(NULL);
    rb_dataset_free(NULL);
    CHECK(rb_train_options_default(&o) == RB_OK && o.struct_size == sizeof o);
    CHECK(strcmp(rb_last_error(), "") == 0);
    o.struct_size = 8;
    CHECK(rb_trainer_new(&o, 4, &t) == RB_ERR_ARGUMENT && t == NULL);
    CHECK(strstr(rb_last_error(), "struct_size") != NULL);
    rb_train_options_default(&o);
    o.learner = "perceptorn";
    CHECK(rb_trainer_new(&o, 4, &t) == RB_ERR_INPUT);
    CHECK(strstr(rb_last_error(), "perceptorn") != NULL);
}

/* A trainer on separable rows: x = (a, b), label sign(a - b). */
static void a_trainer_learns_what_it_is_fed(void) {
    enum { N = 400 };
    uint64_t indptr[N + 1];
    uint32_t indices[2 * N];
    float values[2 * N], labels[N], scores[N], predicted[N], dense[2 * N];
    float dense_scores[N];
    rb_train_options o;
    rb_trainer *t = NULL;
    rb_model *m = NULL, *back = NULL;
    uint64_t dim = 0;
    uint32_t classes = 0;
    int i, right = 0;
    for (i = 0; i < N; i++) {
        float a = (float)((i * 37) % 101) / 50.0f - 1.0f, b = (float)((i * 61) % 103) / 51.0f - 1.0f;
        indptr[i] = 2 * (uint64_t)i;
        indices[2 * i] = 0;
        indices[2 * i + 1] = 1;
        values[2 * i] = a;
        values[2 * i + 1] = b;
        dense[2 * i] = a;
        dense[2 * i + 1] = b;
        labels[i] = a > b ? 1.0f : -1.0f;
    }
    indptr[N] = 2 * N;
    rb_train_options_default(&o);
    o.learner = "averaged-perceptron";
    o.passes = 1;
    CHECK(rb_trainer_new(&o, 2, &t) == RB_OK);
    for (i = 0; i < 5; i++) CHECK(rb_trainer_learn_csr(t, N, indptr, indices, values, labels) == RB_OK);
    CHECK(rb_trainer_model(t, &m) == RB_OK);
    CHECK(rb_model_dim(m, &dim) == RB_OK && dim == 2);
    CHECK(rb_model_num_classes(m, &classes) == RB_OK && classes == 2);
    CHECK(rb_model_predict_csr(m, N, indptr, indices, values, scores, predicted) == RB_OK);
    for (i = 0; i < N; i++) right += predicted[i] == labels[i];
    CHECK(right >= N - 8);
    /* Dense rows score as the same sparse rows do. */
    CHECK(rb_model_predict_dense(m, N, 2, dense, dense_scores, NULL) == RB_OK);
    for (i = 0; i < N; i++) CHECK(fabsf(dense_scores[i] - scores[i]) <= 1e-4f * (1.0f + fabsf(scores[i])));
    /* Saved and loaded: the same predictions. */
    CHECK(rb_model_save(m, "test_capi.model") == RB_OK);
    CHECK(rb_model_load("test_capi.model", &back) == RB_OK);
    CHECK(rb_model_predict_csr(back, N, indptr, indices, values, dense_scores, NULL) == RB_OK);
    CHECK(memcmp(dense_scores, scores, sizeof scores) == 0);
    remove("test_capi.model");
    /* Bad rows: an index out of the trainer's range, a label not ±1,
     * indices out of order, NULL arrays. */
    indices[5] = 7;
    CHECK(rb_trainer_learn_csr(t, N, indptr, indices, values, labels) == RB_ERR_INPUT);
    CHECK(strstr(rb_last_error(), "row 2") != NULL);
    indices[5] = 1;
    labels[3] = 0.5f;
    CHECK(rb_trainer_learn_csr(t, N, indptr, indices, values, labels) == RB_ERR_INPUT);
    CHECK(strstr(rb_last_error(), "label 0.5") != NULL);
    labels[3] = 1.0f;
    indices[0] = 1;
    CHECK(rb_model_predict_csr(m, N, indptr, indices, values, scores, NULL) == RB_ERR_INPUT);
    indices[0] = 0;
    CHECK(rb_model_predict_csr(m, N, NULL, indices, values, scores, NULL) == RB_ERR_ARGUMENT);
    CHECK(rb_model_predict_dense(m, N, 2, NULL, scores, NULL) == RB_ERR_ARGUMENT);
    rb_model_free(back);
    rb_model_free(m);
    rb_trainer_free(t);
}

/* Importance weights: weight 2 on every row is the Perceptron with step 2
 * (the same bits), NULL weights are none, weight 0 everywhere learns
 * nothing, a negative weight is refused naming its row. */
static void weights_scale_the_updates(void) {
    enum { N = 200 };
    uint64_t indptr[N + 1];
    uint32_t indices[2 * N];
    float values[2 * N], labels[N], twos[N], zeros[N], s1[N], s2[N], s3[N];
    rb_train_options o;
    rb_trainer *a = NULL, *b = NULL, *c = NULL;
    rb_model *ma = NULL, *mb = NULL, *mc = NULL;
    int i;
    for (i = 0; i < N; i++) {
        float x = (float)((i * 37) % 101) / 50.0f - 1.0f, z = (float)((i * 61) % 103) / 51.0f - 1.0f;
        indptr[i] = 2 * (uint64_t)i;
        indices[2 * i] = 0;
        indices[2 * i + 1] = 1;
        values[2 * i] = x;
        values[2 * i + 1] = z;
        labels[i] = x > z ? 1.0f : -1.0f;
        twos[i] = 2.0f;
        zeros[i] = 0.0f;
    }
    indptr[N] = 2 * N;
    rb_train_options_default(&o);
    o.learner = "perceptron";
    o.shuffle = 0;
    CHECK(rb_trainer_new(&o, 2, &a) == RB_OK);
    CHECK(rb_trainer_new(&o, 2, &c) == RB_OK);
    CHECK(rb_train_options_set(&o, "eta", 2.0) == RB_OK);
    CHECK(rb_trainer_new(&o, 2, &b) == RB_OK);
    CHECK(rb_trainer_learn_csr_weighted(a, N, indptr, indices, values, labels, twos) == RB_OK);
    CHECK(rb_trainer_learn_csr_weighted(b, N, indptr, indices, values, labels, NULL) == RB_OK);
    CHECK(rb_trainer_learn_csr_weighted(c, N, indptr, indices, values, labels, zeros) == RB_OK);
    CHECK(rb_trainer_model(a, &ma) == RB_OK && rb_trainer_model(b, &mb) == RB_OK && rb_trainer_model(c, &mc) == RB_OK);
    CHECK(rb_model_predict_csr(ma, N, indptr, indices, values, s1, NULL) == RB_OK);
    CHECK(rb_model_predict_csr(mb, N, indptr, indices, values, s2, NULL) == RB_OK);
    CHECK(rb_model_predict_csr(mc, N, indptr, indices, values, s3, NULL) == RB_OK);
    CHECK(memcmp(s1, s2, sizeof s1) == 0);
    for (i = 0; i < N; i++) CHECK(s3[i] == 0.0f);
    twos[7] = -1.0f;
    CHECK(rb_trainer_learn_csr_weighted(a, N, indptr, indices, values, labels, twos) == RB_ERR_INPUT);
    CHECK(strstr(rb_last_error(), "example 7 has weight -1") != NULL);
    rb_model_free(ma);
    rb_model_free(mb);
    rb_model_free(mc);
    rb_trainer_free(a);
    rb_trainer_free(b);
    rb_trainer_free(c);
}

/* Predictions through C equal `rosenblatt predict` bit for bit. */
static void predictions_equal_the_command(const char *model, const char *rows, const char *expected) {
    rb_model *m = NULL;
    csr c;
    float *scores, *labels;
    FILE *f;
    uint64_t i, same = 0;
    CHECK(rb_model_load(model, &m) == RB_OK);
    if (!read_svm(rows, &c)) {
        CHECK(!"the rows file opens");
        rb_model_free(m);
        return;
    }
    scores = malloc(c.n * sizeof *scores);
    labels = malloc(c.n * sizeof *labels);
    CHECK(rb_model_predict_csr(m, c.n, c.indptr, c.indices, c.values, scores, labels) == RB_OK);
    f = fopen(expected, "r");
    CHECK(f != NULL);
    for (i = 0; f && i < c.n; i++) {
        float label, score;
        if (fscanf(f, "%f %f", &label, &score) != 2) break;
        same += label == labels[i] && memcmp(&score, &scores[i], sizeof score) == 0;
    }
    if (f) fclose(f);
    CHECK(c.n > 0 && same == c.n);
    if (same != c.n) fprintf(stderr, "%lu of %lu predictions equal\n", (unsigned long)same, (unsigned long)c.n);
    free(scores);
    free(labels);
    csr_free(&c);
    rb_model_free(m);
}

static void training_on_a_dataset(const char *dir, const char *rows) {
    rb_dataset *d = NULL;
    rb_model *m = NULL;
    rb_train_options o;
    csr c;
    float *labels;
    uint64_t i, right = 0;
    CHECK(rb_dataset_open(dir, &d) == RB_OK);
    rb_train_options_default(&o);
    o.learner = "logistic";
    o.passes = 2;
    CHECK(rb_train(d, &o, &m) == RB_OK);
    CHECK(read_svm(rows, &c));
    labels = malloc(c.n * sizeof *labels);
    CHECK(rb_model_predict_csr(m, c.n, c.indptr, c.indices, c.values, NULL, labels) == RB_OK);
    for (i = 0; i < c.n; i++) right += labels[i] == c.labels[i];
    CHECK(right > c.n * 9 / 10);
    o.learner = "multiclass-perceptron";
    rb_model_free(m);
    m = NULL;
    CHECK(rb_train(d, &o, &m) == RB_ERR_INPUT && m == NULL);
    CHECK(strstr(rb_last_error(), "class-id labels") != NULL);
    CHECK(rb_dataset_open("/nonexistent/data", &d) != RB_OK);
    free(labels);
    csr_free(&c);
    rb_dataset_free(d);
}

/* Every learner of the engine's table trains from C by its name, with
 * hyper-parameters set by their table names; an unknown name is refused. */
static void every_learner_by_name(const char *dir) {
    rb_dataset *d = NULL;
    rb_train_options o;
    size_t i, learners = 0, params = 0;
    CHECK(rb_dataset_open(dir, &d) == RB_OK);
    for (i = 0; rb_param_name(i) != NULL; i++) params++;
    CHECK(params == RB_PARAMS);
    rb_train_options_default(&o);
    CHECK(rb_train_options_set(&o, "etta", 0.5) == RB_ERR_INPUT);
    CHECK(strstr(rb_last_error(), "unknown hyper-parameter") != NULL);
    for (i = 0; rb_learner_name(i) != NULL; i++) {
        const char *name = rb_learner_name(i);
        rb_model *m = NULL;
        int multiclass = strncmp(name, "multiclass", 10) == 0;
        learners++;
        rb_train_options_default(&o);
        o.learner = name;
        o.passes = 1;
        if (strncmp(name, "kernel", 6) == 0) CHECK(rb_train_options_set(&o, "gamma", 0.05) == RB_OK);
        /* The dataset's labels are ±1: the multi-class learners refuse them, by name. */
        if (multiclass) {
            CHECK(rb_train(d, &o, &m) == RB_ERR_INPUT && m == NULL);
        } else if (strcmp(name, "winnow") != 0) {
            CHECK(rb_train(d, &o, &m) == RB_OK);
            if (m == NULL) fprintf(stderr, "learner %s\n", name);
        }
        rb_model_free(m);
    }
    CHECK(learners == 21);
    /* A value the learner does not take is refused when training starts. */
    rb_train_options_default(&o);
    o.learner = "perceptron";
    CHECK(rb_train_options_set(&o, "gamma", 1.0) == RB_OK);
    {
        rb_model *m = NULL;
        CHECK(rb_train(d, &o, &m) == RB_ERR_INPUT && m == NULL);
        CHECK(strstr(rb_last_error(), "gamma") != NULL);
    }
    rb_dataset_free(d);
}

int main(int argc, char **argv) {
    CHECK(rb_version() != NULL && strlen(rb_version()) > 0);
    bad_input_is_refused();
    a_trainer_learns_what_it_is_fed();
    weights_scale_the_updates();
    if (argc == 6) {
        predictions_equal_the_command(argv[1], argv[2], argv[3]);
        training_on_a_dataset(argv[4], argv[2]);
        every_learner_by_name(argv[5]);
    } else {
        fprintf(stderr, "usage: %s MODEL ROWS.svm PREDICTIONS.txt DATASET_DIR SMALL_DIR\n", argv[0]);
        failures++;
    }
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    else printf("test_capi: every check passed (%s)\n", rb_version());
    return failures != 0;
}
