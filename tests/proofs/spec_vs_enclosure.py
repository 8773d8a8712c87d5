#!/usr/bin/python3
"""The Why3 real-number operator specifications are what `sonnx enclose` encloses.

For Add, Mul (both with broadcasting), MatMul, Gemm, Conv (1-D, with padding
and a stride) and ReduceSum, on small random dyadic inputs (multiples of 1/8,
fixed seed: every intermediate value is exactly representable):

1. write a one-node ONNX model and its inputs, run
   `sonnx enclose MODEL --input ... --semantics real -o DIR` and read y.
   Add and Mul are enclosed by a point (lower == upper, checked), and so is a
   sum of products whose double-double sum rounds nothing
   (enclose/double_double.h: Conv, MatMul, Gemm with alpha = beta =
   1).  Where an enclosure is not a point (a midpoint-radius sum with an a
   priori bound on its rounding error, enclose/dot.h: ReduceSum,
   Gemm with other alpha or beta) y is the one dyadic rational m / 2^k with
   the smallest k inside [lower, upper] (k <= 24 checked; the intervals are a
   few ulps wide), i.e. the exact value the enclosure pins down;
2. generate a Why3 module (spec_vs_enclosure/check.mlw.in) that `use`s the
   operator's theory from spec/ops/, declares the inputs and y as constants of
   the theory's tensor type (axioms for the shape and every element), and
   states as its goal the theory's predicate for the operator, e.g.
       goal gemm_matches_enclosure: gemm a b c true 0.5 2.0 false true y
   preceded by lemmas the SMT solvers need as stepping stones (enumerations
   of the valid indices of a concrete shape, witnesses of the predicate's
   existentials, the predicate's right-hand side evaluated at each output
   index); none of them mentions y's elements;
3. prove the module with proofs/prove.sh (every obligation Valid); then prove
   the goal alone (the lemmas as axioms) about y -- it must be proved -- and
   about y with one element moved by +1/8 -- prove.sh must fail (exit status
   1, the goal not Valid), with the same provers and budget.

Usage:
  spec_vs_enclosure.py --sonnx build/cli/sonnx [--why3 /usr/bin/why3]
                       [--workdir DIR] [--seed N] [--jobs N] [--only Add,Conv...]

Exit status 0 when every operator's goal is proved and every altered goal is
refused; 1 otherwise.  The generated .mlw files stay in --workdir (a temporary
directory, removed at the end, when --workdir is not given).
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TEMPLATE = os.path.join(HERE, "spec_vs_enclosure", "check.mlw.in")

# Prover ladders (prove.sh's PROVE_LADDER).  Once the context is pruned (see
# spec_vs_enclosure/check.mlw.in) cvc4 proves every obligation; z3 is a cheap
# second opinion.  LADDER proves the whole module (lemmas and goal).  The goal
# alone (the lemmas taken as axioms) is then checked with GOAL_LADDER twice:
# about the enclosure's y it must be proved, about the altered y it must not
# be -- the same goal, the same provers and budget, one number changed.
LADDER = "cvc4:20:300000 z3:20:500000"
GOAL_LADDER = "cvc4:20:200000 z3:10:500000"
# concrete.mlw (the index helpers) is proved the way the spec theories are, z3 first.
HELPER_LADDER = "z3:30:2000000 cvc4:30:1000000"

STEP = 0.125  # the grid of the random inputs, and the alteration of y


# ---------------------------------------------------------------------------
# Why3 text


def real_literal(v):
    """Exact decimal literal of a double (dyadic rationals have one)."""
    s = format(Decimal(float(v)), "f")
    if "." not in s:
        s += ".0"
    if s.startswith("-"):
        return "(" + s + ")"
    return s


def dims_term(dims):
    """A list of integers as a term of type ops.Shape.dims."""
    dims = [int(d) for d in dims]
    if not dims:
        return "DNil"
    if len(dims) <= 4:
        return "(ix%d %s)" % (len(dims), " ".join(str(d) if d >= 0 else "(%d)" % d for d in dims))
    t = "DNil"
    for d in reversed(dims):
        t = "(DCons %s %s)" % (str(d) if d >= 0 else "(%d)" % d, t)
    return t


def tensor_decl(name, arr):
    """A constant of type tensor with its shape and every element as axioms."""
    lines = ["  constant %s : tensor" % name,
             "  axiom %s_shape: %s.shape = %s" % (name, name, dims_term(arr.shape))]
    for idx in np.ndindex(*arr.shape):
        tag = "_".join(str(i) for i in idx) if idx else "scalar"
        lines.append("  axiom %s_%s: %s.elt %s = %s"
                     % (name, tag, name, dims_term(idx), real_literal(arr[idx])))
    return "\n".join(lines)


# --- the spec theories: modules, what they use, their theorems --------------

# Theorems of Why3's standard library in every context: ordered-ring and
# field lemmas, quantified and nonlinear.  The solvers have this arithmetic
# built in; the quantified forms only distract them.  (The lemmas of int.MinMax,
# int.Abs and int.EuclideanDivision, also in some contexts, do no harm: taking
# them out made no difference.)  theory -> (alias, [(kind, name)]).
STDLIB_THEOREMS = {
    "int.Int": ("I", [("lemma", "CompatOrderMult")]),
    "real.Real": ("R", [("lemma", n) for n in (
        "CompatOrderMult", "add_div", "sub_div", "neg_div", "assoc_mul_div", "assoc_div_mul",
        "assoc_div_div")]),
}


class SpecIndex:
    """Modules of spec/ops/*.mlw: their file, the spec modules they use, and
    their theorems (lemmas, and `let lemma`s, which Why3 keeps as axioms)."""

    def __init__(self, spec_ops):
        self.file = {}      # module -> file stem
        self.uses = {}      # module -> [module]
        self.theorems = {}  # module -> [(kind, name)]
        clones = []
        for fn in sorted(os.listdir(spec_ops)):
            if not fn.endswith(".mlw"):
                continue
            stem = fn[:-4]
            mod = None
            for line in open(os.path.join(spec_ops, fn), encoding="utf-8"):
                m = re.match(r"\s*(?:module|theory)\s+([A-Z]\w*)", line)
                if m:
                    mod = m.group(1)
                    self.file[mod] = stem
                    self.uses[mod] = []
                    self.theorems[mod] = []
                    continue
                if mod is None:
                    continue
                m = re.match(r"\s*use\s+(?:export\s+)?(?:(\w+)\.)?([A-Z]\w*)", line)
                if m and m.group(1) not in ("int", "real", "bool", "list", "map", "set", "option"):
                    self.uses[mod].append(m.group(2))
                    continue
                m = re.match(r"\s*clone\s+(?:export\s+)?(?:(\w+)\.)?([A-Z]\w*)", line)
                if m:
                    clones.append((mod, m.group(2)))
                    continue
                m = re.match(r"\s*(let\s+rec\s+lemma|let\s+lemma|with\s+lemma|lemma)\s+(\w+)", line)
                if m:
                    kind = "lemma" if m.group(1) == "lemma" else "axiom"
                    self.theorems[mod].append((kind, m.group(2)))
        # a cloned module's theorems become axioms of the cloning module
        for mod, src in clones:
            for _, name in self.theorems.get(src, []):
                self.theorems[mod].append(("axiom", name))

    def closure(self, mods):
        seen, todo = [], list(mods)
        while todo:
            m = todo.pop()
            if m in seen or m not in self.file:
                continue
            seen.append(m)
            todo.extend(self.uses[m])
        return seen


def why3_typecheck(why3, loadpath, path):
    cmd = [why3, "prove"]
    for d in loadpath:
        cmd += ["-L", d]
    cmd += ["--type-only", path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def render(case, modules, stdlib, index, tensors, enclosure, metas, items):
    """The Why3 module: the tensors, the `metas` (kind, name), then `items`
    (lemmas, metas and the goal, as text) in order."""
    uses = ["  use %s as %s" % (t, STDLIB_THEOREMS[t][0]) for t in stdlib]
    uses += ["  use %s.%s" % (index.file[m], m) for m in modules]
    uses += ["  use %s" % u for u in case.get("extra_uses", [])]
    text = open(TEMPLATE, encoding="utf-8").read()
    for key, val in (("@CASE@", case["name"]), ("@DESCRIPTION@", case["desc"]),
                     ("@SPEC@", case["spec"]), ("@ENCLOSURE@", enclosure),
                     ("@MODULE@", "Check" + re.sub(r"\W", "", case["name"])),
                     ("@USES@", "\n".join(uses)),
                     ("@METAS@", "\n".join('  meta "remove_prop" %s %s' % km for km in metas)),
                     ("@TENSORS@", "\n\n".join(tensor_decl(n, a) for n, a in tensors)),
                     ("@GOALS@", "\n".join(items))):
        text = text.replace(key, val)
    return text


def index_lemma(shape):
    """The valid indices of a concrete shape, enumerated (proved from the
    helpers of concrete.mlw): (name, statement)."""
    shape = tuple(int(n) for n in shape)
    name = "indices_" + ("_".join(str(n) for n in shape) if shape else "scalar")
    alts = " \\/\n      ".join("i = %s" % dims_term(ix) for ix in np.ndindex(*shape))
    return name, "forall i. valid_index %s i ->\n      %s" % (dims_term(shape), alts)


def settle_metas(why3, loadpath, path, make_text, metas):
    """Write make_text(metas) to path; where Why3 says a removed proposition is
    a lemma rather than an axiom (or the converse), flip it and retry."""
    metas = [list(m) for m in metas]
    for _ in range(len(metas) + 1):
        with open(path, "w", encoding="utf-8") as f:
            f.write(make_text([tuple(m) for m in metas]))
        rc, out = why3_typecheck(why3, loadpath, path)
        if rc == 0:
            return [tuple(m) for m in metas]
        m = re.search(r"proposition (\S+) is not an? (lemma|axiom)", out)
        if not m:
            raise RuntimeError("%s does not type-check:\n%s" % (path, out))
        bad = m.group(1)
        for meta in metas:
            if meta[1] == bad or meta[1].endswith("." + bad):
                meta[0] = "axiom" if m.group(2) == "lemma" else "lemma"
                break
        else:
            raise RuntimeError("%s: cannot place %s:\n%s" % (path, bad, out))
    raise RuntimeError("%s: metas do not settle" % path)


# ---------------------------------------------------------------------------
# The operator cases


def dyadic(rng, shape, lo=-4.0, hi=4.0):
    k = rng.integers(int(lo / STEP), int(hi / STEP), size=shape)
    return (k * STEP).astype(np.float32)


# The helpers of concrete.mlw (module Indices) and the kind Why3 gives them.
HELPERS = [("axiom", "valid_nil_iff"), ("axiom", "valid_cons_iff"),
           ("lemma", "valid_ix1_iff"), ("lemma", "valid_ix2_iff"),
           ("lemma", "valid_ix3_iff"), ("lemma", "valid_ix4_iff")]


def bidx_py(shape, ix):
    """ops.Index.bidx: the index into an operand of `shape` (right-aligned,
    dimensions of size 1 read at 0) of the element used at output index ix."""
    ix = ix[len(ix) - len(shape):]
    return tuple(0 if n == 1 else i for n, i in zip(shape, ix))


def elementwise_value(fn, a_shape, b_shape):
    """Right-hand side of ops.Elementwise.elementwise at an output index, and
    the broadcast index map evaluated."""
    def value(ix):
        i = dims_term(ix)
        return ("%s (a.elt (bidx a.shape %s)) (b.elt (bidx b.shape %s))" % (fn, i, i),
                ["bidx a.shape %s = %s" % (i, dims_term(bidx_py(a_shape, ix))),
                 "bidx b.shape %s = %s" % (i, dims_term(bidx_py(b_shape, ix)))])
    return value


def conv1d_value(x_shape, w_shape, stride, pad_b, pad_e):
    """Right-hand side of conv.ConvNd.conv (one spatial axis, group 1,
    dilation 1, with bias) at an output index, and its evaluation step by
    step: the sum over the input channels, the kernel sum, each term (the
    input read as 0 in the padding)."""
    _, c, h = x_shape
    m, cg, k = w_shape
    axes = "(ACons %d %d 1 %d %d %d ANil)" % (h, k, stride, pad_b, pad_e)

    def value(ix):
        n, o, q = ix
        sp = "(DCons %d DNil)" % q
        chan = "(cchan x w NotSet %s %d %d (E.div %d (E.div %d 1)) %d %s)" % (axes, n, o, o, m, cg, sp)
        g = o // m  # the group of output channel o (group = 1)
        hints = ["rsum %s 0 %d = %s" % (chan, cg, " +. ".join("%s %d" % (chan, ci) for ci in range(cg)))]
        for ci in range(cg):
            xc = g * cg + ci
            term = "(cterm x w NotSet %s %d %d %d %d %s)" % (axes, n, xc, o, ci, sp)
            hints.append("%s %d = ksum (ks %s) %s" % (chan, ci, axes, term))
            hints.append("ksum (ks %s) %s = %s" % (axes, term, " +. ".join(
                "%s (DCons %d DNil)" % (term, u) for u in range(k))))
            for u in range(k):
                pos = q * stride + u - pad_b
                xhat = "xhat x (DCons %d (DCons %d (wpos NotSet %s %s (DCons %d DNil))))" % (n, xc, axes, sp, u)
                hints.append("%s (DCons %d DNil) = %s *. w.elt (ix3 %d %d %d)" % (term, u, xhat, o, ci, u))
                hints.append("wpos NotSet %s %s (DCons %d DNil) = DCons %s DNil"
                             % (axes, sp, u, pos if pos >= 0 else "(%d)" % pos))
        return "(if true then bias.elt (ix1 %d) else 0.0) +. rsum %s 0 %d" % (o, chan, cg), hints

    # X read with zero padding, at every position a window reads
    out = (h + pad_b + pad_e - k) // stride + 1
    positions = sorted({q * stride + u - pad_b for q in range(out) for u in range(k)})
    xhat = []
    for n in range(x_shape[0]):
        for xc in range(c):
            for pos in positions:
                at = "(ix3 %d %d %s)" % (n, xc, pos if pos >= 0 else "(%d)" % pos)
                xhat.append(("xhat_%d_%d_%s" % (n, xc, pos if pos >= 0 else "m%d" % -pos),
                             "xhat x %s = %s" % (at, "x.elt " + at if 0 <= pos < h else "0.0")))
    return value, axes, xhat


def reduce_sum_value(x_shape, axes):
    """Right-hand side of reduce.Reduce.reduce_sum (keepdims 0) at an output
    index, and its evaluation: the mask of the reduced axes, the shape of the
    reduced sub-tensor, the sum over it, each element read."""
    r = len(x_shape)
    reduced = [p in [(a + r) % r for a in axes] for p in range(r)]
    mask = "MNil"
    for b in reversed(reduced):
        mask = "(MCons %s %s)" % ("true" if b else "false", mask)
    rshape = tuple(n for n, b in zip(x_shape, reduced) if b)
    oshape = tuple(n for n, b in zip(x_shape, reduced) if not b)
    ax = dims_term(axes)

    def merge(o, u):
        o, u = list(o), list(u)
        return tuple(u.pop(0) if b else o.pop(0) for b in reduced)

    def value(ix):
        o = dims_term(ix)
        rterm = "(rterm x %s false %s)" % (mask, o)
        us = list(np.ndindex(*rshape))
        hints = ["reduce_mask %s false x.shape = %s" % (ax, mask),
                 "rdims %s x.shape = %s" % (mask, dims_term(rshape)),
                 "ksum %s %s = %s" % (dims_term(rshape), rterm,
                                      " +. ".join("%s %s" % (rterm, dims_term(u)) for u in us))]
        hints += ["%s %s = x.elt %s" % (rterm, dims_term(u), dims_term(merge(ix, u))) for u in us]
        return "rsum_at x %s false false %s" % (ax, o), hints
    facts = [("reduce_shape", "reduce_mask %s false x.shape = %s /\\\n    odims %s false x.shape = %s"
              % (ax, mask, mask, dims_term(oshape)))]
    return value, facts


def case_list(rng):
    """Each case: the ONNX node, its float inputs (graph inputs) and constant
    inputs (initializers), the output shape, the Why3 modules, the
    specification's predicate as a function of the output tensor's name, the
    shapes whose valid indices the goal enumerates, ground facts (the
    witnesses of the predicate's existentials, Conv's zero padding), and the
    evaluation of the predicate's right-hand side at each output index
    (lemmas `value_...`); `cost` orders the checks, longest first."""
    cases = []

    a, b = dyadic(rng, (2, 3)), dyadic(rng, (3,))
    cases.append(dict(
        name="Add", cost=3, desc="Add with broadcasting, (2,3) + (3)",
        node=helper.make_node("Add", ["a", "b"], ["y"]),
        inputs=[("a", a), ("b", b)], inits=[], out=(2, 3),
        spec="spec/ops/ops.mlw, module Tensor, predicate add", modules=["Tensor"],
        pred=lambda y: "add a b %s" % y, index_shapes=[(2, 3)],
        value=elementwise_value("plus", a.shape, b.shape)))

    a, b = dyadic(rng, (2, 3)), dyadic(rng, (2, 1))
    cases.append(dict(
        name="Mul", cost=3, desc="Mul with broadcasting, (2,3) * (2,1)",
        node=helper.make_node("Mul", ["a", "b"], ["y"]),
        inputs=[("a", a), ("b", b)], inits=[], out=(2, 3),
        spec="spec/ops/ops.mlw, module Tensor, predicate mul", modules=["Tensor"],
        pred=lambda y: "mul a b %s" % y, index_shapes=[(2, 3)],
        value=elementwise_value("times", a.shape, b.shape)))

    a, b = dyadic(rng, (2, 3)), dyadic(rng, (3, 2))
    cases.append(dict(
        name="MatMul", cost=1, desc="MatMul, (2,3) x (3,2)",
        node=helper.make_node("MatMul", ["a", "b"], ["y"]),
        inputs=[("a", a), ("b", b)], inits=[], out=(2, 2),
        spec="spec/ops/ops.mlw, module MatMul, predicate matmul", modules=["MatMul"],
        pred=lambda y: "matmul a b %s" % y, index_shapes=[()],
        # the witnesses of the predicate's existential (no batch dimensions),
        # as ground terms the provers can instantiate it with
        facts=[("matmul_shapes", "a.shape = app DNil (ix2 2 3) /\\ b.shape = app DNil (ix2 3 2) /\\\n"
                "    y.shape = app DNil (ix2 2 2) /\\ bcast DNil DNil DNil")]))

    a, b, c = dyadic(rng, (2, 3)), dyadic(rng, (2, 3)), dyadic(rng, (2,))
    cases.append(dict(
        name="Gemm", cost=2, desc="Gemm, alpha = 0.5, beta = 2, transB = 1, C of shape (2) broadcast",
        node=helper.make_node("Gemm", ["a", "b", "c"], ["y"], alpha=0.5, beta=2.0, transB=1),
        inputs=[("a", a), ("b", b), ("c", c)], inits=[], out=(2, 2),
        spec="spec/ops/ops.mlw, module Gemm, predicate gemm", modules=["Gemm"],
        pred=lambda y: "gemm a b c true 0.5 2.0 false true %s" % y, index_shapes=[]))

    x, w, bias = dyadic(rng, (1, 2, 4)), dyadic(rng, (1, 2, 3)), dyadic(rng, (1,))
    value, axes, xhat = conv1d_value(x.shape, w.shape, 2, 1, 1)
    cases.append(dict(
        name="Conv", cost=10, desc="Conv 1-D, X (1,2,4), W (1,2,3), B (1), strides 2, pads 1 1",
        node=helper.make_node("Conv", ["x", "w", "bias"], ["y"], strides=[2], pads=[1, 1]),
        inputs=[("x", x), ("w", w), ("bias", bias)], inits=[], out=(1, 1, 2),
        spec="spec/ops/conv.mlw, module ConvNd, predicate conv", modules=["ConvNd"],
        extra_uses=["int.EuclideanDivision as E"],
        pred=lambda y: "conv x w bias true 1 NotSet (ix1 3) (ix1 2) (ix1 1) (ix1 1) (ix1 1) %s" % y,
        index_shapes=[(1, 1, 2)],
        # the witness of the predicate's existential over the spatial axes
        # (input 4, kernel 3, dilation 1, stride 2, pads 1 and 1)
        facts=[("conv_axes", "let l = %s in\n"
                "    ks l = ix1 3 /\\ ss l = ix1 2 /\\ ds l = ix1 1 /\\ pbs l = ix1 1 /\\ pes l = ix1 1 /\\\n"
                "    hs l = ix1 4 /\\ all_ok NotSet l /\\ outs NotSet false l = ix1 2" % axes)] + xhat,
        value=value))

    x = dyadic(rng, (2, 3, 2))
    axes = np.array([0, -1], dtype=np.int64)
    value, facts = reduce_sum_value(x.shape, [int(a) for a in axes])
    cases.append(dict(
        name="ReduceSum", cost=4, desc="ReduceSum over axes [0, -1] of (2,3,2), keepdims = 0",
        node=helper.make_node("ReduceSum", ["x", "axes"], ["y"], keepdims=0),
        inputs=[("x", x)], inits=[("axes", axes)], out=(3,),
        spec="spec/ops/reduce.mlw, module Reduce, predicate reduce_sum", modules=["Reduce"],
        pred=lambda y: "reduce_sum x %s false false %s" % (dims_term(axes), y),
        index_shapes=[(3,)], facts=facts, value=value))
    return cases


ONNX_FLOAT = TensorProto.FLOAT


def write_model(case, path):
    ins = [helper.make_tensor_value_info(n, ONNX_FLOAT, list(a.shape)) for n, a in case["inputs"]]
    inits = [numpy_helper.from_array(a, name=n) for n, a in case["inits"]]
    out = helper.make_tensor_value_info("y", ONNX_FLOAT, list(case["out"]))
    graph = helper.make_graph([case["node"]], case["name"].lower(), ins, [out], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, path)


# ---------------------------------------------------------------------------
# Running sonnx and prove.sh


def enclose(sonnx, case, work):
    d = os.path.join(work, case["name"])
    os.makedirs(d, exist_ok=True)
    model = os.path.join(d, "model.onnx")
    write_model(case, model)
    cmd = [sonnx, "enclose", model, "--semantics", "real", "-o", os.path.join(d, "enclosure")]
    for n, a in case["inputs"]:
        p = os.path.join(d, n + ".npy")
        np.save(p, a)
        cmd += ["--input", "%s=%s" % (n, p)]
    for _ in range(20):  # the binary may be momentarily missing while it is relinked
        if os.access(sonnx, os.X_OK):
            break
        time.sleep(3)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    lo = np.load(os.path.join(d, "enclosure", "y.lower.npy"))
    hi = np.load(os.path.join(d, "enclosure", "y.upper.npy"))
    for arr in (lo, hi):
        if arr.shape != tuple(case["out"]) or arr.dtype != np.float64 or not np.all(np.isfinite(arr)):
            raise RuntimeError("enclosure bounds %s %s, expected finite float64 %s"
                               % (arr.dtype, arr.shape, case["out"]))
    if not np.all(lo <= hi):
        raise RuntimeError("enclosure with lower > upper:\n%s\n%s" % (lo, hi))
    return d, lo, hi


def grid_point(lo, hi, max_k=24):
    """The dyadic rational m / 2^k with the smallest k in [lo, hi]; None when
    none has k <= max_k.  A point enclosure is its own grid point."""
    for k in range(max_k + 1):
        s = 2.0 ** k
        m = math.ceil(lo * s)
        if m / s <= hi:
            return m / s
    return None


def prove(prove_sh, why3, loadpath, path, ladder):
    cmd = ["sh", prove_sh]
    for d in loadpath:
        cmd += ["-L", d]
    cmd.append(path)
    env = dict(os.environ, WHY3=why3, PROVE_LADDER=ladder, PROVE_VERBOSE="1")
    env.pop("PROVE_RESULTS", None)
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    out = r.stdout + r.stderr
    m = re.search(r"(\d+) obligations, (\d+) Valid, (\d+) not Valid", out)
    counts = tuple(int(g) for g in m.groups()) if m else None
    return r.returncode, counts, out


class Log:
    lock = threading.Lock()

    @classmethod
    def block(cls, lines):
        with cls.lock:
            print("\n".join(lines), flush=True)


def fmt(arr):
    return " ".join(np.array2string(arr, separator=", ", max_line_width=10000,
                                    formatter={"float_kind": lambda v: repr(float(v))}).split())


def run_case(case, args, index, loadpath):
    t0 = time.time()
    lines = ["== %s: %s" % (case["name"], case["desc"])]
    ok = True
    d, lo, hi = enclose(args.sonnx, case, args.workdir)
    point = np.array_equal(lo, hi)
    if point:
        y = lo.copy()
        enclosure = "a point (lower = upper)"
        lines.append("  enclosure point y%s = %s" % (list(y.shape), fmt(y)))
    else:
        # a sum enclosed with an a priori bound on its rounding error (not a
        # point): read the exact value as the one coarse dyadic rational inside
        y = np.vectorize(lambda l, h: grid_point(l, h) if grid_point(l, h) is not None else np.nan)(lo, hi)
        width = float(np.max(hi - lo))
        enclosure = "an interval of width <= %r around each element" % width
        if not np.all(np.isfinite(y)):
            raise RuntimeError("no dyadic rational of the data's grid inside the enclosure:\n%s\n%s"
                               % (lo, hi))
        lines.append("  enclosure not a point (width <= %.3g); the dyadic value inside: y%s = %s"
                     % (width, list(y.shape), fmt(y)))

    modules = index.closure(case["modules"])
    metas = [(k, "%s.%s" % (m, n)) for m in modules for k, n in index.theorems[m]]
    stdlib = list(STDLIB_THEOREMS)
    for t in stdlib:
        alias, names = STDLIB_THEOREMS[t]
        metas += [(k, "%s.%s" % (alias, n)) for k, n in names]
    goal_name = case["name"].lower() + "_matches_enclosure"

    def text_for(yv, proved=False):
        """The module stating the goal about yv.  With `proved`, the lemmas
        (which do not mention y) are axioms: they were proved in the module
        about the enclosure's y, and only the goal remains to check."""
        def lemma(name, stmt, hints=()):
            if proved:
                return "  axiom %s:\n    %s\n" % (name, stmt)
            text = "  lemma %s:\n    %s" % (name, stmt)
            if hints:
                text += "\n    by " + " /\\\n       ".join(hints)
            return text + "\n"

        def make(ms):
            tensors = [(n, a.astype(np.float64)) for n, a in case["inputs"]] + [("y", yv)]
            items = [lemma(*index_lemma(sh)) for sh in case["index_shapes"]]
            # the helpers served the enumerations above; out of the goal's context
            items += ['  meta "remove_prop" %s Indices.%s' % kn for kn in HELPERS]
            items.append("")
            items += [lemma(n, f) for n, f in case.get("facts", [])]
            if case.get("value"):
                # the specification's right-hand side at every output index,
                # evaluated on the inputs (the values are y's before any
                # alteration: these lemmas do not mention y)
                for ix in np.ndindex(*y.shape):
                    lhs, hints = case["value"](ix)
                    tag = "_".join(str(i) for i in ix) if ix else "scalar"
                    items.append(lemma("value_" + tag, "%s = %s" % (lhs, real_literal(y[ix])), hints))
            items.append("  goal %s:\n    %s" % (goal_name, case["pred"]("y")))
            return render(case, modules, stdlib, index, tensors, enclosure, ms, items)
        return make

    pos = os.path.join(d, "check.mlw")
    metas = settle_metas(args.why3, loadpath, pos, text_for(y), metas)
    rc, counts, out = prove(args.prove, args.why3, loadpath, pos, LADDER)
    if rc == 0 and counts and counts[0] == counts[1] and counts[0] >= 1:
        lines.append("  spec agrees (%d obligations Valid)" % counts[1])
    else:
        ok = False
        lines.append("  FAILED: not proved (prove.sh exit %d)" % rc)
        lines += ["    " + l for l in out.strip().splitlines()]

    if not ok:
        # the goal-alone checks take the lemmas above as axioms: not without their proof
        lines.append("  (the goal alone and the altered goal are not checked: the lemmas are not proved)")
        lines.append("  (%.1f s)  %s" % (time.time() - t0, pos))
        Log.block(lines)
        return False

    # The goal alone, about y and about y with one element moved by +1/8.
    rng = np.random.default_rng(case["seed"])
    idx = tuple(int(rng.integers(0, n)) for n in y.shape)
    y_bad = y.copy()
    y_bad[idx] += STEP
    same = os.path.join(d, "check_goal.mlw")
    neg = os.path.join(d, "check_altered.mlw")
    with open(same, "w", encoding="utf-8") as f:
        f.write(text_for(y, proved=True)(metas))
    with open(neg, "w", encoding="utf-8") as f:
        f.write(text_for(y_bad, proved=True)(metas))
    rc_same, counts_same, out_same = prove(args.prove, args.why3, loadpath, same, GOAL_LADDER)
    rc, counts, out = prove(args.prove, args.why3, loadpath, neg, GOAL_LADDER)
    failed = re.findall(r"^\s*FAIL\s+\w+\.(\w+)\s", out, re.M)
    if rc_same != 0 or counts_same != (1, 1, 0):
        ok = False
        lines.append("  FAILED: the goal alone is not proved with %s (prove.sh exit %d)"
                     % (GOAL_LADDER, rc_same))
        lines += ["    " + l for l in out_same.strip().splitlines()]
    elif rc == 1 and counts == (1, 0, 1) and failed == [goal_name]:
        lines.append("  altered value refuted: y%s = %s instead of %s -> %s not proved "
                     "(proved with the enclosure's value, same provers and budget)"
                     % (list(idx), real_literal(y_bad[idx]), real_literal(y[idx]), goal_name))
    else:
        ok = False
        lines.append("  FAILED: the altered goal was not refused as expected (prove.sh exit %d)" % rc)
        lines += ["    " + l for l in out.strip().splitlines()]
    lines.append("  (%.1f s)  %s" % (time.time() - t0, pos))
    Log.block(lines)
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sonnx", required=True, help="the sonnx executable")
    ap.add_argument("--why3", default=os.environ.get("WHY3", "why3"), help="the why3 executable")
    ap.add_argument("--prove", default=os.path.join(ROOT, "proofs", "prove.sh"),
                    help="proofs/prove.sh")
    ap.add_argument("--spec", default=os.path.join(ROOT, "spec"), help="the spec/ directory")
    ap.add_argument("--workdir", help="keep the models, enclosures and .mlw files here")
    ap.add_argument("--seed", type=int, default=20240611)
    ap.add_argument("--jobs", type=int, default=2, help="operators checked at once")
    ap.add_argument("--only", help="comma-separated operator names")
    args = ap.parse_args()
    args.sonnx = os.path.abspath(args.sonnx)

    tmp = None
    if args.workdir:
        os.makedirs(args.workdir, exist_ok=True)
        args.workdir = os.path.abspath(args.workdir)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="spec_vs_enclosure.")
        args.workdir = tmp.name

    spec_ops = os.path.join(args.spec, "ops")
    loadpath = [args.spec, spec_ops, os.path.dirname(TEMPLATE)]
    index = SpecIndex(spec_ops)
    rng = np.random.default_rng(args.seed)
    cases = case_list(rng)
    for i, c in enumerate(cases):
        c["seed"] = args.seed + 1 + i  # which element of y the altered goal moves
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["name"] in wanted]
    print("seed %d, sonnx %s, why3 %s, %d operators" % (args.seed, args.sonnx, args.why3, len(cases)),
          flush=True)

    t0 = time.time()

    def prove_helpers():
        # the helpers of concrete.mlw the enumeration lemmas use
        path = os.path.join(os.path.dirname(TEMPLATE), "concrete.mlw")
        rc, counts, out = prove(args.prove, args.why3, loadpath, path, HELPER_LADDER)
        if rc != 0:
            Log.block(["== concrete.mlw: FAILED, the helpers are not proved:", out])
            return False
        Log.block(["== concrete.mlw (helpers): %d obligations Valid" % counts[1]])
        return True

    results = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # the longest checks first
        futs = {"concrete.mlw": pool.submit(prove_helpers)}
        for c in sorted(cases, key=lambda c: -c["cost"]):
            futs[c["name"]] = pool.submit(run_case, c, args, index, loadpath)
        for name in ["concrete.mlw"] + [c["name"] for c in cases]:
            try:
                results[name] = futs[name].result()
            except Exception as e:  # noqa: BLE001 - report it as a failure
                Log.block(["== %s: ERROR %s" % (name, e)])
                results[name] = False
    bad = [n for n, ok in results.items() if not ok]
    print("----")
    agree = len([n for n in results if n != "concrete.mlw" and results[n]])
    print("%d operators, %d agree with their specification and refuse an altered value, %.1f s"
          % (len(cases), agree, time.time() - t0))
    if bad:
        print("FAILED: " + ", ".join(bad))
    if tmp:
        tmp.cleanup()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
