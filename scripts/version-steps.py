#!/ usr / bin / env python3
"""The version steps `sonnx admit` must carry a node through, and what the specification says of each.

For every operator of a profile (spec/profiles/sonnx.json: "Conv-22", ...), the versions between the
one opset 7 selects (or the operator's first, if it came later) and the profile's pin, one step at a
time. Each step is compared in the catalogue (spec/operators.json: attributes, inputs, outputs, type
constraints) and, with the ONNX Changelog.md, in its text (the description and every attribute,
input and output paragraph, whitespace normalised). A step is

  types-widened   the signature is the same, every type list of the older version is contained in
                  the newer one's, and the text is the same: a node of the older version means the
                  same as the newer version on the older types (an upgrade relabels it);
  text-changed    the signature and type lists allow a relabel but the text differs: a person reads
                  the two texts and records whether the meaning changed;
  signature       attributes, inputs or outputs differ (listed): the upgrade needs a rewrite.

Writes the table (spec/upgrade-steps.md) and the types-widened steps as C++ (admit/relabel_steps.inc,
the relabel adapters sonnx registers), or checks that the committed files are current (--check).
Needs the ONNX Changelog (../shared/onnx/spec-1.22); --skip-if-missing exits 77 without it.
"""
import argparse
import difflib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEADING = re.compile(r'^### <a name="([^"]+)-(\d+)"></a>')
FIRST_OPSET = 7


def schema_texts(changelog):
    """{(name, version): normalised text} of the default domain's schemas, without the version line,
    the type constraints (compared structurally) and the differentiability marks."""
    texts, key, lines, in_default = {}, None, [], True

    def close():
        if key is not None:
            body, skip = [], False
            for line in lines:
                if line.startswith("#### "):
                    skip = line.strip() in ("#### Version", "#### Type Constraints")
                    continue
                if not skip:
                    body.append(line)
#The(non -) differentiable marks of inputs and outputs, added in opset 13, concern
#training only.
            text = re.sub(r"\((non-)?differentiable\)|, (non-)?differentiable\b", "", " ".join(body))
            # What a <dt> line says after the name (option, type, default) is compared structurally.
            text = re.sub(r"</tt>[^<]*</dt>", "</tt></dt>", text)
            texts[key] = " ".join(text.split())

    for line in changelog.splitlines():
        if line.startswith("## "):
            close()
            key, lines = None, []
            in_default = "of the default ONNX operator set" in line
            continue
        m = HEADING.match(line)
        if m:
            close()
            key, lines = ((m.group(1), int(m.group(2))) if in_default else None), []
            continue
        if key is not None:
            lines.append(line)
    close()
    return texts


def first_difference(a, b, words=10):
    """The first differing run of words between two texts, shortened: 'old words' → 'new words'."""
    a, b = a.split(), b.split()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            cut = lambda w: " ".join(w[:words]) + (" …" if len(w) > words else "")
            return f"“{cut(a[i1:i2])}” → “{cut(b[j1:j2])}”".replace("|", "\\|")
    return ""


def formal_sig(f):
    return (f["name"], f.get("option"))


def formal_types(schema, f):
    """The types a formal takes: its type parameter's list, or its one concrete type."""
    for c in schema["type_constraints"]:
        if c["name"] == f.get("type"):
            return set(c["types"])
    return {f.get("type")}


def attr_sig(a):
    return (a["name"], a.get("type"), a.get("required"), json.dumps(a.get("default"), sort_keys=True))


def compare(old, new):
    """The signature differences of a step (empty: the same), and whether the type lists widen."""
    diffs = []
    oa, na = {a["name"]: a for a in old["attributes"]}, {a["name"]: a for a in new["attributes"]}
    for n in sorted(oa.keys() - na.keys()):
        diffs.append(f"attribute {n} removed")
    for n in sorted(na.keys() - oa.keys()):
        diffs.append(f"attribute {n} added")
    for n in sorted(oa.keys() & na.keys()):
        if attr_sig(oa[n]) != attr_sig(na[n]):
            diffs.append(f"attribute {n} changed")
    for kind in ("inputs", "outputs"):
        o, n = [formal_sig(f) for f in old[kind]], [formal_sig(f) for f in new[kind]]
        if len(o) != len(n):
            diffs.append(f"{len(o)} {kind}, then {len(n)}")
        else:
            for a, b in zip(o, n):
                if a != b:
                    diffs.append(f"{kind[:-1]} {a[0]} changed" + (f" (now {b[0]})" if a[0] != b[0] else ""))
    # Type lists are compared per input and output (a type parameter may be renamed, as Identity's
    # T became V): a step widens when each one's old types are among its new ones.
    widened, lost = True, set()
    for kind in ("inputs", "outputs"):
        for a, b in zip(old[kind], new[kind]):
            ta, tb = formal_types(old, a), formal_types(new, b)
            widened = widened and ta <= tb
            lost |= ta - tb
    if lost:
        diffs.append("types dropped: " + ", ".join(sorted(lost)))
    return diffs, widened


def steps(catalogue, profile, texts):
    by_name = {}
    for s in catalogue["schemas"]:
        if s["domain"] == "":
            by_name.setdefault(s["name"], []).append(s)
    rows = []
    for pinned in profile["operators"]:
        name, pin = pinned.rsplit("-", 1)
        versions = sorted(by_name[name], key=lambda s: s["version"])
        at_first = [s for s in versions if s["version"] <= FIRST_OPSET]
        start = at_first[-1]["version"] if at_first else versions[0]["version"]
        chain = [s for s in versions if start <= s["version"] <= int(pin)]
        for old, new in zip(chain, chain[1:]):
            diffs, widened = compare(old, new)
            for s in (old, new):
                if (name, s["version"]) not in texts:
                    raise SystemExit(f"version-steps: no text of {name}-{s['version']} in the Changelog")
            old_text, new_text = texts[(name, old["version"])], texts[(name, new["version"])]
            same_text = old_text == new_text
            if diffs:
                kind = "signature"
            elif widened and same_text:
                kind = "types-widened"
            else:
                kind = "text-changed"
            rows.append({
  "operator" : name,
               "from" : old["version"],
                        "to" : new["version"],
                               "kind" : kind,
                                        "evidence"
      : "; ".join(diffs) if diffs else("same text" if same_text else "text: " + first_difference(old_text, new_text))})
    return rows


def render(rows, profile_path):
    counts = {
k: sum(r["kind"] == k for r in rows) for k in ("types-widened", "text-changed", "signature")}
    out = [
        "# Version steps into the SONNX profile",
        "",
        "Generated by `scripts/version-steps.py` from the catalogue (`spec/operators.json`), the ONNX",
        f"Changelog and `{profile_path}`; do not edit. For each operator of the profile, every step from",
        f"the version opset {FIRST_OPSET} selects (or the operator's first) to the profile's pin. `types-widened`:",
        "same signature and text, type lists only grow (an upgrade relabels the node); `text-changed`: same",
        "signature, the text differs (read and record whether the meaning changed); `signature`: attributes,",
        "inputs or outputs differ (the upgrade rewrites the node). The adapters are in `admit/`: the",
        "relabels of this table's type widenings (`relabel_steps.inc`, generated with it), the steps read",
        "and relabelled with a reason (`adapters_reviewed.cpp`) and the rewrites (`adapters_*.cpp`).",
        "",
        f"{len(rows)} steps: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + ".",
        "",
        "| operator | step | kind | evidence |",
        "|---|---|---|---|",
    ]
    for r in rows:
        out.append(f"| {r['operator']} | {r['from']} → {r['to']} | {r['kind']} | {r['evidence']} |")
    return "\n".join(out) + "\n"


def render_relabels(rows):
    out = ["// Generated by scripts/version-steps.py from the catalogue and the ONNX Changelog; do not edit.",
           "// The version steps of the SONNX profile's operators whose signature and text are the same and",
           "// whose type lists only grow (spec/upgrade-steps.md, types-widened): an upgrade relabels the node.",
           "// SONNX_RELABEL_STEP(operator, from, to)"]
    for r in rows:
        if r["kind"] == "types-widened":
            out.append(f'SONNX_RELABEL_STEP("{r["operator"]}", {r["from"]}, {r["to"]})')
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("spec_dir", help="the ONNX specification documents (Changelog.md)")
    ap.add_argument("--profile", default=os.path.join(ROOT, "spec/profiles/sonnx.json"))
    ap.add_argument("--catalogue", default=os.path.join(ROOT, "spec/operators.json"))
    ap.add_argument("--out", default=os.path.join(ROOT, "spec/upgrade-steps.md"))
    ap.add_argument("--relabels", default=os.path.join(ROOT, "admit/relabel_steps.inc"))
    ap.add_argument("--check", action="store_true", help="fail (exit 1) when --out is not what this makes")
    ap.add_argument("--json", action="store_true", help="print the steps as JSON instead")
    ap.add_argument("--skip-if-missing", action="store_true", help="exit 77 when spec_dir is absent")
    a = ap.parse_args()
    changelog = os.path.join(a.spec_dir, "Changelog.md")
    if not os.path.isfile(changelog):
        if a.skip_if_missing:
            print(f"SKIP: {changelog} is absent (shared data; a user clone has none)")
            return 77
        print(f"version-steps: {changelog}: no such file", file=sys.stderr)
        return 2
    with open(a.catalogue) as f:
        catalogue = json.load(f)
    with open(a.profile) as f:
        profile = json.load(f)
    with open(changelog) as f:
        texts = schema_texts(f.read())
    rows = steps(catalogue, profile, texts)
    if a.json:
        print(json.dumps(rows, indent=1))
        return 0
    outputs = {a.out: render(rows, os.path.relpath(a.profile, ROOT)), a.relabels: render_relabels(rows)}
    if a.check:
        for path, text in outputs.items():
            current = open(path).read() if os.path.isfile(path) else ""
            if current != text:
                print(f"version-steps: {path} is stale; run scripts/version-steps.py {a.spec_dir}", file=sys.stderr)
                return 1
        print(f"version-steps: {a.out} and {a.relabels} are current ({len(rows)} steps)")
        return 0
    for path, text in outputs.items():
        with open(path, "w") as f:
            f.write(text)
    print(f"version-steps: wrote {a.out} and {a.relabels} ({len(rows)} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
