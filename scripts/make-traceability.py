#!/usr/bin/env python3
"""Writes spec/traceability.md: every validator rule and every headline theorem with its Why3 name,
the code that implements or relies on it and the tests that check it.

    scripts/make-traceability.py [--build DIR] [--proofs DIR] [--check] [--extra-rule ID] [--extra-theorem NAME]
                                 [--extra-operator OP-N]

Sources: rule IDs from spec/restrictions.md (### headings) and reference/check/rules.cpp (the rule
table, with each rule's check function); theorems and their code and tests from
spec/traceability.json. Fails (exit 1, one line per gap) when a rule of the spec has no check or no
fixture, a check has no rule in the spec, an operator of the SONNX profile has no relation over real
tensors in spec/ops/relations.json (or, with --proofs, its theory was not wholly proved in the last run), a theorem named in the JSON is not in its .mlw file, a
lemma the proofs README calls a theorem is not mapped, a code file does not exist or does not name
the theorem it relies on (Module.name in a comment), or (with --build, which lists the ctest tests
of that build tree) a test does not exist. With --proofs DIR (the results proofs/prove.sh writes
there under ctest, one FILE.tsv per theory) every listed theorem must have been proved in the last
proof run: each of its obligations Valid, and the run newer than the .mlw file. --check compares
with the committed table instead of writing it. --extra-rule / --extra-theorem / --extra-operator add an
unmapped entry, to show that the check fails on one.
"""
import argparse, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def spec_rules():
    return re.findall(r"^### ([A-Z][A-Z0-9-]+)", read("spec/restrictions.md"), re.M)


def code_rules():
    """rule ID -> check function, from the table in reference/check/rules.cpp."""
    return dict(re.findall(r'\{"([A-Z][A-Z0-9-]+)",\s*S::\w+,\s*"[^"]*",\s*(\w+)\}', read("reference/check/rules.cpp")))


def check_locations():
    """check function -> file defining it."""
    where = {}
    for f in sorted(os.listdir(os.path.join(ROOT, "reference/check"))):
        if f.endswith(".cpp"):
            for fn in re.findall(r"^void (check_\w+)\(", read("reference/check/" + f), re.M):
                where[fn] = "reference/check/" + f
    return where


def fixture_rules():
    """Rules with a fixture model, and those the fixtures list as unreachable (with the reason,
    which the rules test checks)."""
    text = read("tests/fixtures/make_rule_fixtures.py")
    unreachable = re.search(r"^UNREACHABLE = \{(.*?)^\}", text, re.M | re.S)
    return set(re.findall(r'^case\("([A-Z][A-Z0-9-]+)"', text, re.M)) | set(
        re.findall(r'^ +"([A-Z][A-Z0-9-]+)":', unreachable.group(1) if unreachable else "", re.M))


def why3_declared(mlw, keywords):
    """Module.name for every declaration of an .mlw file introduced by one of `keywords` (a regex)."""
    names, module = set(), None
    for line in read("spec/" + mlw).splitlines():
        m = re.match(r"\s*module (\w+)", line)
        if m:
            module = m.group(1)
            continue
        m = re.match(r"\s*(?:" + keywords + r")\s+(\w+)", line)
        if m and module:
            names.add(module + "." + m.group(1))
    return names


def why3_names(mlw):
    """Every lemma, let lemma and let function/program."""
    return why3_declared(mlw, "lemma|goal|let rec lemma|let lemma|let rec ghost function|let ghost function|let rec function|let function|let rec|let")


def why3_relations(mlw):
    """Every predicate, inductive and (logic) function."""
    return why3_declared(mlw, "predicate|inductive|function|let function|let rec function")


def profile_operators():
    """The SONNX profile's operator set: (op, version) from its Op-N entries."""
    ops = json.loads(read("spec/profiles/sonnx.json"))["operators"]
    return [tuple(o.rsplit("-", 1)) for o in ops]


def proof_results(proofs, mlw):
    """Module.goal -> verdicts of its obligations in the last run on spec/MLW, or None when that run
    is missing or older than the file."""
    path = os.path.join(proofs, mlw[:-len(".mlw")].replace("/", "_") + ".tsv")
    if not os.path.exists(path) or os.path.getmtime(path) < os.path.getmtime(os.path.join(ROOT, "spec", mlw)):
        return None
    verdicts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            goal, verdict = line.rstrip("\n").split("\t")[:2]
            verdicts.setdefault(goal, []).append(verdict)
    return verdicts


def rule_test(rule):
    return "AllRules/RuleFixture.BreaksExactlyItsRule/" + rule.replace("-", "_")


def ctest_names(build):
    """The build's ctest tests, and every GoogleTest TEST ("Suite.Test") of a binary that ctest runs
    a suite at a time (cmake/GTestSuites.cmake)."""
    out = subprocess.run(["ctest", "--show-only=json-v1", "--test-dir", build], capture_output=True, text=True, check=True).stdout
    names, binaries = set(), set()
    for t in json.loads(out)["tests"]:
        names.add(t["name"])
        command = t.get("command", [])
        if any(arg.startswith("--gtest_filter=") for arg in command[1:]): binaries.add(command[0])
    for exe in sorted(binaries):
        listing = subprocess.run([exe, "--gtest_list_tests"], capture_output=True, text=True, check=True).stdout
        suite = None
        for line in listing.splitlines():
            if re.match(r"^[A-Za-z_][\w/]*\.", line): suite = line.split(".")[0]
            elif line.startswith("  ") and suite: names.add(f"{suite}.{line.split()[0]}")
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build")
    ap.add_argument("--proofs")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--extra-rule", action="append", default=[])
    ap.add_argument("--extra-theorem", action="append", default=[])
    ap.add_argument("--extra-operator", action="append", default=[])
    a = ap.parse_args()

    data = json.loads(read("spec/traceability.json"))
    theorems = data["theorems"] + [{"why3": t, "claim": "(injected)", "code": [], "tests": []} for t in a.extra_theorem]
    rules = spec_rules() + a.extra_rule
    checks, where, fixtures = code_rules(), check_locations(), fixture_rules()
    tests = ctest_names(a.build) if a.build else None
    gaps = []

    for r in rules:
        if r not in checks: gaps.append(f"rule {r}: in spec/restrictions.md but no check in reference/check/rules.cpp")
        elif checks[r] not in where: gaps.append(f"rule {r}: check function {checks[r]} not found in reference/check")
        if r not in fixtures: gaps.append(f"rule {r}: no fixture model in tests/fixtures/make_rule_fixtures.py")
        if tests is not None and rule_test(r) not in tests: gaps.append(f"rule {r}: test {rule_test(r)} is not a ctest test of {a.build}")
    for r in checks:
        if r not in rules: gaps.append(f"rule {r}: checked in reference/check/rules.cpp but has no paragraph in spec/restrictions.md")

    known, results = {}, {}
    for t in theorems:
        mlw, _, name = t["why3"].partition(" ")
        if mlw not in known:
            known[mlw] = why3_names(mlw) if os.path.exists(os.path.join(ROOT, "spec", mlw)) else set()
        if name not in known[mlw]: gaps.append(f"theorem {t['why3']}: no such lemma or program in spec/{mlw}")
        if not t["code"]: gaps.append(f"theorem {t['why3']}: no code implements or relies on it")
        if not t["tests"]: gaps.append(f"theorem {t['why3']}: no test checks it")
        for c in t["code"]:
            if not os.path.exists(os.path.join(ROOT, c)): gaps.append(f"theorem {t['why3']}: code file {c} does not exist")
            elif name not in read(c): gaps.append(f"theorem {t['why3']}: code file {c} does not name {name}")
        if a.proofs:
            if mlw not in results: results[mlw] = proof_results(a.proofs, mlw)
            # A `let lemma` or program is proved through its verification condition, NAME'vc.
            verdicts = None if results[mlw] is None else results[mlw].get(name, []) + results[mlw].get(name + "'vc", [])
            if results[mlw] is None: gaps.append(f"theorem {t['why3']}: no proof run of spec/{mlw} newer than the file in {a.proofs}")
            elif not verdicts: gaps.append(f"theorem {t['why3']}: not among the obligations of the last proof run")
            elif any(v != "Valid" for v in verdicts): gaps.append(f"theorem {t['why3']}: not proved in the last proof run ({', '.join(sorted(set(verdicts)))})")
        if tests is not None:
            for x in t["tests"]:
                if x not in tests: gaps.append(f"theorem {t['why3']}: test {x} is not a ctest test of {a.build}")
    mapped = {t["why3"].partition(" ")[2] for t in theorems}
    # A row the proofs README puts in bold is a headline theorem: one of its Why3 names must be mapped.
    for bold_row in re.findall(r"^\| \*\*.*$", read("proofs/README.md"), re.M):
        names = re.findall(r"`([\w.]+)`", bold_row.split("|")[2])
        if not any(m == n or m.endswith("." + n) for n in names for m in mapped):
            gaps.append(f"theorem {', '.join(names)}: a headline theorem of proofs/README.md missing from spec/traceability.json")
    # Every operator of the SONNX profile has a relation over real tensors in a theory whose every
    # obligation was proved in the last run.
    relations = json.loads(read("spec/ops/relations.json"))["relations"]
    operators = profile_operators() + [tuple(o.rsplit("-", 1)) for o in a.extra_operator]
    for op, version in operators:
        rel = relations.get(op)
        if not rel:
            gaps.append(f"operator {op}-{version}: in spec/profiles/sonnx.json but no Why3 relation in spec/ops/relations.json")
            continue
        for one in [rel] if isinstance(rel, str) else rel:
            mlw, _, name = one.partition(" ")
            mlw = "ops/" + mlw
            if not os.path.exists(os.path.join(ROOT, "spec", mlw)):
                gaps.append(f"operator {op}: spec/{mlw} does not exist")
                continue
            if name not in why3_relations(mlw): gaps.append(f"operator {op}: no predicate or function {name} in spec/{mlw}")
            if not a.proofs:
                continue
            if mlw not in results: results[mlw] = proof_results(a.proofs, mlw)
            if results[mlw] is None: gaps.append(f"operator {op}: no proof run of spec/{mlw} newer than the file in {a.proofs}")
            elif any(v != "Valid" for vs in results[mlw].values() for v in vs): gaps.append(f"operator {op}: spec/{mlw} has obligations not proved in the last run")
    for op in relations:
        if op not in {o for o, _ in operators}: gaps.append(f"operator {op}: has a relation but is not in spec/profiles/sonnx.json")
    for r, ts in data["rule_theorems"].items():
        for t in ts:
            if t not in {x["why3"] for x in theorems}: gaps.append(f"rule {r}: theorem {t} is not in the theorem list")

    lines = ["# Traceability", "",
             "Generated by `scripts/make-traceability.py` from `spec/restrictions.md`, `reference/check/rules.cpp`,",
             "`tests/fixtures/make_rule_fixtures.py` and `spec/traceability.json`; the ctest test",
             "`traceability_table` fails when this file is stale or an entry is missing. Do not edit by hand.", "",
             "## Rules", "",
             "| Rule | Check | Why3 | Tests |", "|---|---|---|---|"]
    for r in rules:
        fn = checks.get(r, "—")
        loc = where.get(fn, "")
        why = ", ".join(f"`{t}`" for t in data["rule_theorems"].get(r, [])) or "—"
        test = f"`{rule_test(r)}`"
        lines.append(f"| `{r}` | `{fn}` ({loc}) | {why} | {test} |")
    lines += ["", "## Theorems", "", "| Why3 | Claim | Code | Tests |", "|---|---|---|---|"]
    for t in theorems:
        lines.append(f"| `{t['why3']}` | {t['claim']} | " + ", ".join(t["code"]) + " | " + ", ".join(f"`{x}`" for x in t["tests"]) + " |")
    lines += ["", "## Operators of the SONNX profile", "",
              "Each operator of `spec/profiles/sonnx.json`, at its version, with its relation over real tensors.", "",
              "| Operator | Why3 relation |", "|---|---|"]
    for op, version in operators:
        rel = relations.get(op)
        names = [] if rel is None else [rel] if isinstance(rel, str) else rel
        lines.append(f"| {op}-{version} | " + (", ".join(f"`ops/{n}`" for n in names) or "—") + " |")
    text = "\n".join(lines) + "\n"

    if gaps:
        print("\n".join(gaps), file=sys.stderr)
        return 1
    path = os.path.join(ROOT, "spec/traceability.md")
    if a.check:
        if not os.path.exists(path) or read("spec/traceability.md") != text:
            print("spec/traceability.md is stale: run scripts/make-traceability.py", file=sys.stderr)
            return 1
        print(f"traceability: {len(rules)} rules, {len(theorems)} theorems, {len(relations)} operator relations, all mapped" + (", all proved in the last run" if a.proofs else ""))
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote spec/traceability.md: {len(rules)} rules, {len(theorems)} theorems")
    return 0


if __name__ == "__main__":
    sys.exit(main())
