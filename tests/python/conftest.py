"""Shared fixtures of the Python package's tests: the rule fixtures' paths and small models made
with onnx.helper (Debian's python3-onnx)."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

FIXTURES = os.environ.get("SONNX_RULE_FIXTURES", "")


@pytest.fixture
def mlp():
    """Y = Relu(X·W + B), X [1,2], W ones (2,3), B zeros: every element of Y is max(0, x0 + x1)."""
    path = os.path.join(FIXTURES, "good_sonnx_mlp.onnx")
    if not os.path.exists(path):
        pytest.skip("SKIP: no rule fixtures at %r (set SONNX_RULE_FIXTURES; ctest does)" % FIXTURES)
    return path


@pytest.fixture
def broken():
    return os.path.join(FIXTURES, "STRUCT-SSA.onnx")


def make_model(nodes, inputs, outputs, opset=18, initializers=()):
    """A model of the given nodes; inputs/outputs are (name, TensorProto type, shape) triples."""
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info(*i) for i in inputs],
                              [helper.make_tensor_value_info(*o) for o in outputs], initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def identity_model(elem_type, shape=(2, 3)):
    return make_model([helper.make_node("Identity", ["x"], ["y"], name="id")], [("x", elem_type, shape)],
                      [("y", elem_type, shape)])


NUMPY_TO_ONNX = {
    np.float16: TensorProto.FLOAT16, np.float32: TensorProto.FLOAT, np.float64: TensorProto.DOUBLE,
    np.int8: TensorProto.INT8, np.int16: TensorProto.INT16, np.int32: TensorProto.INT32, np.int64: TensorProto.INT64,
    np.uint8: TensorProto.UINT8, np.uint16: TensorProto.UINT16, np.uint32: TensorProto.UINT32,
    np.uint64: TensorProto.UINT64, np.bool_: TensorProto.BOOL,
}
