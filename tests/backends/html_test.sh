#!/usr/bin/env bash
# The HTML certificate renders in headless Chromium: its script writes the verdict banner from the
# embedded summary, so finding the rendered verdict proves the page runs (self-contained, no network).
# Usage: html_test.sh SONNX SUITE_DIR WORK_DIR
set -u
sonnx=$1 suite=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAILED: $1"; exit 1; }
command -v chromium >/dev/null || fail "chromium is not installed (scripts/install-deps.sh installs it)"
"$sonnx" certify --backend reference --suite "$suite" --filter '^test_(abs|neg|relu)$' --report "$work/cert.html" >/dev/null ||
  fail "certify"
grep -q 'verdict needs JavaScript' "$work/cert.html" || fail "the static page should not carry the verdict"
grep -qE '(src|href)="https?:' "$work/cert.html" && fail "the page loads something from the network"
dom=$(HOME="$work" timeout 120 chromium --headless --disable-gpu --no-sandbox --user-data-dir="$work/profile" \
        --dump-dom "file://$work/cert.html" 2>"$work/chromium.log")
grep -q 'Verdict: CERTIFIED' <<<"$dom" || { cat "$work/chromium.log"; fail "the rendered page lacks the verdict"; }
grep -q 'Tests: total 3, passed 3' <<<"$dom" || fail "the rendered page lacks the counts"
grep -q '<svg' <<<"$dom" || fail "no charts"
echo "html_test: ok"
