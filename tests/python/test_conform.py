"""sonnx.conform on a suite made here: one test whose expected output is right, one whose expected
output is wrong, one whose model breaks a rule."""
import os
import shutil

import numpy as np
import onnx
from conftest import make_model
from onnx import TensorProto, helper, numpy_helper

import sonnx


def write_test(root, name, model, inputs, outputs):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"))
    onnx.save(model, os.path.join(d, "model.onnx"))
    for kind, values in (("input", inputs), ("output", outputs)):
        for i, (n, v) in enumerate(values):
            with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, i)), "wb") as f:
                f.write(numpy_helper.from_array(v, n).SerializeToString())


def test_conform_reports_each_test(tmp_path, broken):
    model = make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [("x", TensorProto.FLOAT, (4,))],
                       [("y", TensorProto.FLOAT, (4,))])
    x = np.array([-1, 0, 2, -3], np.float32)
    write_test(str(tmp_path), "test_relu_right", model, [("x", x)], [("y", np.maximum(x, 0))])
    write_test(str(tmp_path), "test_relu_wrong", model, [("x", x)], [("y", np.maximum(x, 0) + 1)])
    os.makedirs(tmp_path / "test_broken" / "test_data_set_0")
    shutil.copy(broken, tmp_path / "test_broken" / "model.onnx")

    for executor in ("reference", "linear"):
        report = sonnx.conform([str(tmp_path)], executor=executor)
        status = {t["name"]: t["status"] for t in report["tests"]}
        assert status == {"test_relu_right": "passed", "test_relu_wrong": "failed", "test_broken": "errored"}, status
        s = report["summary"]
        assert (s["total"], s["passed"], s["failed"], s["errored"]) == (3, 1, 1, 1)
        wrong = next(t for t in report["tests"] if t["name"] == "test_relu_wrong")
        assert wrong["max_abs_error"] == 1.0

    only = sonnx.conform(str(tmp_path), filter="right", isolate=False)
    assert [t["name"] for t in only["tests"] if t["status"] != "skipped"] == ["test_relu_right"]
