#!/usr/bin/env bash
# libsonnx.so exports its public API and nothing else: the symbols the public headers declare are
# in its dynamic symbol table, the internal layers' are not (a sample of each, by demangled name).
# Usage: exported_symbols.sh LIBSONNX
set -u
lib=$1
syms=$(nm -DC --defined-only "$lib") || { echo "nm failed on $lib"; exit 1; }
failures=0
expect() {  # expect present|absent PATTERN
  if printf '%s\n' "$syms" | grep -qF -- "$2"; then found=present; else found=absent; fi
  if [ "$found" != "$1" ]; then echo "FAIL: '$2' is $found, expected $1"; failures=$((failures + 1)); fi
}
# The C++ API, its types and exceptions (caught across the library's boundary), and the C API.
expect present 'sonnx::load(std::filesystem'
expect present 'sonnx::Session::run('
expect present 'sonnx::Tensor::Tensor('
expect present 'sonnx::operator_versions()'
expect present 'sonnx::read_value_file('
expect present 'sonnx::dtype_name('
expect present 'typeinfo for sonnx::LoadError'
expect present 'typeinfo for sonnx::CheckFailed'
expect present 'sonnx_model_load'
# The layers behind it.
expect absent 'sonnx::OpRecords::'
expect absent 'sonnx::Interpreter::'
expect absent 'sonnx::validate('
expect absent 'sonnx::infer_model('
expect absent 'sonnx::make_fast_kernel('
expect absent 'sonnx::fast::'
expect absent 'sonnx::support::'
expect absent 'sonnx::enclose::'
expect absent 'sonnx::catalogue::'
n=$(printf '%s\n' "$syms" | grep -c 'sonnx')
echo "exported_symbols: $n sonnx symbols exported, $failures failure(s)"
[ "$failures" = 0 ]
