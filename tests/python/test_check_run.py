"""sonnx.load / check / run / Session: every way to give a model, every executor, many threads."""
import concurrent.futures

import numpy as np
import onnx
import pytest

import sonnx


def test_check_takes_a_path_bytes_a_model_proto_or_a_model(mlp):
    with open(mlp, "rb") as f:
        data = f.read()
    for model in (mlp, data, onnx.load(mlp), sonnx.load(mlp)):
        assert [d for d in sonnx.check(model, profile="sonnx") if d.severity == "error"] == []


def test_check_reports_the_broken_rule(broken):
    found = sonnx.check(broken)
    assert "STRUCT-SSA" in [d.rule for d in found]
    d = next(d for d in found if d.rule == "STRUCT-SSA")
    assert d.severity == "error" and d.message and d.graph == "main"
    assert d.as_dict()["rule"] == "STRUCT-SSA"
    assert "STRUCT-SSA" in str(d)


def test_model_describes_its_inputs_and_outputs(mlp):
    m = sonnx.load(mlp)
    assert [name for name, _ in m.inputs] == ["X"]
    assert [name for name, _ in m.outputs] == ["Y"]
    assert "float" in m.inputs[0][1]
    assert m.opset_imports[""] > 0


@pytest.mark.parametrize("executor", ["reference", "linear", "dataflow", "parallel"])
def test_every_executor_computes_the_model(mlp, executor):
    for x in ([[1.0, 2.0]], [[-3.0, 1.0]], [[0.25, 0.5]]):
        x = np.array(x, np.float32)
        out = sonnx.run(mlp, {"X": x}, executor=executor, threads=2)
        assert list(out) == ["Y"]
        expected = np.maximum(0, x.sum()) * np.ones((1, 3), np.float32)
        assert out["Y"].dtype == np.float32 and out["Y"].shape == (1, 3)
        np.testing.assert_array_equal(out["Y"], expected)


def test_a_session_on_a_device_set_computes_the_model(mlp):
    x = np.array([[1.5, -4.0]], np.float32)
    want = sonnx.Session(mlp, executor="linear").run({"X": x})["Y"]
    for devices in (["cpu"], ["reference"], ["reference", "cpu"]):
        got = sonnx.Session(mlp, devices=devices).run({"X": x})["Y"]
        np.testing.assert_array_equal(got, want)
    got = sonnx.Session(mlp, devices=["cpu", "reference"], assign="profile").run({"X": x})["Y"]
    np.testing.assert_array_equal(got, want)


def test_a_session_runs_from_many_threads(mlp):
    session = sonnx.Session(mlp, executor="parallel", threads=2)
    assert session.executor == "parallel"

    def one(i):
        x = np.array([[i, 0.5]], np.float32)
        return np.array_equal(session.run({"X": x})["Y"], np.full((1, 3), i + 0.5, np.float32))

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert all(pool.map(one, range(200)))


def test_outputs_are_owned_arrays(mlp):
    out = sonnx.run(mlp, {"X": np.array([[1, 2]], np.float32)})["Y"]
    assert out.flags["C_CONTIGUOUS"]
    assert not out.flags["OWNDATA"]  # zero copy: the array's base holds sonnx's tensor
    out[0, 0] = 7  # and it is the caller's to change
    assert out[0, 0] == 7


def test_inputs_need_not_be_contiguous(mlp):
    x = np.array([[1, 9], [2, 9]], np.float32).T[:1]  # a strided view: [[1, 2]]
    assert not x.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(sonnx.run(mlp, {"X": x})["Y"], np.full((1, 3), 3, np.float32))


def test_enclose_contains_the_real_result(mlp):
    x = np.array([[0.1, 0.2]], np.float32)
    lower, upper = sonnx.enclose(mlp, {"X": x})["Y"]
    exact = float(x[0, 0]) + float(x[0, 1])  # in doubles, exact for two floats
    assert lower.dtype == np.float64 and lower.shape == (1, 3)
    assert np.all(lower <= exact) and np.all(exact <= upper)


def test_help_documents_the_package():
    assert "check" in sonnx.__doc__ and "Session" in sonnx.__doc__
    for f in (sonnx.load, sonnx.check, sonnx.run, sonnx.Session, sonnx.conform, sonnx.enclose):
        assert f.__doc__ and len(f.__doc__) > 40
    assert sonnx.executors() == ["reference", "linear", "dataflow", "parallel"]
    assert sonnx.__version__.count(".") == 2
