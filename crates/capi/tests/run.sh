#!/usr/bin/env bash
# The C ABI's C suite, as .ci/run runs it: the release static library and
# binary, MNIST's test rows converted, a model and its `rosenblatt predict`
# output, then tests/c/test_capi.c compiled with -std=c11 -Wall -Wextra
# -Werror -pedantic against librosenblatt.a and run under valgrind (no
# errors, no leaks), and the header compiled as C++17.
set -euo pipefail
cd "$(dirname "$0")/../../.."
cargo build --release --locked -p rosenblatt -p rosenblatt-capi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=target/release/rosenblatt
m=datasets/mnist
"$bin" convert "$m/t10k-images.idx3-ubyte.gz" "$m/t10k-labels.idx1-ubyte.gz" --target 9 -o "$tmp/t10k" --quiet > /dev/null
"$bin" export "$tmp/t10k" > "$tmp/t10k.svm"
"$bin" train "$tmp/t10k" --learner averaged-perceptron --passes 2 -o "$tmp/ap.model" --quiet > /dev/null
# The rows as C hands them in (u32 indices, f32 values): `predict` on that
# encoding runs the same kernels, so the scores must agree to the bit.
"$bin" convert "$tmp/t10k.svm" --encoding sparse-u32-f32 -o "$tmp/t10k-f32" --quiet > /dev/null
"$bin" predict "$tmp/ap.model" "$tmp/t10k-f32" -o "$tmp/predictions.txt" --quiet
# 300 rows for training every learner of the table under valgrind.
head -n 300 "$tmp/t10k.svm" > "$tmp/small.svm"
"$bin" convert "$tmp/small.svm" -o "$tmp/small" --quiet > /dev/null
cc=${CC:-gcc}
"$cc" -std=c11 -Wall -Wextra -Werror -pedantic -O1 -g -I crates/capi/include \
    crates/capi/tests/c/test_capi.c target/release/librosenblatt.a -lpthread -ldl -lm -o "$tmp/test_capi"
(cd "$tmp" && valgrind --quiet --error-exitcode=9 --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect \
    ./test_capi ap.model t10k.svm predictions.txt t10k small)
printf '#include "rosenblatt.h"\nint main() { rb_train_options o; return rb_train_options_default(&o); }\n' |
    "${CXX:-g++}" -std=c++17 -Wall -Wextra -Werror -pedantic -I crates/capi/include -x c++ - -x none \
        target/release/librosenblatt.a -lpthread -ldl -lm -o "$tmp/cpp_header"
"$tmp/cpp_header"
echo "C ABI suite passed"
