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
OUT_DIR/small_types/test_*/        Transpose, Pad and Reshape on float8e4m3fn, int4 and uint2 tensors
                                    (opset 25), odd element counts for the 4- and 2-bit types; inputs
                                    and expected outputs are TensorProtos whose bytes this script
                                    packs itself (onnx 1.12's helpers do not know these types)
OUT_DIR/enclose/*.onnx              `sonnx enclose` models over X float [2] (enclose_models)
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


def small_tensor_pb(path, codes, dims, data_type, bits, name):
    """A TensorProto of a small type from its codes (bit patterns / two's complement fields),
    packed low bits first into raw_data as onnx.proto says."""
    t = TensorProto()
    t.name = name
    t.data_type = data_type
    t.dims.extend(dims)
    flat = [int(c) & ((1 << bits) - 1) for c in np.asarray(codes).ravel()]
    per = 8 // bits
    raw = bytearray((len(flat) * bits + 7) // 8)
    for i, c in enumerate(flat):
        raw[i // per] |= c << (bits * (i % per))
    t.raw_data = bytes(raw)
    with open(path, "wb") as f:
        f.write(t.SerializeToString())


def small_types_tests(root):
    """Data movement on small types: each case is (name, elem type, bits, input codes, pads,
    constant or None, mode, expected codes), the model Transpose -> Pad -> Reshape to 1-D."""
    FLOAT8E4M3FN, UINT2, INT4 = 17, 25, 22
    x8 = np.arange(1, 7).reshape(2, 3)
    xi4 = np.array([[-3], [5], [-8]])
    xu2 = np.array([[1, 2, 3]])
    cases = [
        ("test_float8e4m3fn_transpose_pad", FLOAT8E4M3FN, 8, x8, [1, 0, 0, 0], 0x38, "constant",
         np.pad(x8.T, ((1, 0), (0, 0)), constant_values=0x38)),
        ("test_int4_transpose_pad_edge_odd", INT4, 4, xi4, [0, 1, 0, 1], None, "edge",
         np.pad(xi4.T, ((0, 0), (1, 1)), mode="edge")),
        ("test_uint2_transpose_pad_wrap_odd", UINT2, 2, xu2, [1, 0, 1, 0], None, "wrap",
         np.pad(xu2.T, ((1, 1), (0, 0)), mode="wrap")),
    ]
    for name, elem, bits, x, pads, const, mode, y in cases:
        n = y.size
        inputs = ["X", "pads"] + (["C"] if const is not None else [])
        nodes = [h.make_node("Transpose", ["X"], ["T"]),
                 h.make_node("Pad", ["T"] + inputs[1:], ["P"], mode=mode),
                 h.make_node("Reshape", ["P", "shape"], ["Y"])]
        g = h.make_graph(nodes, name,
                         [h.make_tensor_value_info("X", elem, list(x.shape)),
                          h.make_tensor_value_info("pads", TensorProto.INT64, [4])] +
                         ([h.make_tensor_value_info("C", elem, [])] if const is not None else []),
                         [h.make_tensor_value_info("Y", elem, [n])],
                         initializer=[numpy_helper.from_array(np.array([n], np.int64), "shape")])
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 25)])
        m.ir_version = 11
        d = os.path.join(root, name)
        test_dir(root, name, m.SerializeToString(), [("pads", np.array(pads, np.int64))], [])
        os.rename(os.path.join(d, "test_data_set_0", "input_0.pb"), os.path.join(d, "test_data_set_0", "input_1.pb"))
        data = os.path.join(d, "test_data_set_0")
        small_tensor_pb(os.path.join(data, "input_0.pb"), x, x.shape, elem, bits, "X")
        if const is not None:
            small_tensor_pb(os.path.join(data, "input_2.pb"), [const], [], elem, bits, "C")
        small_tensor_pb(os.path.join(data, "output_0.pb"), y, [n], elem, bits, "Y")


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


def enclose_models(out):
    """exp(X) − exp(X) (a wide real enclosure around 0: the two enclosures of exp do not know they
    are equal), its comparison with 0 (undetermined), and Hardmax (no enclosure)."""
    d = os.path.join(out, "enclose")
    os.makedirs(d, exist_ok=True)
    x = [h.make_tensor_value_info("X", TensorProto.FLOAT, [2])]
    zero = numpy_helper.from_array(np.zeros([1], np.float32), "zero")
    diff = [h.make_node("Exp", ["X"], ["E"], name="exp"), h.make_node("Sub", ["E", "E"], ["Y"], name="sub")]
    graphs = {
        "wide": h.make_graph(diff, "wide", x, [h.make_tensor_value_info("Y", TensorProto.FLOAT, [2])]),
        "undetermined": h.make_graph(diff + [h.make_node("Greater", ["Y", "zero"], ["Z"], name="greater")], "undetermined", x,
                                     [h.make_tensor_value_info("Z", TensorProto.BOOL, [2])], initializer=[zero]),
        "unsupported": h.make_graph([h.make_node("RandomUniformLike", ["X"], ["Y"], name="random")], "unsupported", x,
                                    [h.make_tensor_value_info("Y", TensorProto.FLOAT, [2])]),
    }
    for name, g in graphs.items():
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
        m.ir_version = 8
        with open(os.path.join(d, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())


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
    small_types_tests(os.path.join(out, "small_types"))
    enclose_models(out)


main()
