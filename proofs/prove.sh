#!/bin/sh
# prove.sh -- check the proofs of Why3 files; fail unless every proof
# obligation is Valid.
#
# Usage: proofs/prove.sh [-L DIR]... FILE.mlw [FILE.mlw...]
#
# For every module of every file, the verification conditions are split
# with `split_vc` and sent to the first rung of a prover ladder; each
# obligation left unproved is retried (alone) on the next rung, and so on.
# Every obligation is printed with the prover that discharged it.
# Exit status:
#   0  every obligation is Valid;
#   1  some obligation is not Valid (or a file has no obligation, or a
#      lemma or goal of a module came back without any obligation);
#   2  usage error, or Why3 cannot parse/type a file.
#
# `why3 prove` alone is not a reliable oracle (its exit status depends on
# the version), hence this wrapper.
#
# Environment:
#   PROVE_LADDER  rungs "prover:seconds:steps" tried in order (steps may be
#                 omitted).  Step limits make the outcome independent of the
#                 machine's load; the time limit is a safety net.
#                 Default: "z3:60:300000 cvc4:60:400000 z3:120:40000000"
#   WHY3          the why3 executable (default: why3)
#   WHY3_CONFIG   Why3 configuration file (default: $HOME/.why3.conf);
#                 created with `why3 config detect` when absent.
#   PROVE_VERBOSE set to 0 to print only failures and the summary.
#   PROVE_RESULTS file to write every obligation's outcome to, one line
#                 "Module.goal<TAB>verdict<TAB>prover" (written when the run
#                 ends, whatever its result; scripts/make-traceability.py
#                 --proofs reads it).

set -u

WHY3=${WHY3:-why3}
LADDER=${PROVE_LADDER:-"z3:60:300000 cvc4:60:400000 z3:120:40000000"}
CONF=${WHY3_CONFIG:-${HOME:-/tmp}/.why3.conf}
VERBOSE=${PROVE_VERBOSE:-1}

LOADPATH=""
while [ $# -gt 0 ]; do
  case "$1" in
    -L) [ $# -ge 2 ] || { echo "prove.sh: -L needs a directory" >&2; exit 2; }
        LOADPATH="$LOADPATH -L $2"; shift 2 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "prove.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: prove.sh [-L DIR]... FILE.mlw..." >&2; exit 2; }

command -v "$WHY3" >/dev/null 2>&1 || { echo "prove.sh: $WHY3 not found" >&2; exit 2; }

# --- prover configuration (a clean CI machine has no ~/.why3.conf) --------
if [ ! -s "$CONF" ]; then
  lock="${TMPDIR:-/tmp}/sonnx-why3-config.lock"
  (
    # several tests may start at once: detect under a lock
    if command -v flock >/dev/null 2>&1; then flock 9; fi
    if [ ! -s "$CONF" ]; then
      echo "prove.sh: $CONF absent, running 'why3 config detect'"
      "$WHY3" -C "$CONF" config detect >/dev/null 2>&1 \
        || "$WHY3" config detect >/dev/null 2>&1
    fi
  ) 9>"$lock"
fi
[ -s "$CONF" ] || { echo "prove.sh: no Why3 configuration at $CONF" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/prove.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT INT TERM
TAB=$(printf '\t')

# Text output of `why3 prove` -> records
#   KEY TAB GOAL TAB LINE TAB VERDICT
# KEY is the location line, the goal line and an occurrence number (split_vc
# may give several obligations with the same location and explanation; their
# order is deterministic, so the number identifies them across runs).
parse() {
  awk '
    /^File / { loc = $0; desc = ""; next }
    /^Goal / || /^Sub-goal / { desc = $0; next }
    /^Prover result is: / {
      res = substr($0, 19)
      verdict = res; sub(/ .*/, "", verdict); sub(/\.$/, "", verdict); sub(/,$/, "", verdict)
      g = desc
      if (g ~ /^Goal /) { sub(/^Goal /, "", g) } else { sub(/.* of goal /, "", g) }
      sub(/\.$/, "", g)
      line = "-"
      if (match(loc, /line [0-9]+/)) line = substr(loc, RSTART + 5, RLENGTH - 5)
      k = loc " " desc
      n[k]++
      printf "%s #%d\t%s\t%s\t%s\n", k, n[k], g, line, verdict
    }'
}

# run_prove OUT PROVER SECS STEPS FILE [selection...]
run_prove() {
  out=$1; prover=$2; secs=$3; steps=$4; file=$5; shift 5
  lim="-t $secs"
  [ -n "$steps" ] && lim="$lim -s $steps"
  # shellcheck disable=SC2086
  "$WHY3" -C "$CONF" prove $LOADPATH -P "$prover" $lim -a split_vc "$file" "$@" \
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

total=0
bad=0
status=0
summary="$work/summary"
: >"$summary"
results="$work/results"
: >"$results"

for file in "$@"; do
  [ -r "$file" ] || { echo "prove.sh: cannot read $file" >&2; exit 2; }
  # shellcheck disable=SC2086
  if ! "$WHY3" -C "$CONF" prove $LOADPATH --type-only "$file" >"$work/tc" 2>&1; then
    echo "prove.sh: $file does not type-check:" >&2
    cat "$work/tc" >&2
    exit 2
  fi
  echo "== $file"
  modules=$(sed -n 's/^\(module\|theory\)[ \t]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' "$file")
  file_goals=0
  for m in $modules; do
    final="$work/final"          # KEY GOAL LINE VERDICT PROVER
    : >"$final"
    first=1
    for rung in $LADDER; do
      prover=$(echo "$rung" | cut -d: -f1)
      secs=$(echo "$rung" | cut -d: -f2)
      steps=$(echo "$rung" | cut -s -d: -f3)
      if [ $first -eq 1 ]; then
        run_prove "$work/run" "$prover" "$secs" "$steps" "$file" -T "$m" || exit 2
        awk -F "$TAB" -v p="$prover" 'BEGIN{OFS="\t"} {print $1,$2,$3,$4,p}' \
          "$work/run" >"$final"
        first=0
        continue
      fi
      # retry the obligations not yet Valid, in two runs of why3 (each costs a second
      # of parsing): the goals with an obligation that has no line, whole; the others
      # selected by goal and line. why3 applies every -g to every -G: an obligation of
      # one goal at another's line is proved again, which costs little and changes
      # nothing (only obligations not yet Valid take a new verdict).
      awk -F "$TAB" '$4 != "Valid" {print $2 "\t" $3}' "$final" | sort -u >"$work/todo"
      [ -s "$work/todo" ] || break
      whole=$(awk -F "$TAB" '$2 == "-" {print $1}' "$work/todo" | sort -u)
      by_line=$(awk -F "$TAB" 'NR == FNR { if ($2 == "-") w[$1] = 1; next } !($1 in w) {print}' \
        "$work/todo" "$work/todo")
      sels=""
      [ -z "$whole" ] || sels="$(for g in $whole; do printf ' -G %s' "$g"; done)"
      lined=""
      if [ -n "$by_line" ]; then
        lined="$(echo "$by_line" | cut -f1 | sort -u | while read -r g; do printf ' -G %s' "$g"; done)"
        lined="$lined$(echo "$by_line" | cut -f2 | sort -u | while read -r l; do printf ' -g :%s' "$l"; done)"
      fi
      for sel in "$sels" "$lined"; do
        [ -n "$sel" ] || continue
        # shellcheck disable=SC2086
        run_prove "$work/run" "$prover" "$secs" "$steps" "$file" -T "$m" $sel || exit 2
        awk -F "$TAB" -v p="$prover" 'BEGIN{OFS="\t"}
          NR == FNR { v[$1] = $4; next }
          { if ($4 != "Valid" && ($1 in v)) { $4 = v[$1]; if ($4 == "Valid") $5 = p }
            print }' "$work/run" "$final" >"$final.new"
        mv "$final.new" "$final"
      done
    done
    # Every lemma and goal of the module must have come back with at least one
    # obligation: a run that stops early (a prover or why3 killed, output cut
    # short) must not let the file pass with a module's goals missing.
    for g in $(awk -v m="$m" '
        $1 ~ /^(module|theory)$/ { inmod = ($2 == m); next }
        inmod && $1 ~ /^(lemma|goal)$/ { n = $2; sub(/:.*/, "", n); print n }' "$file"); do
      if ! cut -f2 "$final" | grep -qx "$g"; then
        printf 'missing\t%s\t-\tMissing\t-\n' "$g" >>"$final"
      fi
    done
    n=$(wc -l <"$final")
    file_goals=$((file_goals + n))
    total=$((total + n))
    while IFS="$TAB" read -r key goal line verdict prover; do
      printf '%s.%s\t%s\t%s\n' "$m" "$goal" "$verdict" "$prover" >>"$results"
      if [ "$verdict" = "Valid" ]; then
        [ "$VERBOSE" = 0 ] || printf '  %-5s %s.%s  %s\n' "$prover" "$m" "$goal" \
          "$(echo "$key" | sed 's/^File [^,]*, //')"
        printf '%s\t%s.%s\n' "$prover" "$m" "$goal" >>"$summary"
      else
        printf '  FAIL  %s.%s  %s  (%s)\n' "$m" "$goal" "$key" "$verdict"
        bad=$((bad + 1))
        status=1
      fi
    done <"$final"
  done
  if [ "$file_goals" -eq 0 ]; then
    echo "prove.sh: $file has no proof obligation" >&2
    status=1
  fi
done

if [ -n "${PROVE_RESULTS:-}" ]; then
  mkdir -p "$(dirname "$PROVE_RESULTS")" && cp "$results" "$PROVE_RESULTS.tmp" && mv "$PROVE_RESULTS.tmp" "$PROVE_RESULTS"
fi
echo "----"
echo "obligations proved, per prover:"
cut -f1 "$summary" | sort | uniq -c | sed 's/^/  /'
echo "$total obligations, $((total - bad)) Valid, $bad not Valid"
if [ "$status" -ne 0 ]; then echo "RESULT: FAILED"; else echo "RESULT: all obligations Valid"; fi
exit $status
