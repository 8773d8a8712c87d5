#!/usr/bin/python3
"""Writes a one-test suite for `sonnx certify --localize`: DIR/test_localize/model.onnx and
test_data_set_0, a small network y = Mul(Add(Relu(Conv(x, W, B)), c), d) with random weights and
inputs x, c, d (numpy default_rng(0)). With the sample plugin every node runs on the plugin;
SONNX_SAMPLE_FAULT=1 plants the fault in Relu, SONNX_SAMPLE_FAULT=conv in Conv.

  make_localize_suite.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    rng = np.random.default_rng(0)
    f = lambda *shape: rng.uniform(-1, 1, shape).astype(np.float32)
    w, b, c, d, x = f(4, 3, 3, 3), f(4), f(1, 4, 6, 6), f(1, 4, 6, 6), f(1, 3, 8, 8)
    nodes = [
        helper.make_node("Conv", ["x", "W", "B"], ["conv"], name="conv"),
        helper.make_node("Relu", ["conv"], ["relu"], name="relu"),
        helper.make_node("Add", ["relu", "c"], ["add"], name="add"),
        helper.make_node("Mul", ["add", "d"], ["y"], name="mul"),
    ]
    inputs = {"x": x, "c": c, "d": d}
    graph = helper.make_graph(
        nodes, "localize", [helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, v.shape) for n, v in inputs.items()],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4, 6, 6])],
        [numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "B")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    test = os.path.join(sys.argv[1], "test_localize")
    os.makedirs(os.path.join(test, "test_data_set_0"), exist_ok=True)
    onnx.save(model, os.path.join(test, "model.onnx"))
    for k, (name, value) in enumerate(inputs.items()):
        with open(os.path.join(test, "test_data_set_0", f"input_{k}.pb"), "wb") as out:
            out.write(numpy_helper.from_array(value, name).SerializeToString())

if __name__ == "__main__":
    main()
