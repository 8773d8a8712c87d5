"""sonnx.backend: sonnx as an ONNX backend (onnx.backend.base), so that onnx's backend test runner
and other code written against that interface run models on sonnx.

    import onnx.backend.test, sonnx.backend
    rep = sonnx.backend.prepare(onnx.load("model.onnx"))     # checked and compiled once
    outputs = rep.run([x])                                    # or rep.run({"x": x})
    y, = sonnx.backend.run_node(onnx.helper.make_node("Relu", ["x"], ["y"]), [x])
    globals().update(onnx.backend.test.BackendTest(sonnx.backend, __name__).test_cases)

The device is "CPU" (the only one supported). prepare takes the Session options as keywords
(executor, threads, check, profile, seed, devices, plugins, assign). sonnx's exceptions propagate
as they are: a model that cannot be read raises sonnx.LoadError, one the validator refuses
sonnx.CheckFailed (an operator version this build does not run too, by rule OP-IMPLEMENTED;
sonnx.Unsupported with check=False), a run on inputs that do not fit sonnx.Trap.

Importing this module imports onnx (`import sonnx` alone does not).
"""

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.backend.base import Backend, BackendRep, namedtupledict

from . import LoadError, Session

__all__ = ["SonnxBackend", "SonnxRep", "is_compatible", "prepare", "run_model", "run_node", "supports_device"]

# The keywords of prepare/run_model/run_node that configure the sonnx.Session.
SESSION_OPTIONS = ("executor", "threads", "check", "profile", "seed", "devices", "plugins", "assign")


class SonnxRep(BackendRep):
    """A model prepared for running: a sonnx.Session. run(inputs) takes the inputs as a list or
    tuple in the order of the graph's inputs (initializers excluded; a shorter list leaves the
    remaining inputs out), a dict {name: value}, or a single array for the first input; a value is
    a numpy array, a sequence a list of arrays, an empty optional None (None for an input of
    another type leaves it out). It returns the outputs in graph output order as
    onnx's namedtupledict (by position or by output name)."""

    def __init__(self, session):
        self.session = session
        self.input_names = [name for name, _ in session.inputs]
        self._optional_inputs = {name for name, kind in session.inputs if kind.startswith("optional(")}
        self.output_names = [name for name, _ in session.outputs]
        self._outputs_type = namedtupledict("Outputs", self.output_names)

    def run(self, inputs, **kwargs):
        if kwargs:
            raise TypeError("SonnxRep.run takes no options, got %s" % ", ".join(sorted(kwargs)))
        out = self.session.run(self._feed(inputs))
        return self._outputs_type(*[out[name] for name in self.output_names])

    def _feed(self, inputs):
        if isinstance(inputs, dict):
            named = inputs.items()
        else:
            values = [inputs] if isinstance(inputs, np.ndarray) else list(inputs)
            if len(values) > len(self.input_names):
                raise LoadError("%d inputs given, the model has %d (%s)" %
                                (len(values), len(self.input_names), ", ".join(self.input_names)))
            named = zip(self.input_names, values)
        return {name: value for name, value in named if value is not None or name in self._optional_inputs}


class SonnxBackend(Backend):
    """onnx's Backend interface over sonnx.Session. A subclass may set session_options, the
    Session keywords that prepare uses unless the call gives them (scripts/backend-test.py binds
    the executor so)."""

    session_options = {}

    @classmethod
    def is_compatible(cls, model, device="CPU", **kwargs):
        # Every model is tried: one sonnx cannot run fails in prepare (CheckFailed or Unsupported)
        # instead of being skipped, so that a test runner counts it.
        return cls.supports_device(device)

    @classmethod
    def prepare(cls, model, device="CPU", **kwargs):
        """Load (an onnx.ModelProto, a path or serialized bytes), check and compile the model once;
        returns a SonnxRep."""
        cls._require_device(device)
        return SonnxRep(Session(model, **cls._session_kwargs(kwargs)))

    @classmethod
    def run_model(cls, model, inputs, device="CPU", **kwargs):
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(cls, node, inputs, device="CPU", outputs_info=None, **kwargs):
        """Run one node on inputs (a list matching node.input, or a dict by input name) in a model
        made for it. Input types and shapes are those of the given values; output types are
        outputs_info's [(numpy dtype, shape)] when given, else left to sonnx's inference. The
        opset is kwargs["opset_version"] (default: the installed onnx's newest), other domains'
        versions kwargs["opset_imports"] ({domain: version}) or the ones released with it."""
        model_kwargs = {k: kwargs.pop(k) for k in ("opset_version", "opset_imports") if k in kwargs}
        model = node_model(node, inputs, outputs_info, **model_kwargs)
        return cls.prepare(model, device, **kwargs).run(_node_feed(node, inputs))

    @classmethod
    def supports_device(cls, device):
        return device == "CPU"

    @classmethod
    def _require_device(cls, device):
        if not cls.supports_device(device):
            raise LoadError("device %r: sonnx.backend runs on \"CPU\" only" % (device,))

    @classmethod
    def _session_kwargs(cls, kwargs):
        unknown = sorted(set(kwargs) - set(SESSION_OPTIONS))
        if unknown:
            raise TypeError("unknown option(s) %s; the Session options are %s" %
                            (", ".join(unknown), ", ".join(SESSION_OPTIONS)))
        return {**cls.session_options, **kwargs}


def _node_feed(node, inputs):
    """{input name: value} of the values given for node's named inputs, in node input order; a
    value that is None leaves its input out. inputs is a list (one value per named input, or per
    input slot, "" ones included) or a dict by name."""
    names = [name for name in node.input if name]
    if isinstance(inputs, dict):
        values = [inputs.get(name) for name in names]
    else:
        values = [inputs] if isinstance(inputs, np.ndarray) else list(inputs)
        if len(values) == len(node.input) and len(names) < len(node.input):
            values = [v for name, v in zip(node.input, values) if name]
        if len(values) > len(names):
            raise LoadError("%d inputs given, node %s has %d" % (len(values), node.op_type, len(names)))
    feed = {}
    for name, value in zip(names, values):
        if value is not None:
            feed.setdefault(name, value)
    return feed


def _elem_type(array):
    array = np.asarray(array)
    if array.dtype.kind in "OUS":
        return TensorProto.STRING
    if hasattr(helper, "np_dtype_to_tensor_dtype"):  # onnx >= 1.13
        return helper.np_dtype_to_tensor_dtype(array.dtype)
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[array.dtype]


def _value_info(name, value):
    """The ValueInfoProto of a graph input holding value: a tensor of its dtype and shape, or a
    sequence (a list) of tensors, of the elements' shape when they share one."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise LoadError("input %r: an empty sequence has no element type to declare" % name)
        shapes = {np.shape(e) for e in value}
        shape = next(iter(shapes)) if len(shapes) == 1 else None
        return helper.make_tensor_sequence_value_info(name, _elem_type(value[0]), shape)
    return helper.make_tensor_value_info(name, _elem_type(value), np.shape(value))


def _opset_imports(node, opset_version, opset_imports):
    """ai.onnx at opset_version, and the node's own domain at the version given in opset_imports
    or else the one onnx released together with that opset (onnx.helper.VERSION_TABLE)."""
    versions = {"": opset_version}
    domain = node.domain if node.domain != "ai.onnx" else ""
    if domain and domain not in (opset_imports or {}):
        released = [row for row in helper.VERSION_TABLE if row[2] <= opset_version]
        row = released[-1] if released else helper.VERSION_TABLE[0]
        if domain == "ai.onnx.ml":
            versions[domain] = row[3]
        elif domain in ("ai.onnx.training", "ai.onnx.preview.training"):
            versions[domain] = row[4] if len(row) > 4 else 1
        else:
            versions[domain] = 1
    versions.update(opset_imports or {})
    return [helper.make_opsetid(d, v) for d, v in versions.items()]


def node_model(node, inputs, outputs_info=None, opset_version=None, opset_imports=None):
    """The one-node onnx.ModelProto that run_node runs: graph inputs typed after the given values
    (an input given as None is left out of the node), graph outputs typed after outputs_info."""
    feed = _node_feed(node, inputs)
    if any(name and name not in feed for name in node.input):
        node = _without_inputs(node, feed)
    graph_inputs = [_value_info(name, value) for name, value in feed.items()]
    outputs = [name for name in node.output if name]
    infos = list(outputs_info or [])
    graph_outputs = [helper.make_tensor_value_info(name, _elem_type(np.empty(0, dtype)), shape)
                     for name, (dtype, shape) in zip(outputs, infos)]
    graph_outputs += [helper.make_empty_tensor_value_info(name) for name in outputs[len(infos):]]
    graph = helper.make_graph([node], "run_node_" + (node.op_type or "node"), graph_inputs, graph_outputs)
    if opset_version is None:
        opset_version = onnx.defs.onnx_opset_version()
    return helper.make_model(graph, producer_name="sonnx.backend",
                             opset_imports=_opset_imports(node, opset_version, opset_imports))


def _without_inputs(node, feed):
    """A copy of node whose inputs without a value in feed are left out (named "")."""
    copy = onnx.NodeProto()
    copy.CopyFrom(node)
    for i, name in enumerate(copy.input):
        if name not in feed:
            copy.input[i] = ""
    while copy.input and not copy.input[-1]:
        copy.input.pop()
    return copy


is_compatible = SonnxBackend.is_compatible
prepare = SonnxBackend.prepare
run_model = SonnxBackend.run_model
run_node = SonnxBackend.run_node
supports_device = SonnxBackend.supports_device
