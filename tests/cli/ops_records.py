#!/ usr / bin / env python3
"""`sonnx ops` shows, per operator version, which parts of its record are filled.

Usage: ops_records.py SONNX. Checks the JSON listing against facts fixed by the source tree
(Conv-22 has a reference kernel, a parameter struct, a shape rule, a fast kernel and an
enclosure and a C template; Add-6 has no fast kernel, since those start at Add-7; every operator
version of the SONNX profile has a C template and no version outside it has one), that the summary counts what the list holds, and that --without PART lists exactly
the runnable versions lacking it (for params, those with attributes).
"""
import json
import os
import subprocess
import sys

PARTS = ["kernel", "params", "shape_rule", "fast_kernel", "enclosure", "upgrade", "emit_c"]


def ops(sonnx, *args):
    out = subprocess.run([sonnx, "ops", "--format", "json", *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    sonnx = sys.argv[1]
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)

    listing = ops(sonnx)
    by_id = {o["operator"]: o for o in listing["operators"]}
    expect(len(by_id) == 639, f"{len(by_id)} versions listed, expected the catalogue's 639")
    for o in listing["operators"]:
        expect(sorted(o["record"]) == sorted(PARTS), f"{o['operator']}: record keys {sorted(o['record'])}")
        expect(o["record"]["kernel"] == (o["runs"] == "kernel"), f"{o['operator']}: kernel part vs runs {o['runs']}")
    conv = by_id["Conv-22"]["record"]
    expect(conv == {"kernel": True, "params": True, "shape_rule": True, "fast_kernel": True, "enclosure": True,
                    "upgrade": False, "emit_c": True}, f"Conv-22: {conv}")
    profile = json.load(open(os.path.join(os.path.dirname(__file__), "..", "..", "spec", "profiles", "sonnx.json")))
    in_profile = set(profile["operators"])
    with_c = {o["operator"] for o in listing["operators"] if o["record"]["emit_c"]}
    expect(with_c == in_profile, f"C templates for {sorted(with_c - in_profile)[:5]} outside the profile, "
                                 f"none for {sorted(in_profile - with_c)[:5]} in it")
    expect(by_id["Conv-22"].get("accuracy") == "rounding", "Conv-22 is of the rounding class")
    expect(not by_id["Add-6"]["record"]["fast_kernel"], "Add-6 has no fast kernel")
    expect(by_id["Add-7"]["record"]["fast_kernel"], "Add-7 has a fast kernel")
#Relu - 6 runs Relu - 1's kernel(a kernel written against onnx 1.12 serves the versions after it).
    expect(by_id["Relu-6"].get("kernel_version") == 1, f"Relu-6 runs kernel version {by_id['Relu-6'].get('kernel_version')}")
    for part in PARTS[1:]:
        n = sum(o["record"][part] for o in listing["operators"])
        expect(listing["summary"]["record"][part] == n, f"summary counts {listing['summary']['record'][part]} {part}, the list {n}")

    lacking = ops(sonnx, "--without", "enclosure")["operators"]
    ids = {o["operator"] for o in lacking}
    want = {o["operator"] for o in listing["operators"] if o["runs"] != "unsupported" and not o["record"]["enclosure"]}
    expect(ids == want, f"--without enclosure: {len(ids)} versions, expected {len(want)}")
    expect("RandomUniformLike-22" in ids and "Conv-22" not in ids, "--without enclosure lists RandomUniformLike-22, not Conv-22")

#Every runnable version with attributes reads them through a parameter struct; a version
#without attributes(Relu - 14) needs none, and Relu - 1's legacy consumed_inputs is read too.
    no_params = {o["operator"] for o in ops(sonnx, "--without", "params")["operators"]}
    want = {o["operator"] for o in listing["operators"]
            if o["runs"] != "unsupported" and o["attributes"] and not o["record"]["params"]}
    expect(no_params == want, f"--without params: {len(no_params)} versions, expected {len(want)}")
    expect(not no_params, f"--without params lists {len(no_params)} versions, e.g. {sorted(no_params)[:5]}")
    expect(not by_id["Relu-14"]["record"]["params"] and by_id["Relu-1"]["record"]["params"],
           "Relu-14 has no parameter struct, Relu-1 has one")
    expect(all(by_id[v]["record"]["params"] for v in ("If-25", "Scan-8", "ai.onnx.ml.TreeEnsemble-5", "IsInf-20")),
           "If-25, Scan-8, TreeEnsemble-5 and IsInf-20 have parameter structs")

    bad = subprocess.run([sonnx, "ops", "--without", "nothing"], capture_output=True, text=True)
    expect(bad.returncode == 2, f"--without nothing exits {bad.returncode}, expected 2 (usage)")

    for f in failures:
        print("FAIL:", f)
    print(f"ops_records: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
