#!/usr/bin/env python3
"""Generate sonnx's operator catalogue (spec/operators.json) from the ONNX specification documents.

Input: the Changelog.md and Changelog-ml.md of an onnx docs directory (every schema of every
version of ai.onnx, the preview domains and ai.onnx.ml, as Markdown) and their Operators.md and
Operators-ml.md (whose tables say which operators are defined by a function). Output: one JSON
document, a schema per entry, in a stable order, so that a regenerated catalogue diffs cleanly.

  python3 scripts/make-catalogue.py ../shared/onnx/spec-1.22 spec/operators.json
  python3 scripts/make-catalogue.py ../shared/onnx/spec-1.22 --check spec/operators.json

--check exits 1 when the file on disk differs from what the documents give (a stale catalogue).
"""
import argparse
import html
import json
import re
import sys
from pathlib import Path

DOMAIN_HEADINGS = {
    "# ai.onnx (default)": "",
    "# ai.onnx.preview": "ai.onnx.preview",
    "# ai.onnx.preview.training": "ai.onnx.preview.training",
    "# ai.onnx.ml": "ai.onnx.ml",
}
# The documents of each part of the catalogue: (Changelog, Operators), in catalogue order.
DOCUMENTS = [("Changelog.md", "Operators.md"), ("Changelog-ml.md", "Operators-ml.md")]
DOMAIN_ORDER = {"": 0, "ai.onnx.preview": 1, "ai.onnx.preview.training": 2, "ai.onnx.ml": 3}
SCHEMA_HEADING = re.compile(r'^### <a name="([^"]+)-(\d+)"></a>\*\*[^*]+\*\*( \(deprecated\))?</a>\s*$')
SECTION_HEADING = re.compile(r"^#### (Version|Attributes|Inputs|Outputs|Type Constraints)(?: \((\d+) - ([^)]+)\))?\s*$")
DT = re.compile(r"^<dt><tt>([^<]+)</tt>(?: \(([^)]*)\))?(?: : (.*))?</dt>\s*$")
SINCE = re.compile(r"(available|deprecated) since version (\d+) of ")
ATTR_TYPES = {
    "float": "float", "int": "int", "string": "string", "tensor": "tensor", "graph": "graph",
    "sparse_tensor": "sparse_tensor", "type_proto": "type_proto", "list of floats": "floats",
    "list of ints": "ints", "list of strings": "strings", "list of tensors": "tensors",
    "list of graphs": "graphs", "list of sparse_tensors": "sparse_tensors", "list of type_protos": "type_protos",
}


def parse_default(kind, text):
    """The documents print defaults as Python would; turn them into JSON values of the attribute's type."""
    text = text.strip()
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text.strip("()"))
    if kind == "string":
        return text
    if kind in ("ints", "floats", "strings"):
        items = re.findall(r"'([^']*)'", text)
        if kind == "ints":
            return [int(i) for i in items]
        if kind == "floats":
            return [float(i) for i in items]
        return items
    raise ValueError(f"no default syntax for attribute type {kind}")


def parse_attribute(name, rest):
    # rest: "int (default is 0)", "list of ints (required)", "float (default is (3.402823e+38))", "graph"
    m = re.match(r"^(.*?)(?: \((required|default is (.*))\))?$", rest)
    kind_text = m.group(1).strip()
    if kind_text not in ATTR_TYPES:
        raise ValueError(f"attribute {name}: unknown type '{kind_text}'")
    kind = ATTR_TYPES[kind_text]
    attr = {"name": name, "type": kind, "required": m.group(2) == "required"}
    if m.group(3) is not None:
        attr["default"] = parse_default(kind, m.group(3))
    return attr


def precise_float_default(attr, description):
    """The heading prints some float defaults rounded ("default is 1.0507") where the description
    gives the value itself ("default to 1.05070102214813232421875", Selu): the description's, when it
    rounds to the heading's at the heading's precision."""
    d = re.search(r"default to (\d+\.\d+)", description)
    if attr["type"] != "float" or "default" not in attr or not d:
        return
    printed = attr["default"]
    decimals = len(repr(printed).split(".")[1]) if "." in repr(printed) else 0
    precise = float(d.group(1))
    if precise != printed and round(precise, decimals) == printed:
        attr["default"] = precise


def parse_formal(name, flags, type_text):
    flags = [f.strip() for f in (flags or "").split(",") if f.strip()]
    option = "variadic" if "variadic" in flags else "optional" if "optional" in flags else "single"
    formal = {"name": name, "type": type_text.strip(), "option": option}
    if "heterogeneous" in flags:
        formal["heterogeneous"] = True
    if "differentiable" in flags:
        formal["differentiable"] = True
    elif "non-differentiable" in flags:
        formal["differentiable"] = False
    return formal


def arity(formals, bounds):
    """Minimum and maximum counts: the section heading's range when given, else every formal once."""
    if bounds:
        lo, hi = bounds
        return int(lo), (None if hi == "\u221e" else int(hi))
    return len(formals), len(formals)


def parse_changelog(text):
    schemas = []
    domain = None
    cur = None
    section = None
    bounds = {}
    for line in text.splitlines():
        if line.strip() in DOMAIN_HEADINGS:
            domain = DOMAIN_HEADINGS[line.strip()]
            continue
        m = SCHEMA_HEADING.match(line)
        if m:
            if domain is None:
                raise ValueError(f"schema before a domain heading: {line}")
            full, version = m.group(1), int(m.group(2))
            name = full[len(domain) + 1:] if domain and full.startswith(domain + ".") else full
            cur = {"domain": domain, "name": name, "version": version, "deprecated": bool(m.group(3)),
                   "attributes": [], "inputs": [], "outputs": [], "type_constraints": []}
            schemas.append(cur)
            section, bounds = None, {}
            continue
        if cur is None:
            continue
        m = SECTION_HEADING.match(line)
        if m:
            section = m.group(1)
            if m.group(2):
                bounds[section] = (m.group(2), html.unescape(m.group(3)))
            continue
        if line.startswith("### ") or line.startswith("## ") or line.startswith("# "):
            section = None
            continue
        if section == "Version":
            s = SINCE.search(line)
            if s and int(s.group(2)) != cur["version"]:
                raise ValueError(f"{cur['name']}-{cur['version']}: the text says version {s.group(2)}")
            continue
        if section == "Attributes" and line.startswith("<dd>") and cur["attributes"]:
            precise_float_default(cur["attributes"][-1], line)
            continue
        m = DT.match(line)
        if not m or section is None:
            continue
        name, flags, rest = html.unescape(m.group(1)), m.group(2), html.unescape(m.group(3) or "")
        if section == "Attributes":
            cur["attributes"].append(parse_attribute(name, rest))
        elif section == "Inputs":
            cur["inputs"].append(parse_formal(name, flags, rest))
        elif section == "Outputs":
            cur["outputs"].append(parse_formal(name, flags, rest))
        elif section == "Type Constraints":
            types = [t.strip() for t in re.split(r",\s*(?![^()]*\))", rest) if t.strip()]
            cur["type_constraints"].append({"name": name, "types": types})
        if section in ("Inputs", "Outputs"):
            key = section.lower()
            lo, hi = arity(cur[key], bounds.get(section))
            cur["min_" + key], cur["max_" + key] = lo, hi
    for s in schemas:
        for key in ("inputs", "outputs"):
            s.setdefault("min_" + key, 0)
            s.setdefault("max_" + key, 0)
    return schemas


def function_operators(operators_md):
    """(domain, name) -> the opset versions of its function body, from Operators.md's Function rows."""
    out = {}
    domain = None
    in_functions = False
    for line in operators_md.splitlines():
        m = re.match(r"^### (ai\.onnx(?:\.preview(?:\.training)?|\.ml)?)(?: \(default\))?\s*$", line)
        if m:
            domain = "" if m.group(1) == "ai.onnx" else m.group(1)
            in_functions = False
            continue
        if line.startswith("|**Function**|"):
            in_functions = True
            continue
        if line.startswith("## "):
            domain = None
        if domain is None or not in_functions or not line.startswith("|"):
            continue
        cells = line.strip("|").split("|")
        name = re.search(r'<a href="#([^"]+)">', cells[0]).group(1)
        if domain and name.startswith(domain + "."):
            name = name[len(domain) + 1:]
        out[(domain, name)] = [int(v) for v in re.findall(r"\d+", cells[-1])]
    return out


def build(docs):
    schemas, functions = [], {}
    for changelog, operators in DOCUMENTS:
        schemas += parse_changelog((docs / changelog).read_text(encoding="utf-8"))
        functions.update(function_operators((docs / operators).read_text(encoding="utf-8")))
    newest = {}
    for s in schemas:
        key = (s["domain"], s["name"])
        newest[key] = max(newest.get(key, 0), s["version"])
    for s in schemas:
        key = (s["domain"], s["name"])
        # The documents list function bodies per operator; the body belongs to its newest version.
        s["function"] = key in functions and s["version"] == newest[key]
        if s["function"]:
            s["function_opsets"] = functions[key]
    missing = set(functions) - set(newest)
    if missing:
        raise ValueError(f"function operators without a schema: {sorted(missing)}")
    schemas.sort(key=lambda s: (DOMAIN_ORDER[s["domain"]], s["name"], s["version"]))
    keys = ["domain", "name", "version", "deprecated", "function", "function_opsets", "min_inputs",
            "max_inputs", "min_outputs", "max_outputs", "inputs", "outputs", "attributes", "type_constraints"]
    schemas = [{k: s[k] for k in keys if k in s} for s in schemas]
    opsets = {}
    for s in schemas:
        opsets[s["domain"]] = max(opsets.get(s["domain"], 0), s["version"])
    return {
        "source": "onnx specification documents (" + ", ".join(d for pair in DOCUMENTS for d in pair) + ") of " + docs.name,
        "max_opset": opsets,
        "schemas": schemas,
    }


def render(catalogue):
    # One schema per line: a regenerated catalogue diffs operator by operator.
    lines = ["{", f' "source": {json.dumps(catalogue["source"])},',
             f' "max_opset": {json.dumps(catalogue["max_opset"], sort_keys=True)},', ' "schemas": [']
    body = [" " + json.dumps(s, separators=(",", ":")) for s in catalogue["schemas"]]
    lines.append(",\n".join(body))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("docs", type=Path, help="directory with Changelog.md, Changelog-ml.md, Operators.md and Operators-ml.md")
    ap.add_argument("output", type=Path, nargs="?", help="where to write the catalogue")
    ap.add_argument("--check", type=Path, metavar="FILE", help="compare with FILE instead of writing")
    ap.add_argument("--skip-if-missing", action="store_true",
                    help="exit 77 (a test's skip) when the documents are absent, e.g. in a user's clone")
    args = ap.parse_args()
    absent = [d for pair in DOCUMENTS for d in pair if not (args.docs / d).is_file()]
    if absent:
        if args.skip_if_missing:
            print(f"SKIP: {', '.join(absent)} not found in {args.docs} (the ONNX specification documents are not here)")
            return 77
        print(f"make-catalogue: {', '.join(absent)} not found in {args.docs}", file=sys.stderr)
        return 2
    catalogue = build(args.docs)
    text = render(catalogue)
    if args.check:
        if not args.check.is_file() or args.check.read_text(encoding="utf-8") != text:
            print(f"make-catalogue: {args.check} is stale; regenerate with "
                  f"python3 scripts/make-catalogue.py {args.docs} {args.check}", file=sys.stderr)
            return 1
        print(f"make-catalogue: {args.check} is up to date ({len(catalogue['schemas'])} schemas)")
        return 0
    if not args.output:
        ap.error("give an output file or --check FILE")
    args.output.write_text(text, encoding="utf-8")
    print(f"make-catalogue: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
