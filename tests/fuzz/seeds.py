#!/usr/bin/python3
"""Writes a seed corpus for the load+check fuzzer: small valid models of several shapes (a
subgraph, a function, initializers, external data). Usage: seeds.py OUT_DIR"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper as h, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
F = TensorProto.FLOAT


def vi(n, s=(2,)):
    return h.make_tensor_value_info(n, F, list(s))


def save(name, nodes, ins, outs, inits=(), functions=(), opsets=(("", 17),)):
    g = h.make_graph(nodes, name, ins, outs, initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid(d, v) for d, v in opsets], functions=list(functions))
    m.ir_version = 8
    with open(os.path.join(out, name + ".onnx"), "wb") as f:
        f.write(m.SerializeToString())


save("relu", [h.make_node("Relu", ["X"], ["Y"], name="r")], [vi("X")], [vi("Y")])
save("gemm", [h.make_node("Gemm", ["X", "W"], ["Y"], name="g", alpha=1.0, beta=1.0, transA=0, transB=1)],
     [vi("X", (1, 2))], [vi("Y", (1, 2))], inits=[numpy_helper.from_array(np.ones((2, 2), np.float32), "W")])
then_g = h.make_graph([h.make_node("Relu", ["X"], ["A"])], "t", [], [vi("A")])
else_g = h.make_graph([h.make_node("Neg", ["X"], ["B"])], "e", [], [vi("B")])
save("if", [h.make_node("If", ["C"], ["Y"], then_branch=then_g, else_branch=else_g)],
     [h.make_tensor_value_info("C", TensorProto.BOOL, []), vi("X")], [vi("Y")])
fn = h.make_function("local", "f", ["a"], ["b"], [h.make_node("Add", ["a", "a"], ["b"])],
                     [h.make_opsetid("", 17)])
save("function", [h.make_node("f", ["X"], ["Y"], domain="local")], [vi("X")], [vi("Y")], functions=[fn],
     opsets=(("", 17), ("local", 1)))
ext = numpy_helper.from_array(np.ones((2,), np.float32), "W")
ext.ClearField("raw_data")
ext.data_location = TensorProto.EXTERNAL
ext.external_data.add(key="location", value="../../etc/passwd")
save("external_hostile", [h.make_node("Add", ["X", "W"], ["Y"])], [vi("X")], [vi("Y")], inits=[ext])
