#!/usr/bin/env bash
# A `--backend-cmd` runtime for `sonnx certify` and `sonnx fuzz` that runs each model as the C code
# `sonnx emit-c` makes of it (docs/backends.md, "The process protocol"):
#
#   scripts/emit-c-backend.sh MODEL INPUT_DIR OUTPUT_DIR
#   sonnx certify --backend-cmd scripts/emit-c-backend.sh --suite DIR ...
#
# It generates the C (`$SONNX emit-c MODEL -o DIR --name model --mode $SONNX_EMIT_MODE`) into a
# fresh temporary directory, compiles model.c, main.c (and model_weights.c when there is one) with
# `$CC -std=c99 -O2 MODEFLAGS ... -lm` (the mode's flags, as the generated Makefile gives them), runs
# the program on INPUT_DIR, which writes OUTPUT_DIR/output_K.pb, and removes the directory.
#
# Environment: SONNX (the sonnx executable; default `sonnx` on PATH), SONNX_EMIT_MODE (exact or
# fast; default exact), SONNX_EMIT_ADMIT (0: refuse a model outside the profile instead of admitting it), CC (the C compiler, split into words; default cc), SONNX_EMIT_CFLAGS (more
# compiler flags, split into words; default none).
# Exit status: 0 done; 3 the model has no C form (emit-c exit 1: outside the SONNX profile, or a case
# with no C template), with emit-c's last line as the reason; 1 emit-c failed otherwise, the C did
# not compile (the compiler's output is printed) or the program failed; 2 a usage error. When the
# program dies by a signal, this script dies by the same signal (`crashed`).
set -u

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
if [[ $# -eq 1 && ( $1 == -h || $1 == --help ) ]]; then
  usage
  exit 0
fi
if [[ $# -ne 3 ]]; then
  echo "emit-c-backend: expected MODEL INPUT_DIR OUTPUT_DIR, got $# arguments" >&2
  usage >&2
  exit 2
fi
model=$1 input_dir=$2 output_dir=$3
sonnx=${SONNX:-sonnx}
mode=${SONNX_EMIT_MODE:-exact}
case $mode in
  exact | fast) ;;
  *) echo "emit-c-backend: SONNX_EMIT_MODE must be exact or fast, not '$mode'" >&2; exit 2 ;;
esac
read -r -a cc <<<"${CC:-cc}"
read -r -a cflags <<<"${SONNX_EMIT_CFLAGS:-}"
if [[ ${#cc[@]} -eq 0 ]]; then cc=(cc); fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sonnx-emit-c.XXXXXX") || { echo "emit-c-backend: cannot make a temporary directory" >&2; exit 1; }
trap 'rm -rf -- "$work"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
src=$work/c
mkdir -- "$src" || exit 1

# 1. The C code. A model outside the SONNX profile is admitted first (`sonnx admit`: the version
# upgrade, static types, folded constants; spec/admission.md), unless SONNX_EMIT_ADMIT=0; an output
# no node reads before one that is read becomes a graph output after the model's own
# (--expose-unused). An input a template needs as a constant (Slice's starts, Resize's scales,
# ReduceSum's axes: emit-c names it, "input 'NAME' is needed as a constant") is fixed to this run's
# value (`sonnx admit --fix`), which specialises the C to it; the program then reads the other
# inputs only. emit-c's exit 1 otherwise means the model (or one of its nodes) has no C form:
# unsupported.
fixes=()
emit() { rm -rf -- "$src" && mkdir -- "$src" && "$sonnx" emit-c "$1" -o "$src" --name model --mode "$mode" >"$work/emit.log" 2>&1; }
# MODEL's graph inputs without an initializer, in order: INPUT_DIR/input_K.pb is the K-th.
graph_inputs_py='import os, shutil, sys
import onnx
def graph_inputs(path):
    g = onnx.load(path, load_external_data=False).graph
    initialized = {t.name for t in g.initializer}
    return [i.name for i in g.input if i.name not in initialized]'
# The data file of MODEL's graph input NAME (none when it is not one).
input_file() {
  /usr/bin/python3 -c "$graph_inputs_py
names = graph_inputs(sys.argv[1])
path = sys.argv[2] + '/input_%d.pb' % names.index(sys.argv[3]) if sys.argv[3] in names else ''
if os.path.exists(path): print(path)" "$model" "$input_dir" "$1"
}
# NAME=FILE for each integer graph input of MODEL not fixed yet.
integer_inputs() {
  /usr/bin/python3 -c "$graph_inputs_py
names, fixed = graph_inputs(sys.argv[1]), {f.split('=')[0] for f in sys.argv[3:] if f != '--fix'}
for i in onnx.load(sys.argv[1], load_external_data=False).graph.input:
    if i.name in names and i.name not in fixed and i.type.tensor_type.elem_type in (onnx.TensorProto.INT32, onnx.TensorProto.INT64):
        print(i.name + '=' + sys.argv[2] + '/input_%d.pb' % names.index(i.name))" "$model" "$input_dir" "${fixes[@]}"
}
admit() { "$sonnx" admit "$model" -o "$work/admitted.onnx" --samples 0 -q --expose-unused "${fixes[@]}" >"$work/admit.log" 2>&1; }
# A value without a static shape may take it from an integer input's value (a window's size, a
# reduction's axes, a crop's shape): once, every integer input fixed to this run's value.
integers_fixed=
admit_with_integers_fixed() {
  [[ -z $integers_fixed ]] || return 1
  integers_fixed=1
  local more fx
  mapfile -t more < <(integer_inputs)
  [[ ${#more[@]} -gt 0 ]] || return 1
  for fx in "${more[@]}"; do fixes+=(--fix "$fx"); done
  admit
}
emit "$model"
rc=$?
for _ in 1 2 3 4 5 6 7 8; do
  [[ $rc -eq 1 && ${SONNX_EMIT_ADMIT:-1} != 0 ]] || break
  if name=$(grep -o "input '[^']*' is needed as a constant" "$work/emit.log" | head -n 1) && [[ -n $name ]]; then
    name=${name#input \'} name=${name%%\' is needed as a constant}
    file=$(input_file "$name")
    [[ -n $file ]] || break  # not a graph input of this run: no value to fix it to
    fixes+=(--fix "$name=$file")
  elif ! grep -q 'is not in the SONNX profile' "$work/emit.log"; then
    break
  fi
  if ! admit && ! admit_with_integers_fixed; then
    reason=$(grep -v '^[[:space:]]*$' "$work/admit.log" | tail -n 1)
    echo "not admitted into the SONNX profile: ${reason:-sonnx admit gave no reason}"
    exit 3
  fi
  emit "$work/admitted.onnx"
  rc=$?
done
if [[ $rc -eq 1 ]]; then
  reason=$(grep -v '^[[:space:]]*$' "$work/emit.log" | tail -n 1)
  echo "${reason:-sonnx emit-c refused the model without a reason}"
  exit 3
fi
if [[ $rc -ne 0 ]]; then
  cat "$work/emit.log" >&2
  echo "emit-c-backend: sonnx emit-c failed (exit status $rc)" >&2
  exit 1
fi
# The inputs the program reads: the admitted model's graph inputs, each from the file of the same
# input of MODEL (input_K.pb is MODEL's K-th graph input). Admission may have fixed an input to a
# constant or removed one no node reads.
if [[ -f $work/admitted.onnx ]]; then
  mkdir -- "$work/in" || exit 1
  /usr/bin/python3 -c "$graph_inputs_py
original = graph_inputs(sys.argv[1])
for k, name in enumerate(graph_inputs(sys.argv[2])):
    shutil.copy(sys.argv[3] + '/input_%d.pb' % original.index(name), sys.argv[4] + '/input_%d.pb' % k)" \
    "$model" "$work/admitted.onnx" "$input_dir" "$work/in" || exit 1
  input_dir=$work/in
fi

# 2. The program.
sources=("$src/model.c" "$src/main.c")
if [[ -f $src/model_weights.c ]]; then sources+=("$src/model_weights.c"); fi
# The mode's flags, as the generated Makefile has them (exact: each operation rounded as written
# and no libm call folded at compile time; docs/emit-c.md).
read -r -a modeflags <<<"$(sed -n 's/^MODEFLAGS = //p' "$src/Makefile")"
modeflags=(-O2 "${modeflags[@]}")
if ! "${cc[@]}" -std=c99 "${modeflags[@]}" "${cflags[@]}" -o "$src/prog" "${sources[@]}" -lm >"$work/cc.log" 2>&1; then
  echo "emit-c-backend: the generated C does not compile (${cc[*]}):" >&2
  cat "$work/cc.log" >&2
  exit 1
fi

# 3. The run. Its weights file, if any, is beside it (model.weights), where the driver looks.
"$src/prog" "$input_dir" "$output_dir"
rc=$?
if [[ $rc -gt 128 && $rc -lt 160 ]]; then
  # died by a signal: clean up, then die by the same signal so that the caller sees a crash
  rm -rf -- "$work"
  trap - EXIT HUP INT TERM
  kill -"$((rc - 128))" "$$"
fi
exit "$rc"
