"""sonnx: check, run, admit and conformance-test ONNX models under the SONNX graph semantics.

A model is given as a path (str or os.PathLike), the bytes of a serialized ModelProto, an
``onnx.ModelProto``, or a ``sonnx.Model`` from :func:`load`. Values are numpy arrays (every numeric
dtype, float16 and bool included; strings as str arrays); a sequence is a list of arrays, an empty
optional None, a map (ai.onnx.ml's map(K, V)) a dict, whose keys and values take the types the model
declares. :mod:`sonnx.backend` is onnx's backend interface (onnx.backend.base) over Session.

    import numpy as np, sonnx
    findings = sonnx.check("model.onnx", profile="sonnx")       # [] when the model is accepted
    outputs = sonnx.run("model.onnx", {"x": np.ones((1, 3), np.float32)})
    session = sonnx.Session("model.onnx", executor="linear")    # compile once, run many times
    report = sonnx.conform(["suite/node"])                        # the report as a dict
    a = sonnx.admit("model.onnx", dims={"N": 1})                # into the sonnx profile
    if a.admitted and not a.unchanged:
        a.save("model.sonnx.onnx")

Errors are exceptions derived from :class:`sonnx.Error`: :class:`LoadError` (unreadable model or
input, bad argument), :class:`CheckFailed` (the validator refused the model; ``.diagnostics``),
:class:`Unsupported` (an operator version this build does not run), :class:`Trap` (the
execution is undefined: wrong input type or shape, index out of range), :class:`Undetermined`
(enclosures that leave an integer or a shape open) and :class:`InternalError` (a bug in sonnx).
"""

import json as _json
import os as _os

from . import _sonnx
from ._sonnx import (  # noqa: F401  (re-exported)
    Admission,
    CheckFailed,
    Diagnostic,
    Error,
    InternalError,
    LoadError,
    Model,
    Trap,
    Undetermined,
    Unsupported,
)

__version__ = _sonnx.__version__
__all__ = ["load", "check", "run", "Session", "conform", "enclose", "executors", "admit", "admit_suggestion",
           "Model", "Diagnostic", "Admission", "Error", "LoadError", "CheckFailed", "Unsupported", "Trap",
           "Undetermined", "InternalError"]


def load(model):
    """Load a model: a path, bytes of a serialized ModelProto, an onnx.ModelProto, or a sonnx.Model
    (returned as is). Raises LoadError when it cannot be read."""
    if isinstance(model, Model):
        return model
    if isinstance(model, (bytes, bytearray, memoryview)):
        return _sonnx.load_bytes(bytes(model))
    if isinstance(model, (str, _os.PathLike)):
        return _sonnx.load_file(_os.fspath(model))
    if hasattr(model, "SerializeToString"):  # onnx.ModelProto, without importing onnx
        return _sonnx.load_bytes(model.SerializeToString(), "onnx.ModelProto")
    raise LoadError("expected a path, bytes, an onnx.ModelProto or a sonnx.Model, not %s" % type(model).__name__)


def check(model, profile="onnx"):
    """Validate a model against the graph rules and a profile ("onnx", "sonnx" or a profile JSON
    file). Returns every finding as a list of Diagnostic (rule, severity, node, op_type, value,
    graph, message); an empty list, or one without errors, means the model is accepted."""
    return _sonnx.check(load(model), profile)


class Session:
    """A model checked and compiled once for an executor ("reference", "linear", "dataflow" or
    "parallel"), then run any number of times, from several threads at once.

    Session(model, executor="reference", threads=1, check=True, profile="onnx", seed=0,
            devices=(), plugins=(), assign="first")
    raises CheckFailed when check is on and the validator reports an error. devices compiles for
    exactly that device set instead of the executor (names `sonnx devices` lists, or plugin
    paths; plugins adds devices; assign is "first" or "profile"): without "cpu" in the set, a
    node no device runs raises Unsupported naming it."""

    def __init__(self, model, executor="reference", threads=1, check=True, profile="onnx", seed=0,
                 devices=(), plugins=(), assign="first"):
        self._model = load(model)
        self._session = _sonnx.Session(self._model, executor, threads, check, profile, seed, list(devices),
                                       [str(p) for p in plugins], assign)

    @property
    def inputs(self):
        """[(name, type)] of the inputs a run must give."""
        return self._model.inputs

    @property
    def outputs(self):
        """[(name, type)] of the model's outputs."""
        return self._model.outputs

    @property
    def executor(self):
        return self._session.executor

    def run(self, inputs):
        """Run on {name: ndarray}; returns {name: ndarray} for every graph output. Raises Trap for
        an unknown input name, a wrong dtype or shape, or an undefined execution."""
        return self._session.run(dict(inputs), self._model)


def run(model, inputs, executor="reference", threads=1, check=True):
    """Check (unless check=False), compile and run a model once: {name: ndarray} in, {name:
    ndarray} out. For repeated runs make a Session."""
    return Session(model, executor=executor, threads=threads, check=check).run(inputs)


def enclose(model, inputs, semantics="real", check=True):
    """Guaranteed enclosures of every output: {name: (lower, upper)} as float64 arrays rounded
    outward (NaN where an element has no real value); integer and bool outputs are exact, given
    twice. semantics "real" encloses the result in exact real arithmetic, "admissible" every result
    an implementation meeting each operator's accuracy allowance may give (spec/accuracy.md)."""
    return _sonnx.enclosures(load(model), dict(inputs), semantics, check)


def conform(dirs, executor="reference", threads=2, filter="", judge="tolerance", isolate=True, timeout=120.0,
            check=True, progress=False):
    """Run ONNX backend-test directories (model.onnx + test_data_set_N, or folders of them) and
    compare with their expected outputs. Returns the report as a dict: {"summary": {"total",
    "passed", "failed", "errored", "skipped"}, "tests": [{"name", "status", ...}], ...}, as
    `sonnx conform --format json` prints it."""
    if isinstance(dirs, (str, _os.PathLike)):
        dirs = [dirs]
    text = _sonnx.conform([_os.fspath(d) for d in dirs], executor, threads, filter, judge, isolate, timeout, check, progress)
    return _json.loads(text)


def admit(model, profile="sonnx", dims={}, input_shapes={}, fixed={}, inputs={}, samples=3, seed=1, expose_unused=False):
    """Bring a model into a profile ("sonnx" or a profile JSON file) by rewrites that keep its
    meaning, as `sonnx admit` does (spec/admission.md): the version upgrade, fixed inputs, folded
    constants, removed copies and dead nodes, defaults written out, types declared; then the
    profile check of the result and runs of both models on the same inputs.

    dims fixes symbolic dimensions ({"N": 1}), input_shapes whole input shapes ({"x": (1, 3, 224,
    224)}), fixed gives inputs that always have one value ({name: ndarray}: they become
    constants), inputs adds input sets to compare on besides the `samples` seeded random ones.
    expose_unused makes a node output no node reads, and that cannot be dropped, a graph output.

    Returns an Admission: admitted, unchanged, opset_from, opset_to, errors_before, errors_after,
    rewrites ({rewrite: changes}), runs, runs_equal, reasons (why not admitted), seconds,
    model_bytes (the admitted ModelProto), report_json, report_markdown and save(path). A model
    already in the profile is admitted unchanged: it is its own admitted form, model_bytes is
    empty and save raises ValueError (as it does when the model is not admitted). Raises
    LoadError for an unknown profile or a fix that does not apply to the model, CheckFailed when
    the model is not a valid ONNX model."""
    dims = {str(k): int(v) for k, v in dict(dims).items()}
    input_shapes = {str(k): [int(d) for d in v] for k, v in dict(input_shapes).items()}
    return _sonnx.admit(load(model), profile, dims, input_shapes, dict(fixed), dict(inputs), samples, seed, expose_unused)


def admit_suggestion(model, diagnostics=None, profile="sonnx"):
    """When every error of check(model, profile) is of a kind admit removes, the `sonnx admit`
    command that removes them, else "". diagnostics defaults to check(model, profile)."""
    model = load(model)
    if diagnostics is None:
        diagnostics = _sonnx.check(model, profile)
    return _sonnx.admit_suggestion(model, list(diagnostics), profile)


def executors():
    """The executor names: reference, linear, dataflow, parallel."""
    return _sonnx.executors()
