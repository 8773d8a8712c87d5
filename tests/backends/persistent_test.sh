#!/usr/bin/env bash
# The persistent protocol of `sonnx certify --backend-cmd CMD --persistent` (docs/backends.md),
# against serve_backend.py (a runtime that runs each model with `sonnx run`):
#  1. a well-behaved runtime that also prints log lines on stdout and stderr: every test passes,
#     one runtime serves them all, the certificate names its version, repros keep --persistent;
#  2. a runtime misbehaving on chosen tests (hang, SIGSEGV, exit 5, a non-JSON reply, a reply to
#     another request, a refusal, an error): each such test gets its status, and the test after each
#     of them passes, so the runtime was restarted, exactly once per hang, death or garbage reply
#     (never after a refusal or an error reply);
#  3. no runtime outlives the run;
#  4. commands that make no handshake (silent, another protocol version, a one-shot command) stop
#     the run before any test with exit 2 and the message saying so; --persistent without --backend-cmd.
# Usage: persistent_test.sh SONNX SUITE_DIR WORK_DIR
set -u
sonnx=$1 suite=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
check=("/usr/bin/python3" "$here/check_report.py")
serve="/usr/bin/python3 '$here/serve_backend.py' '$sonnx'"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }

# Every process id in FILE is gone (the runtimes were stopped and reaped, hung ones killed). A
# zombie counts as gone: the runtime (a child of `sh -c`) is killed with its process group, and once
# its parent is reaped it is init's to reap, whenever init gets to it.
all_gone() {
  while read -r pid; do
    state=$(ps -o stat= -p "$pid" 2>/dev/null)
    if [ -n "$state" ] && [ "${state#Z}" = "$state" ]; then echo "runtime $pid is still running ($state)"; return 1; fi
  done <"$1"
}

# 1. Well-behaved (and chatty): all pass, one start.
filter='^test_(abs|add|mul|neg|relu|sigmoid|exp|sub)$'
"$sonnx" certify --backend-cmd "$serve --chatty --starts '$work/starts-ok'" --persistent --suite "$suite" \
  --filter "$filter" --timeout 30 --report "$work/ok.json" >"$work/ok.out" 2>&1 || { cat "$work/ok.out"; fail "the well-behaved run"; }
"${check[@]}" "$work/ok.json" "s['total'] == 8" "s['passed'] == 8" "r['verdict'] == 'certified'" \
  "r['backend_version'] == 'serve_backend 1.0 (persistent protocol)'" \
  "all(' --persistent ' in t['repro'] for t in tests.values())" || fail "the well-behaved report"
[ "$(wc -l <"$work/starts-ok")" = 1 ] || fail "one runtime should serve every test; starts: $(tr '\n' ' ' <"$work/starts-ok")"
all_gone "$work/starts-ok" || fail "a runtime outlived the well-behaved run"
echo "well-behaved: ok"

# 2. Misbehaving on seven tests; the test after each of them behaves (tests run in name order).
filter='^test_(abs|add|ceil|cos|exp|floor|mul|neg|relu|sigmoid|sin|sub|tanh)$'
bad='test_abs=hang,test_ceil=segv,test_exp=exit,test_mul=garbage,test_relu=stale,test_sin=refuse,test_sub=error'
"$sonnx" certify --backend-cmd "$serve --misbehave $bad --starts '$work/starts-bad'" --persistent --suite "$suite" \
  --filter "$filter" --timeout 3 --report "$work/bad.json" >"$work/bad.out" 2>&1
[ $? = 1 ] || { cat "$work/bad.out"; fail "the misbehaving run should exit 1"; }
"${check[@]}" "$work/bad.json" "s['total'] == 13" \
  "tests['test_abs']['status'] == 'timeout'" "'no reply within 3 s' in tests['test_abs']['message']" \
  "tests['test_ceil']['status'] == 'crashed'" "'signal 11' in tests['test_ceil']['message']" \
  "tests['test_exp']['status'] == 'errored'" "'exited with status 5' in tests['test_exp']['message']" \
  "'giving up on test_exp' in tests['test_exp']['message']" \
  "tests['test_mul']['status'] == 'failed'" "tests['test_mul']['message'].startswith('garbage output: ')" \
  "'not a JSON object' in tests['test_mul']['message']" \
  "tests['test_relu']['status'] == 'failed'" "'does not answer request' in tests['test_relu']['message']" \
  "tests['test_sin']['status'] == 'unsupported'" "tests['test_sin']['message'] == 'serve_backend declines test_sin: no kernel'" \
  "tests['test_sub']['status'] == 'errored'" "tests['test_sub']['message'] == 'serve_backend failed on test_sub'" \
  "all(tests[t]['status'] == 'passed' for t in ['test_add', 'test_cos', 'test_floor', 'test_neg', 'test_sigmoid', 'test_tanh'])" \
  "ops['Sin'] == 'unsupported'" "s['passed'] == 6" || fail "the misbehaving report"
# A new runtime after each of the hang, the crash, the exit and the two garbage replies; none after
# the refusal or the error.
[ "$(wc -l <"$work/starts-bad")" = 6 ] || fail "expected 6 starts, got $(wc -l <"$work/starts-bad")"
all_gone "$work/starts-bad" || fail "a runtime outlived the misbehaving run"
echo "misbehaving: ok"

# 3. No handshake: exit 2 before any test, with the reason.
expect_usage() {  # WHAT EXPECTED_TEXT CERTIFY_ARGS...
  local what=$1 text=$2
  shift 2
  "$sonnx" certify "$@" --suite "$suite" --filter '^test_abs$' --report "$work/none.json" >"$work/none.out" 2>&1
  local got=$?
  [ "$got" = 2 ] || { cat "$work/none.out"; fail "$what: exit $got, expected 2"; }
  grep -qF -- "$text" "$work/none.out" || { cat "$work/none.out"; fail "$what: no '$text' in the message"; }
  [ ! -e "$work/none.json" ] || fail "$what: a report was written"
}
expect_usage "silent" "does not speak the persistent protocol (no handshake within 1 s); run without --persistent" \
  --backend-cmd "$serve --handshake none --starts '$work/starts-none'" --persistent --timeout 1
all_gone "$work/starts-none" || fail "the silent runtime outlived its handshake's timeout"
expect_usage "another version" "(its handshake names protocol version 2; sonnx speaks version 1)" \
  --backend-cmd "$serve --handshake v2" --persistent --timeout 10
expect_usage "a one-shot command" "(it exited with status 3 before its handshake); run without --persistent" \
  --backend-cmd "sh '$here/refuse_backend.sh'" --persistent --timeout 10
expect_usage "--persistent alone" "--persistent needs --backend-cmd CMD" --backend cpu --persistent
echo "no handshake: ok"
