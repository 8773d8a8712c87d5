#!/usr/bin/python3
"""Writes the inputs of the command-line tests in tests/CMakeLists.txt.
Usage: make_cli_fixtures.py RULE_FIXTURES_DIR OUT_DIR

OUT_DIR/x2.npy                      float32 [2], the input X of the rule fixtures
OUT_DIR/refused/test_attr_unknown/  ATTR-UNKNOWN.onnx (fails `sonnx check`: Relu with an attribute
                                    Relu does not have, which the kernel ignores) as a conformance
                                    test whose expected output is Relu(X)
OUT_DIR/conv/test_conv_no_value_info/
                                    Conv(X, Identity(W0), B) + Relu without any value_info: only
                                    type inference tells the compiler W is a float [3,2,3,3] tensor,
                                    which the oneDNN convolution needs; expected output from numpy
OUT_DIR/new-ops/test_*/             one model each for CausalConvWithState-27, LinearAttention-27
                                    and ai.onnx.preview FlexAttention-1 (with a score_mod graph);
                                    expected outputs from the numpy loops in new_ops_fixtures.py
"""
import os
import shutil
import sys

import numpy as np
from onnx import TensorProto, helper as h, numpy_helper

import new_ops_fixtures


def write_pb(path, array, name):
    t = numpy_helper.from_array(array, name)
    with open(path, "wb") as f:
        f.write(t.SerializeToString())


def test_dir(root, name, model_bytes, inputs, outputs):
    d = os.path.join(root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(model_bytes)
    for k, (n, a) in enumerate(inputs):
        write_pb(os.path.join(d, "test_data_set_0", "input_%d.pb" % k), a, n)
    for k, (n, a) in enumerate(outputs):
        write_pb(os.path.join(d, "test_data_set_0", "output_%d.pb" % k), a, n)


def conv_model():
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, (1, 2, 5, 5)).astype(np.float32)
    w = rng.uniform(-1, 1, (3, 2, 3, 3)).astype(np.float32)
    b = rng.uniform(-1, 1, (3,)).astype(np.float32)
    nodes = [h.make_node("Identity", ["W0"], ["W"], name="weights"),
             h.make_node("Conv", ["X", "W", "B"], ["C"], name="conv", pads=[1, 1, 1, 1]),
             h.make_node("Relu", ["C"], ["Y"], name="relu")]
    g = h.make_graph(nodes, "conv", [h.make_tensor_value_info("X", TensorProto.FLOAT, [1, 2, 5, 5])],
                     [h.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 3, 5, 5])],
                     initializer=[numpy_helper.from_array(w, "W0"), numpy_helper.from_array(b, "B")])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 8
    assert len(m.graph.value_info) == 0
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((1, 3, 5, 5))
    for i in range(5):
        for j in range(5):
            y[0, :, i, j] = np.einsum("cij,mcij->m", xp[0, :, i:i + 3, j:j + 3], w.astype(np.float64)) + b
    y = np.maximum(y, 0).astype(np.float32)
    return m.SerializeToString(), [("X", x)], [("Y", y)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make_cli_fixtures.py RULE_FIXTURES_DIR OUT_DIR")
    rules, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    x = np.array([-1.5, 2.0], np.float32)
    np.save(os.path.join(out, "x2.npy"), x)
    with open(os.path.join(rules, "ATTR-UNKNOWN.onnx"), "rb") as f:
        refused = f.read()
    test_dir(os.path.join(out, "refused"), "test_attr_unknown", refused, [("X", x)], [("Y", np.maximum(x, 0))])
    test_dir(os.path.join(out, "conv"), "test_conv_no_value_info", *conv_model())
    for name, model in new_ops_fixtures.MODELS:
        test_dir(os.path.join(out, "new-ops"), name, *model())


main()
