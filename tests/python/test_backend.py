"""sonnx.backend: onnx's Backend/BackendRep over sonnx.Session, and scripts/backend-test.py (onnx's
backend test runner over it) on a small suite written here."""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
import pytest
from conftest import make_model
from onnx import TensorProto, helper, numpy_helper

import sonnx
import sonnx.backend as backend

BACKEND_TEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "backend-test.py")


def add_model():
    """z = x + y and a = x - y on float [2,2], declared in the output order z, a."""
    nodes = [helper.make_node("Add", ["x", "y"], ["z"]), helper.make_node("Sub", ["x", "y"], ["a"])]
    f = TensorProto.FLOAT
    return make_model(nodes, [("x", f, (2, 2)), ("y", f, (2, 2))], [("z", f, (2, 2)), ("a", f, (2, 2))])


X = np.array([[1, 2], [3, 4]], np.float32)
Y = np.array([[0.5, -1], [8, 0.25]], np.float32)


def test_prepare_compiles_once_and_runs_lists_tuples_and_dicts():
    rep = backend.prepare(add_model())
    assert isinstance(rep, backend.SonnxRep) and rep.input_names == ["x", "y"] and rep.output_names == ["z", "a"]
    for inputs in ([X, Y], (X, Y), {"y": Y, "x": X}):
        out = rep.run(inputs)
        assert len(out) == 2  # graph output order, by position and by name
        np.testing.assert_array_equal(out[0], [[1.5, 1], [11, 4.25]])
        np.testing.assert_array_equal(out[1], [[0.5, 3], [-5, 3.75]])
        np.testing.assert_array_equal(out["a"], out[1])
        assert out.z is out[0] and out[0].dtype == np.float32


def test_run_model_and_the_session_options():
    out = backend.run_model(add_model(), [X, Y], executor="linear")
    np.testing.assert_array_equal(out.z, X + Y)
    rep = backend.prepare(add_model(), "CPU", executor="dataflow", threads=2)
    assert rep.session.executor == "dataflow"
    with pytest.raises(TypeError, match="no_such_option"):
        backend.prepare(add_model(), no_such_option=1)


def test_a_model_is_a_proto_a_path_or_bytes(tmp_path):
    path = tmp_path / "add.onnx"
    onnx.save(add_model(), str(path))
    for model in (str(path), path.read_bytes()):
        np.testing.assert_array_equal(backend.run_model(model, [X, Y])[1], X - Y)


def test_wrong_inputs():
    rep = backend.prepare(add_model())
    with pytest.raises(sonnx.LoadError, match="3 inputs given"):
        rep.run([X, Y, X])
    with pytest.raises(sonnx.Trap):
        rep.run([X])  # y missing
    with pytest.raises(sonnx.Trap):
        rep.run([X.astype(np.float64), Y])  # no implicit type conversion


def test_run_node_relu():
    x = np.array([[-1.5, 0, 2]], np.float32)
    (y,) = backend.run_node(helper.make_node("Relu", ["x"], ["y"]), [x])
    np.testing.assert_array_equal(y, [[0, 0, 2]])
    assert y.dtype == np.float32
    out = backend.run_node(helper.make_node("Relu", ["x"], ["y"]), {"x": x}, outputs_info=[(np.float32, (1, 3))])
    np.testing.assert_array_equal(out.y, [[0, 0, 2]])


def test_run_node_with_two_outputs():
    x = np.array([[3, 9, 1, 7]], np.float32)
    values, indices = backend.run_node(helper.make_node("TopK", ["x", "k"], ["v", "i"]), [x, np.array([2], np.int64)])
    np.testing.assert_array_equal(values, [[9, 7]])
    np.testing.assert_array_equal(indices, [[1, 3]])
    assert indices.dtype == np.int64


def test_run_node_opsets_and_domains():
    x = np.array([[-3, 0.5, 4]], np.float32)
    clip6 = helper.make_node("Clip", ["x"], ["y"], min=-1.0, max=1.0)  # attributes until opset 10
    np.testing.assert_array_equal(backend.run_node(clip6, [x], opset_version=6)[0], [[-1, 0.5, 1]])
    model = backend.node_model(clip6, [x], opset_version=6)
    assert {o.domain: o.version for o in model.opset_import} == {"": 6}
    normalizer = helper.make_node("Normalizer", ["x"], ["y"], domain="ai.onnx.ml", norm="L1")
    model = backend.node_model(normalizer, [x])
    assert {o.domain: o.version for o in model.opset_import}["ai.onnx.ml"] >= 1
    (y,) = backend.run_node(normalizer, [x])
    np.testing.assert_allclose(y, x / 7.5, rtol=1e-6)
    model = backend.node_model(normalizer, [x], opset_version=18, opset_imports={"ai.onnx.ml": 1})
    assert {o.domain: o.version for o in model.opset_import} == {"": 18, "ai.onnx.ml": 1}


def test_run_node_sequences_and_left_out_inputs():
    x = np.array([[-3, 0.5, 4]], np.float32)
    (n,) = backend.run_node(helper.make_node("SequenceLength", ["s"], ["n"]), [[x, x, x]])
    assert int(n) == 3
    clip = helper.make_node("Clip", ["x", "", "hi"], ["y"])  # min left out
    hi = np.array(1, np.float32)
    for inputs in ([x, hi], [x, None, hi]):
        np.testing.assert_array_equal(backend.run_node(clip, inputs, opset_version=13)[0], [[-3, 0.5, 1]])
    clip = helper.make_node("Clip", ["x", "lo", "hi"], ["y"])  # lo given as None: left out of the node
    np.testing.assert_array_equal(backend.run_node(clip, [x, None, hi], opset_version=13)[0], [[-3, 0.5, 1]])


def test_only_the_cpu_device():
    assert backend.supports_device("CPU")
    assert not backend.supports_device("CUDA")
    assert backend.is_compatible(add_model()) and not backend.is_compatible(add_model(), "CUDA")
    with pytest.raises(sonnx.LoadError, match="CPU"):
        backend.prepare(add_model(), "CUDA")


def made_up_node():
    return helper.make_node("Frobnicate", ["x"], ["z"], domain="com.example")


def test_errors_propagate():
    # An operator of a domain sonnx does not know: the check refuses it, and without the check
    # compiling it does, by name.
    unknown = made_up_node()
    x = np.array([[0.25, 0.75]], np.float32)
    with pytest.raises(sonnx.CheckFailed):
        backend.run_node(unknown, [x], opset_imports={"com.example": 1})
    with pytest.raises(sonnx.Unsupported, match="Frobnicate"):
        backend.run_node(unknown, [x], check=False, opset_imports={"com.example": 1})
    with pytest.raises(sonnx.LoadError, match="not a valid ONNX ModelProto"):
        backend.prepare(b"this is not a protobuf model")


def test_an_empty_optional_input_is_none():
    f = TensorProto.FLOAT
    graph = helper.make_graph([helper.make_node("OptionalHasElement", ["o"], ["has"])], "g",
                              [helper.make_value_info("o", helper.make_optional_type_proto(
                                  helper.make_tensor_type_proto(f, (2,))))],
                              [helper.make_tensor_value_info("has", TensorProto.BOOL, ())])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    rep = backend.prepare(model)
    assert not rep.run([None])[0]
    assert rep.run([np.ones(2, np.float32)])[0]


def test_import_sonnx_does_not_import_onnx():
    code = "import sys, sonnx; assert 'onnx' not in sys.modules; import sonnx.backend; assert 'onnx' in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def write_test(root, kind, name, model, inputs, outputs):
    """onnx's layout of one backend test: ROOT/KIND/NAME/model.onnx and test_data_set_0/."""
    data = root / kind / name / "test_data_set_0"
    data.mkdir(parents=True)
    onnx.save(model, str(root / kind / name / "model.onnx"))
    for prefix, values in (("input", inputs), ("output", outputs)):
        for i, v in enumerate(values):
            (data / ("%s_%d.pb" % (prefix, i))).write_bytes(numpy_helper.from_array(v).SerializeToString())


def test_the_backend_test_script_runs_onnxs_runner(tmp_path):
    write_test(tmp_path, "node", "test_sonnx_add", add_model(), [X, Y], [X + Y, X - Y])
    write_test(tmp_path, "node", "test_sonnx_wrong", add_model(), [X, Y], [X + Y, X - Y + 1])
    relu = make_model([helper.make_node("Relu", ["x"], ["y"])], [("x", TensorProto.FLOAT, (2, 2))],
                      [("y", TensorProto.FLOAT, (2, 2))])
    write_test(tmp_path, "simple", "test_sonnx_relu", relu, [X - 2], [np.maximum(X - 2, 0)])
    write_test(tmp_path, "simple", "test_sonnx_unsupported",
               backend.node_model(made_up_node(), [X[:1]], opset_imports={"com.example": 1}), [X[:1]], [])
    report = tmp_path / "report.json"
    r = subprocess.run([sys.executable, BACKEND_TEST, str(tmp_path), "--report", str(report)], capture_output=True,
                       text=True)
    assert r.returncode == 1, r.stdout + r.stderr  # a test failed
    assert "passed 2 failed 1 errors 1 skipped 0" in r.stdout
    tests = {t["name"]: t for t in json.loads(report.read_text())["tests"]}
    assert {n: (t["kind"], t["status"]) for n, t in tests.items()} == {
        "test_sonnx_add": ("node", "passed"), "test_sonnx_wrong": ("node", "failed"),
        "test_sonnx_relu": ("simple", "passed"), "test_sonnx_unsupported": ("simple", "errored")}
    assert "CheckFailed" in tests["test_sonnx_unsupported"]["message"]
    r = subprocess.run([sys.executable, BACKEND_TEST, str(tmp_path), "-k", "add|relu", "--executor", "linear"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "passed 2 failed 0 errors 0 skipped 0" in r.stdout, r.stdout + r.stderr
