#!/bin/sh
# prove.sh -- replay the proofs of one or more Why3 files and fail unless
# every proof obligation is Valid.
#
# Usage: proofs/prove.sh [-L DIR]... FILE.mlw [FILE.mlw...]
#
# For every module/theory of every file the obligations are split with
# `split_vc` and sent to the provers of the ladder below, one rung after the
# other; an obligation left unproved by a rung is retried (goal by goal) on
# the next rung.  The script prints, for each obligation, the prover that
# discharged it, and exits
#   0  every obligation is Valid,
#   1  at least one obligation is not Valid (or a file has no obligation),
#   2  usage error, or Why3 could not parse/type a file.
#
# `why3 prove` alone is not a reliable oracle (its exit code differs between
# versions), hence this wrapper.
#
# Environment:
#   PROVE_LADDER   rungs "prover:seconds" tried in order
#                  (default "z3:5 cvc4:20 z3:30")
#   WHY3           the why3 executable (default "why3")
#   WHY3_CONFIG    configuration file (default $HOME/.why3.conf); created with
#                  `why3 config detect` when absent.

set -u

WHY3=${WHY3:-why3}
LADDER=${PROVE_LADDER:-"z3:5 cvc4:20 z3:30"}
CONF=${WHY3_CONFIG:-${HOME:-/tmp}/.why3.conf}

LOADPATH=""
while [ $# -gt 0 ]; do
  case "$1" in
    -L) [ $# -ge 2 ] || { echo "prove.sh: -L needs a directory" >&2; exit 2; }
        LOADPATH="$LOADPATH -L $2"; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "prove.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: prove.sh [-L DIR]... FILE.mlw..." >&2; exit 2; }

command -v "$WHY3" >/dev/null 2>&1 || { echo "prove.sh: $WHY3 not found" >&2; exit 2; }

# --- provers configuration (CI starts without ~/.why3.conf) -----------------
if [ ! -s "$CONF" ]; then
  lock="${TMPDIR:-/tmp}/sonnx-why3-config.lock"
  (
    if command -v flock >/dev/null 2>&1; then flock 9; fi
    if [ ! -s "$CONF" ]; then
      echo "prove.sh: $CONF absent, running 'why3 config detect'"
      "$WHY3" -C "$CONF" config detect >/dev/null 2>&1 \
        || "$WHY3" config detect >/dev/null 2>&1
    fi
  ) 9>"$lock"
fi
[ -s "$CONF" ] || { echo "prove.sh: no Why3 configuration at $CONF" >&2; exit 2; }
W3="$WHY3 -C $CONF"

work=$(mktemp -d "${TMPDIR:-/tmp}/prove.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM

# Turn the text output of `why3 prove` into records
#   KEY <TAB> GOALNAME <TAB> VERDICT <TAB> DETAIL
# KEY = location line + goal line + occurrence number (split_vc may yield
# several sub-goals with the same location and explanation; their order is
# deterministic, so the occurrence number identifies them across runs).
parse() {
  awk '
    /^File / { loc = $0; desc = ""; next }
    /^Goal / || /^Sub-goal / { desc = $0; next }
    /^Prover result is: / {
      res = substr($0, 19)
      verdict = res; sub(/ .*/, "", verdict); sub(/\.$/, "", verdict)
      g = desc
      if (g ~ /^Goal /) { sub(/^Goal /, "", g) } else { sub(/.* of goal /, "", g) }
      sub(/\.$/, "", g)
      k = loc " " desc
      n[k]++
      printf "%s #%d\t%s\t%s\t%s\n", k, n[k], g, verdict, res
    }'
}

# run_prove OUTFILE PROVER SECONDS FILE [selection...]
run_prove() {
  out=$1; prover=$2; secs=$3; file=$4; shift 4
  # shellcheck disable=SC2086
  $W3 prove $LOADPATH -P "$prover" -t "$secs" -a split_vc "$file" "$@" \
    >"$out.raw" 2>"$out.err"
  rc=$?
  parse <"$out.raw" >"$out"
  if [ "$rc" -ne 0 ] && [ ! -s "$out" ]; then
    echo "prove.sh: why3 failed on $file:" >&2
    cat "$out.raw" "$out.err" >&2
    return 2
  fi
  return 0
}

total_goals=0
total_bad=0
status=0
summary="$work/summary"
: >"$summary"

for file in "$@"; do
  [ -r "$file" ] || { echo "prove.sh: cannot read $file" >&2; exit 2; }
  # type-check the whole file first
  # shellcheck disable=SC2086
  if ! $W3 prove $LOADPATH --type-only "$file" >"$work/tc" 2>&1; then
    echo "prove.sh: $file does not type-check:" >&2
    cat "$work/tc" >&2
    exit 2
  fi
  modules=$(sed -n 's/^\(module\|theory\)[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' "$file")
  file_goals=0
  for m in $modules; do
    first=1
    final="$work/final"        # KEY TAB GOAL TAB VERDICT TAB PROVER
    : >"$final"
    for rung in $LADDER; do
      prover=${rung%%:*}; secs=${rung#*:}
      if [ $first -eq 1 ]; then
        run_prove "$work/run" "$prover" "$secs" "$file" -T "$m" || exit 2
        awk -F '\t' -v p="$prover" 'BEGIN{OFS="\t"} {print $1,$2,$3,p}' \
          "$work/run" >"$final"
        first=0
      else
        # goals that still have an obligation not Valid
        todo=$(awk -F '\t' '$3 != "Valid" {print $2}' "$final" | sort -u)
        [ -n "$todo" ] || break
        sel=""
        for g in $todo; do sel="$sel -G $g"; done
        # shellcheck disable=SC2086
        run_prove "$work/run" "$prover" "$secs" "$file" -T "$m" $sel || exit 2
        # merge: keep a Valid verdict, otherwise take the new one
        awk -F '\t' -v p="$prover" 'BEGIN{OFS="\t"}
          NR == FNR { v[$1] = $3; next }
          { if ($3 != "Valid" && ($1 in v)) { $3 = v[$1]; if ($3 == "Valid") $4 = p }
            print }' "$work/run" "$final" >"$final.new"
        mv "$final.new" "$final"
      fi
    done
    n=$(wc -l <"$final")
    file_goals=$((file_goals + n))
    total_goals=$((total_goals + n))
    while IFS="$(printf '\t')" read -r key goal verdict prover; do
      if [ "$verdict" = "Valid" ]; then
        printf '  %-5s %s.%s  %s\n' "$prover" "$m" "$goal" "$key"
        printf '%s\t%s.%s\t%s\n' "$prover" "$m" "$goal" "$file" >>"$summary"
      else
        printf '  FAIL  %s.%s  %s  (%s)\n' "$m" "$goal" "$key" "$verdict"
        total_bad=$((total_bad + 1))
        status=1
      fi
    done <"$final"
  done
  if [ "$file_goals" -eq 0 ]; then
    echo "prove.sh: $file has no proof obligation" >&2
    status=1
  fi
done

echo "----"
echo "goals proved per prover (obligations):"
cut -f1 "$summary" | sort | uniq -c | sed 's/^/  /'
echo "$total_goals obligations, $((total_goals - total_bad)) Valid, $total_bad not Valid"
if [ "$status" -ne 0 ]; then echo "RESULT: FAILED"; else echo "RESULT: all obligations Valid"; fi
exit $status
