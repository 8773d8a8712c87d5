#!/usr/bin/python3
"""Writes the emit-c suite: small multi-node models that together use every operator of the SONNX
profile, as ONNX backend-test directories (model.onnx, test_data_set_0/input_K.pb, output_K.pb).

  make_emit_suite.py SONNX OUT_DIR

The models are written at opset 17 (Debian's onnx 1.12; the strings one at 19), with fixed-seed
inputs and weights; `sonnx admit` brings them into the profile where `sonnx emit-c` needs it
(scripts/emit-c-backend.sh does).
The expected outputs are the reference interpreter's (`sonnx run`): the suite is for `sonnx certify`,
which judges against the reference anyway.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(39)
OPSET = 17


def f32(*shape, lo=-1.0, hi=1.0):
    return RNG.uniform(lo, hi, size=shape).astype(np.float32)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(name, nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="sonnx-emit-suite")
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def small_cnn():
    n = helper.make_node
    nodes = [n("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             n("BatchNormalization", ["c1", "s", "bb", "mu", "var"], ["n1"], epsilon=1e-3),
             n("Relu", ["n1"], ["r1"]),
             n("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
             n("Conv", ["p1", "w2"], ["c2"], strides=[2, 2], pads=[0, 0, 1, 1], dilations=[1, 1]),
             n("LeakyRelu", ["c2"], ["r2"], alpha=0.1),
             n("GlobalAveragePool", ["r2"], ["g"]),
             n("Flatten", ["g"], ["fl"]),
             n("Gemm", ["fl", "wf", "bf"], ["logits"], transB=1, alpha=0.5, beta=1.0),
             n("Softmax", ["logits"], ["y"], axis=1)]
    inits = [init("w1", f32(8, 3, 3, 3)), init("b1", f32(8)), init("s", f32(8, lo=0.5, hi=1.5)), init("bb", f32(8)),
             init("mu", f32(8)), init("var", f32(8, lo=0.5, hi=2.0)), init("w2", f32(16, 8, 3, 3)),
             init("wf", f32(10, 16)), init("bf", f32(10))]
    return model("small_cnn", nodes, [vi("x", TensorProto.FLOAT, [1, 3, 16, 16])], [vi("y", TensorProto.FLOAT, [1, 10])],
                 inits), {"x": f32(1, 3, 16, 16)}


def depthwise():
    n = helper.make_node
    nodes = [n("Conv", ["x", "wd"], ["d"], group=4, pads=[2, 2, 2, 2], dilations=[2, 2]),
             n("HardSwish", ["d"], ["h"]),
             n("AveragePool", ["h"], ["a"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], count_include_pad=1),
             n("AveragePool", ["h"], ["a2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1], ceil_mode=1),
             n("Add", ["a", "a2"], ["s"]),
             n("Clip", ["s", "lo", "hi"], ["c"]),
             n("ConvTranspose", ["c", "wt", "bt"], ["t"], strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1]),
             n("Sigmoid", ["t"], ["y"])]
    inits = [init("wd", f32(4, 1, 3, 3)), init("lo", np.float32(-0.5)), init("hi", np.float32(0.75)),
             init("wt", f32(4, 2, 3, 3)), init("bt", f32(2))]
    return model("depthwise", nodes, [vi("x", TensorProto.FLOAT, [1, 4, 9, 9])], [vi("y", TensorProto.FLOAT, [1, 2, 18, 18])],
                 inits), {"x": f32(1, 4, 9, 9)}


def elementwise():
    n = helper.make_node
    nodes = [n("MatMul", ["x", "w"], ["m"]),
             n("Add", ["m", "b"], ["a"]),
             n("Tanh", ["a"], ["t"]),
             n("Abs", ["t"], ["ab"]),
             n("Add", ["ab", "one"], ["ab1"]),
             n("Log", ["ab1"], ["l"]),
             n("Sqrt", ["ab1"], ["sq"]),
             n("Exp", ["t"], ["e"]),
             n("Erf", ["t"], ["er"]),
             n("Sin", ["t"], ["si"]),
             n("Cos", ["t"], ["co"]),
             n("Softplus", ["t"], ["sp"]),
             n("Neg", ["sp"], ["ng"]),
             n("Pow", ["ab1", "two"], ["pw"]),
             n("Div", ["e", "ab1"], ["dv"]),
             n("Sub", ["dv", "l"], ["sb"]),
             n("Mul", ["sb", "sq"], ["ml"]),
             n("Max", ["ml", "er", "si"], ["mx"]),
             n("Min", ["mx", "co", "ng"], ["mn"]),
             n("Floor", ["pw"], ["fl"]),
             n("Ceil", ["pw"], ["ce"]),
             n("Mod", ["ce", "two"], ["md"], fmod=1),
             n("Add", ["mn", "md"], ["s1"]),
             n("Add", ["s1", "fl"], ["s2"]),
             n("ReduceMean", ["s2"], ["rm"], axes=[1], keepdims=1),
             n("ReduceSum", ["s2", "axes"], ["rs"], keepdims=0),
             n("ArgMax", ["s2"], ["am"], axis=1, keepdims=0, select_last_index=1),
             n("Sub", ["s2", "rm"], ["y"])]
    inits = [init("w", f32(6, 5)), init("b", f32(5)), init("one", np.float32(1)), init("two", np.float32(2)),
             init("axes", np.array([1], dtype=np.int64))]
    return model("elementwise", nodes, [vi("x", TensorProto.FLOAT, [4, 6])],
                 [vi("y", TensorProto.FLOAT, [4, 5]), vi("rs", TensorProto.FLOAT, [4]), vi("am", TensorProto.INT64, [4])],
                 inits), {"x": f32(4, 6)}


def movement():
    n = helper.make_node
    nodes = [n("Reshape", ["x", "shape"], ["r"]),
             n("Transpose", ["r"], ["t"], perm=[0, 2, 1]),
             n("Slice", ["t", "starts", "ends", "sax", "steps"], ["sl"]),
             n("Pad", ["sl", "pads"], ["pd"], mode="reflect"),
             n("Concat", ["pd", "pd"], ["cc"], axis=1),
             n("Gather", ["cc", "idx"], ["ga"], axis=2),
             n("Split", ["ga", "split"], ["sp1", "sp2"], axis=0),
             n("Squeeze", ["sp1", "sq_axes"], ["sq"]),
             n("Unsqueeze", ["sq", "sq_axes"], ["us"]),
             n("Expand", ["us", "eshape"], ["ex"]),
             n("Greater", ["ex", "zero"], ["gt"]),
             n("Less", ["ex", "half"], ["ls"]),
             n("Equal", ["gt", "ls"], ["eq"]),
             n("Not", ["eq"], ["nt"]),
             n("Where", ["nt", "ex", "zero"], ["wh"]),
             n("Resize", ["wh", "", "scales"], ["rz"], mode="linear"),
             n("Identity", ["rz"], ["id"]),
             n("Cast", ["id"], ["y"], to=TensorProto.DOUBLE),
             n("Shape", ["x"], ["shp"]),
             n("Cast", ["sp2"], ["gi"], to=TensorProto.INT32)]
    inits = [init("shape", np.array([2, 3, 4], dtype=np.int64)), init("starts", np.array([0, 3], dtype=np.int64)),
             init("ends", np.array([4, 0], dtype=np.int64)), init("sax", np.array([1, 2], dtype=np.int64)),
             init("steps", np.array([1, -1], dtype=np.int64)), init("pads", np.array([0, 1, 1, 0, 1, 1], dtype=np.int64)),
             init("idx", np.array([[0, 2], [3, 1]], dtype=np.int64)), init("split", np.array([1, 1], dtype=np.int64)),
             init("sq_axes", np.array([0], dtype=np.int64)), init("eshape", np.array([3, 1, 2, 2], dtype=np.int64)),
             init("zero", np.float32(0)), init("half", np.float32(0.5)),
             init("scales", np.array([1, 1, 2, 1.5], dtype=np.float32))]
    return model("movement", nodes, [vi("x", TensorProto.FLOAT, [2, 12])],
                 [vi("y", TensorProto.DOUBLE, [3, 12, 4, 3]), vi("shp", TensorProto.INT64, [2]),
                  vi("gi", TensorProto.INT32, [1, 12, 2, 2])], inits), {"x": f32(2, 12)}


def recurrent():
    n = helper.make_node
    H = 5
    nodes = [n("LSTM", ["x", "W", "R", "B", "", "h0", "c0"], ["Y", "Yh", "Yc"], hidden_size=H, direction="bidirectional"),
             n("GRU", ["x", "Wg", "Rg", "Bg"], ["Yg", "Yhg"], hidden_size=H, linear_before_reset=1),
             n("Add", ["Yh", "Yc"], ["hc"]),
             n("Mul", ["hc", "two"], ["y"])]
    inits = [init("W", f32(2, 4 * H, 3)), init("R", f32(2, 4 * H, H)), init("B", f32(2, 8 * H)), init("h0", f32(2, 2, H)),
             init("c0", f32(2, 2, H)), init("Wg", f32(1, 3 * H, 3)), init("Rg", f32(1, 3 * H, H)), init("Bg", f32(1, 6 * H)),
             init("two", np.float32(2))]
    return model("recurrent", nodes, [vi("x", TensorProto.FLOAT, [4, 2, 3])],
                 [vi("Y", TensorProto.FLOAT, [4, 2, 2, H]), vi("y", TensorProto.FLOAT, [2, 2, H]),
                  vi("Yg", TensorProto.FLOAT, [4, 1, 2, H]), vi("Yhg", TensorProto.FLOAT, [1, 2, H])], inits), {"x": f32(4, 2, 3)}


def integers():
    n = helper.make_node
    nodes = [n("Add", ["a", "b"], ["s"]),
             n("Mul", ["s", "b"], ["m"]),
             n("Div", ["m", "d"], ["q"]),
             n("Mod", ["m", "d"], ["r"]),
             n("Range", ["start", "limit", "delta"], ["rg"]),
             n("Add", ["q", "rg"], ["qa"]),
             n("ConstantOfShape", ["cshape"], ["k"], value=numpy_helper.from_array(np.array([7], dtype=np.int64))),
             n("Sub", ["qa", "k"], ["y"]),
             n("Constant", [], ["cst"], value=numpy_helper.from_array(np.array([3, -4, 5, 6], dtype=np.int64))),
             n("ScatterND", ["r", "sidx", "cst"], ["z"], reduction="add")]
    inits = [init("d", np.array([3, -2, 5, 7], dtype=np.int64)), init("start", np.int64(1)), init("limit", np.int64(9)),
             init("delta", np.int64(2)), init("cshape", np.array([4], dtype=np.int64)),
             init("sidx", np.array([[1], [3], [1], [0]], dtype=np.int64))]
    return model("integers", nodes, [vi("a", TensorProto.INT64, [4]), vi("b", TensorProto.INT64, [4])],
                 [vi("y", TensorProto.INT64, [4]), vi("z", TensorProto.INT64, [4])], inits), {
                     "a": RNG.integers(-1000, 1000, size=4).astype(np.int64),
                     "b": RNG.integers(-1000, 1000, size=4).astype(np.int64)}


def strings():
    """Strings move as views and compare (Equal-19, hence opset 19: onnx 1.12's checker stops at 17,
    `sonnx check` judges it): a constant holding the bytes C spells only with escapes (a quote, a
    backslash, '??=', a NUL before a digit, bytes above 0x7f)."""
    n = helper.make_node
    words = np.array([b"q\"uote", b"back\\slash??=", b"nul\x007x", b"\xff\x80 bytes", b"", b"b"], dtype=object)
    nodes = [n("Reshape", ["x", "shape"], ["r"]),
             n("Transpose", ["r"], ["t"], perm=[1, 0]),
             n("Concat", ["t", "words"], ["c"], axis=0),
             n("Gather", ["c", "idx"], ["g"], axis=0),
             n("Equal", ["g", "ref"], ["eq"]),
             n("Identity", ["g"], ["y"])]
    inits = [init("shape", np.array([3, 2], dtype=np.int64)), init("words", words.reshape(2, 3)),
             init("idx", np.array([3, 0, 2], dtype=np.int64)), init("ref", np.array([b"b", b"", b"a"], dtype=object))]
    g = helper.make_graph(nodes, "strings", [vi("x", TensorProto.STRING, [6])],
                          [vi("y", TensorProto.STRING, [3, 3]), vi("eq", TensorProto.BOOL, [3, 3])], initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], producer_name="sonnx-emit-suite")
    m.ir_version = 8
    return m, {"x": np.array([b"a", b"b", b"", b"q\"uote", b"\x00", b"b"], dtype=object)}


def tensor_as(array, name, elem):
    """A float array as a TensorProto of float16 or bfloat16 (rounded to nearest even)."""
    a = np.asarray(array, dtype=np.float32)
    if elem == TensorProto.FLOAT16:
        return numpy_helper.from_array(a.astype(np.float16), name)
    bits = a.reshape(-1).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    t = TensorProto(name=name, data_type=TensorProto.BFLOAT16, dims=list(a.shape))
    t.raw_data = rounded.tobytes()
    return t


def half_variant(make, elem):
    """The model of `make` with every float tensor in float16 or bfloat16 (the Resize scales and roi
    stay float, as the operator requires). write() leaves it out when an operator does not take the
    type at opset 17 (`sonnx check` refuses it: bfloat16 Conv, pools and recurrences came in 22)."""
    suffix = {TensorProto.FLOAT16: "float16", TensorProto.BFLOAT16: "bfloat16"}[elem]

    def variant():
        m, inputs = make()
        keep = {n.input[i] for n in m.graph.node if n.op_type == "Resize" for i in (1, 2) if len(n.input) > i}
        for v in list(m.graph.input) + list(m.graph.output) + list(m.graph.value_info):
            if v.type.tensor_type.elem_type == TensorProto.FLOAT:
                v.type.tensor_type.elem_type = elem
        inits = []
        for t in m.graph.initializer:
            if t.data_type == TensorProto.FLOAT and t.name not in keep:
                t = tensor_as(numpy_helper.to_array(t), t.name, elem)
            inits.append(t)
        del m.graph.initializer[:]
        m.graph.initializer.extend(inits)
        if elem == TensorProto.BFLOAT16:  # their bfloat16 versions came in opset 22: others in their place
            for node in m.graph.node:
                node.op_type = {"Sin": "Sigmoid", "Cos": "Relu", "Softplus": "LeakyRelu"}.get(node.op_type, node.op_type)
        m.graph.name += "_" + suffix
        return m, {k: (tensor_as(v, k, elem) if v.dtype == np.float32 else v) for k, v in inputs.items()}

    return variant


FLOAT_MODELS = [small_cnn, depthwise, elementwise, movement, recurrent]
MODELS = [small_cnn, depthwise, elementwise, movement, recurrent, integers, strings] + [
    half_variant(make, elem) for elem in (TensorProto.FLOAT16, TensorProto.BFLOAT16) for make in FLOAT_MODELS]


def write(sonnx, out, make):
    m, inputs = make()
    d = os.path.join(out, "test_emit_" + m.graph.name)
    ds = os.path.join(d, "test_data_set_0")
    os.makedirs(ds, exist_ok=True)
    onnx.save(m, os.path.join(d, "model.onnx"))
    if subprocess.run([sonnx, "check", os.path.join(d, "model.onnx")], stdout=subprocess.DEVNULL).returncode != 0:
        print(f"make_emit_suite: {m.graph.name} left out: not a valid model at opset {OPSET}")
        shutil.rmtree(d)
        return False
    args = []
    for k, v in enumerate(m.graph.input):
        value = inputs[v.name]
        t = value if isinstance(value, TensorProto) else numpy_helper.from_array(value, v.name)
        path = os.path.join(ds, f"input_{k}.pb")
        open(path, "wb").write(t.SerializeToString())
        args += ["-i", f"{v.name}={path}"]
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sonnx, "run", os.path.join(d, "model.onnx"), *args, "-o", tmp], check=True, stdout=subprocess.DEVNULL)
        for k, v in enumerate(m.graph.output):
            os.replace(os.path.join(tmp, v.name + ".pb"), os.path.join(ds, f"output_{k}.pb"))
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    sonnx, out = sys.argv[1:]
    written = sum(write(sonnx, out, make) for make in MODELS)
    print(f"make_emit_suite: {written} tests in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
