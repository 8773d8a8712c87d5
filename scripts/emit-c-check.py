#!/usr/bin/python3
"""The properties of C that `sonnx emit-c` wrote (docs/emit-c.md, "Properties of the generated code").

  emit-c-check.py DIR [--name PREFIX] [--report FILE.json] [--no-misra]

Checks DIR/PREFIX.c (and compiles DIR/main.c and PREFIX_weights.c when present):
  compile   gcc and clang, -std=c99 -Wall -Wextra -pedantic -Wconversion -Wvla -Werror, no warning
  symbols   PREFIX.o calls no allocator (malloc, calloc, realloc, free, alloca, ...) and nothing but
            <math.h> functions and the memcpy/memmove/memset a compiler makes of copy loops; it has no writable data (no global or static state: nm's B/D/C/S)
  recursion the call graph gcc writes (-fcallgraph-info) has no cycle
  loops     every `for` compares its variable with an integer literal; no while/do/goto
  misra     cppcheck with its MISRA C 2012 addon reports no error; the other findings are counted by
            rule in the report
Prints one line per property; exit 0 when all hold, 1 otherwise, 2 on a usage error.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Wconversion", "-Wvla", "-Werror"]
ALLOCATORS = {"malloc", "calloc", "realloc", "free", "alloca", "__builtin_alloca", "aligned_alloc", "posix_memalign",
              "memalign", "valloc", "pvalloc", "sbrk", "brk", "mmap"}
# memcpy, memmove and memset: what gcc may turn a copy or fill loop into (freestanding C needs them too);
# memcmp: string equality (Equal-19), whose length is data.
MATH = {"memcpy", "memmove", "memset", "memcmp","exp", "expf", "log", "logf", "tanh", "tanhf", "erf", "erff", "sqrt", "sqrtf", "pow", "powf", "sin", "sinf", "cos",
        "cosf", "floor", "floorf", "ceil", "ceilf", "fabs", "fabsf", "fmod", "fmodf", "log1p", "log1pf", "expm1", "expm1f",
        "nearbyint", "nearbyintf", "rint", "rintf", "trunc", "truncf", "round", "roundf", "fmax", "fmin", "copysign",
        "nextafter", "ldexp", "frexp", "lrint", "llrint", "modf", "atan", "atan2", "acos", "asin", "sinh", "cosh"}
FOR = re.compile(r"for \((?:int64_t|int32_t|size_t|uint32_t|int) (\w+) = (\(?-?\d+\)?|INT64_C\(-?\d+\)); "
                 r"\1 (?:<|<=|>|>=|!=) (\(?-?\d+\)?|INT64_C\(-?\d+\)); (?:\+\+\1|--\1|\1 \+= \d+|\1 -= \d+)\)")


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def check_compile(d, prefix, work):
    problems = []
    sources = [prefix + ".c", "main.c"] + ([prefix + "_weights.c"] if os.path.exists(os.path.join(d, prefix + "_weights.c")) else [])
    for cc in ("gcc", "clang"):
        if not shutil.which(cc):
            problems.append(f"{cc} not found")
            continue
        for src in sources:
            rc, out = run([cc] + FLAGS + ["-ffp-contract=off" if cc == "gcc" else "-ffp-contract=on", "-c", src, "-o",
                           os.path.join(work, f"{cc}-{src}.o")], d)
            if rc != 0:
                problems.append(f"{cc} {src}: " + out.strip().splitlines()[0] if out.strip() else f"{cc} {src}: exit {rc}")
    return problems


def check_symbols(d, prefix, work):
    obj = os.path.join(work, "sym.o")
    # -fno-pie: a const array of pointers (string constants) is then in .rodata; position-independent
    # code puts it in .data.rel.ro, which nm marks writable although it is read-only once relocated.
    rc, out = run(["gcc", "-std=c99", "-O2", "-ffp-contract=off", "-fno-pie", "-c", prefix + ".c", "-o", obj], d)
    if rc != 0:
        return [f"gcc -O2 {prefix}.c: {out.strip()}"]
    rc, out = run(["nm", obj], d)
    problems = []
    for line in out.splitlines():
        parts = line.split()
        kind, name = (parts[0], parts[1]) if len(parts) == 2 else (parts[1], parts[2])
        if kind == "U":
            if name in ALLOCATORS:
                problems.append(f"calls the allocator {name}")
            elif name not in MATH:
                problems.append(f"calls {name}, neither a <math.h> function nor memcpy/memmove/memset/memcmp")
        elif kind in "BbDdCGgSs":
            problems.append(f"writable data: {name} ({kind})")
    return problems


def check_recursion(d, prefix, work):
    rc, out = run(["gcc", "-std=c99", "-O0", "-fcallgraph-info", "-c", prefix + ".c", "-o", os.path.join(work, "cg.o")], d)
    ci = os.path.join(work, "cg.ci")
    if rc != 0 or not os.path.exists(ci):
        return ["gcc -fcallgraph-info wrote no call graph"]
    edges = collections.defaultdict(set)
    for m in re.finditer(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"', open(ci).read()):
        edges[m.group(1)].add(m.group(2))
    state, cycles = {}, []

    def visit(v, path):
        state[v] = 1
        for w in edges.get(v, ()):
            if state.get(w) == 1:
                cycles.append(" -> ".join(path + [v, w]))
            elif w not in state:
                visit(w, path + [v])
        state[v] = 2

    for v in list(edges):
        if v not in state:
            visit(v, [])
    return [f"recursion: {c}" for c in cycles]


def check_loops(d, prefix):
    problems = []
    for no, line in enumerate(open(os.path.join(d, prefix + ".c")), 1):
        text = line.strip()
        if re.search(r"\b(while|goto)\b|\bdo\s*\{", text):
            problems.append(f"line {no}: {text}")
        if re.search(r"\bfor\s*\(", text) and not FOR.search(text):
            problems.append(f"line {no}: loop bound not a literal: {text}")
    return problems


def check_misra(d, prefix):
    if not shutil.which("cppcheck"):
        return ["cppcheck not found"], {}
    files = [prefix + ".c"]
    rc, out = run(["cppcheck", "--addon=misra", "--enable=style,warning,portability", "--std=c99", "--quiet",
                   "--template={file}:{line}:{severity}:{id}:{message}"] + files, d)
    problems, rules = [], collections.Counter()
    for line in out.splitlines():
        parts = line.split(":", 4)
        if len(parts) < 5:
            continue
        severity, ident = parts[2], parts[3]
        if severity == "error":
            problems.append(line)
        elif ident.startswith("misra-c2012-"):
            rules[ident[len("misra-c2012-"):]] += 1
    return problems, dict(sorted(rules.items(), key=lambda kv: [int(x) for x in kv[0].split(".")]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--name", default="model")
    ap.add_argument("--report")
    ap.add_argument("--no-misra", action="store_true")
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.dir, a.name + ".c")):
        print(f"emit-c-check: no {a.name}.c in {a.dir}", file=sys.stderr)
        return 2
    report = {"dir": a.dir, "name": a.name, "properties": {}}
    with tempfile.TemporaryDirectory() as work:
        props = {"compile": check_compile(a.dir, a.name, work), "symbols": check_symbols(a.dir, a.name, work),
                 "recursion": check_recursion(a.dir, a.name, work), "loops": check_loops(a.dir, a.name)}
        if not a.no_misra:
            props["misra"], report["misra_findings_by_rule"] = check_misra(a.dir, a.name)
    ok = True
    for name, problems in props.items():
        report["properties"][name] = problems
        ok = ok and not problems
        print(f"{name}: {'ok' if not problems else 'FAILED'}")
        for p in problems[:20]:
            print(f"  {p}")
    if "misra_findings_by_rule" in report:
        print("misra findings by rule: " + (", ".join(f"{r}: {n}" for r, n in report["misra_findings_by_rule"].items()) or "none"))
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
