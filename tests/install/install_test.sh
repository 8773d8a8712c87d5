#!/usr/bin/env bash
# Installs and packages a built tree the way a user or a distribution would, and uses the result:
#   1. `cmake --install` into a temporary prefix: the layout, the SONAME, sonnx.pc;
#   2. the consumer project (tests/consumer, find_package(sonnx)) built and run against that prefix,
#      and the C API example built with pkg-config;
#   3. CPack's three Debian packages: names and dependencies, unpacked with dpkg-deb -x into a clean
#      root, then from the packaged files only: `sonnx --version` (which names the data directory it
#      found), `sonnx check`, `import sonnx; sonnx.check(...)`, and the README's CLI, C++ and Python
#      examples.
#
#   install_test.sh BUILD_DIR WORK_DIR MODEL
# MODEL: a model with one float input X of shape [1,2] and output Y = Relu(X·ones(2,3))
# (the rule fixture good_sonnx_mlp.onnx). SONNX_TEST_PRELOAD: the ASan runtime and libstdc++, when BUILD_DIR is a
# sanitized build (programs that are not themselves instrumented then load it first).
set -euo pipefail
build=$(cd "$1" && pwd)
work=$2
model=$3
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

fail() {
  echo "install_test: FAIL: $*" >&2
  exit 1
}
# Runs a program that loads libsonnx.so but is not instrumented itself.
with_lib() {
  if [[ -n ${SONNX_TEST_PRELOAD:-} ]]; then
    LD_PRELOAD=$SONNX_TEST_PRELOAD ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$@"
  else
    "$@"
  fi
}
expect_output() {  # expect_output PATTERN COMMAND...: runs it, fails unless its output matches
  local pattern=$1 out
  shift
  out=$("$@" 2>&1) || fail "'$*' exited $?: $out"
  grep -Eq -- "$pattern" <<<"$out" || fail "'$*' printed no '$pattern':
$out"
  echo "  ok: $* -> $(grep -E -m1 -- "$pattern" <<<"$out")"
}
# The fenced block after the README line "<!-- example: NAME -->".
readme_block() {
  awk -v tag="<!-- example: $1 -->" '$0 == tag {found = 1; next} found && /^```/ {if (inside) exit; inside = 1; next} inside {print}' "$src/README.md"
}

echo "== 1. cmake --install into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
prefix=$work/prefix
libdir=$(cd "$prefix" && dirname "$(ls lib*/libsonnx.so.0 lib/*/libsonnx.so.0 2>/dev/null | head -n1)")
[[ -n $libdir && $libdir != . ]] || fail "no libsonnx.so.0 installed"
for f in bin/sonnx include/sonnx/sonnx.hpp include/sonnx/sonnx.h include/sonnx/backend.h include/sonnx/tensor.h \
         "$libdir/libsonnx.so" "$libdir/cmake/sonnx/sonnxConfig.cmake" "$libdir/cmake/sonnx/sonnxConfigVersion.cmake" \
         "$libdir/pkgconfig/sonnx.pc" share/sonnx/spec/profiles/sonnx.json share/sonnx/conformance/skips.txt; do
  [[ -e $prefix/$f ]] || fail "cmake --install did not install $f"
done
soname=$(objdump -p "$prefix/$libdir/libsonnx.so.0" | awk '$1 == "SONAME" {print $2}')
[[ $soname == libsonnx.so.0 ]] || fail "SONAME is '$soname', not libsonnx.so.0"
echo "  ok: layout, SONAME $soname"
expect_output "^sonnx [0-9]+\.[0-9]+\.[0-9]+" "$prefix/bin/sonnx" --version
expect_output "data: $prefix/share/sonnx" "$prefix/bin/sonnx" --version

echo "== 2. the consumer project against the prefix (find_package), the C API with pkg-config"
cmake -S "$src/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
expect_output "^Y = 3.000000 3.000000 3.000000$" with_lib "$work/consumer/consumer" "$model" 1 2
expect_output "0 findings" with_lib "$work/consumer/consumer" "$model" 1 2
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/consumer.c" $(pkg-config --cflags --libs sonnx) \
  -Wl,-rpath,"$(pkg-config --variable=libdir sonnx)" -o "$work/consumer_c"
expect_output "^Y = 3 3 3$" with_lib "$work/consumer_c" "$model"

echo "== 3. Debian packages, unpacked into a clean root"
mkdir -p "$work/debs" "$work/root"
(cd "$work/debs" && cpack --config "$build/CPackConfig.cmake" -B "$work/debs" >/dev/null)
version=$(awk -F'"' '/^set\(CPACK_PACKAGE_VERSION /{print $2}' "$build/CPackConfig.cmake")
for p in sonnx libsonnx-dev python3-sonnx; do
  deb=$(ls "$work/debs/${p}_${version}_"*.deb 2>/dev/null | head -n1)
  [[ -n $deb ]] || fail "CPack made no $p package ($(ls "$work/debs"))"
  [[ $(dpkg-deb -f "$deb" Package) == "$p" ]] || fail "$deb is not package $p"
  echo "  $p: Depends: $(dpkg-deb -f "$deb" Depends)"
  dpkg-deb -x "$deb" "$work/root"
done
depends=$(dpkg-deb -f "$work/debs/sonnx_${version}_"*.deb Depends)
for d in libprotobuf32 libonnx1 libdnnl2 libmpfr6 libz3-4; do
  grep -q "$d" <<<"$depends" || fail "package sonnx does not depend on $d: $depends"
done
grep -q "sonnx (= $version)" <<<"$(dpkg-deb -f "$work/debs/libsonnx-dev_${version}_"*.deb Depends)" || fail "libsonnx-dev does not depend on sonnx (= $version)"
grep -q "python3-numpy" <<<"$(dpkg-deb -f "$work/debs/python3-sonnx_${version}_"*.deb Depends)" || fail "python3-sonnx does not depend on python3-numpy"
root=$work/root
expect_output "^sonnx $version" "$root/usr/bin/sonnx" --version
expect_output "data: $root/usr/share/sonnx" "$root/usr/bin/sonnx" --version
expect_output "1 models, 1 passed" "$root/usr/bin/sonnx" check --profile sonnx "$model"
pydir=$root/usr/lib/python3/dist-packages
expect_output "^$pydir/sonnx/__init__.py \[\]$" with_lib env PYTHONPATH="$pydir" /usr/bin/python3 -c \
  "import sonnx; print(sonnx.__file__, sonnx.check('$model', profile='sonnx'))"
# ... and the library the module loaded is the packaged one.
expect_output "^$root/usr/lib.*/libsonnx.so.0" with_lib env PYTHONPATH="$pydir" /usr/bin/python3 -c \
  "import sonnx; print([l.split()[-1] for l in open('/proc/self/maps') if 'libsonnx.so' in l][0])"

echo "== the README's examples, from the packaged files"
ex=$work/readme
mkdir -p "$ex"
cp "$model" "$ex/model.onnx"
readme_block cli >"$ex/cli.sh"
readme_block cmake >"$ex/CMakeLists.txt"
readme_block cpp >"$ex/main.cpp"
readme_block python >"$ex/example.py"
for f in cli.sh CMakeLists.txt main.cpp example.py; do [[ -s $ex/$f ]] || fail "README has no '<!-- example: ${f%%.*} -->' block"; done
(cd "$ex" && expect_output "^Y: float\[1,3\]" env PATH="$root/usr/bin:/usr/bin:$PATH" bash -e cli.sh)
[[ -f $ex/out/Y.npy ]] || fail "the README's CLI example wrote no out/Y.npy"
cmake -S "$ex" -B "$ex/build" -DCMAKE_PREFIX_PATH="$root/usr" >/dev/null
cmake --build "$ex/build" >/dev/null
(cd "$ex" && expect_output "^Y\[0\] = 3$" with_lib build/app)
(cd "$ex" && expect_output "array\(\[\[3., 3., 3.\]\], dtype=float32\)" with_lib env PYTHONPATH="$pydir" /usr/bin/python3 example.py)
echo "install_test: all passed"
