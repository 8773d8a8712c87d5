"""sonnx.admit: a model at opset 13 with a symbolic batch dimension brought into the sonnx profile,
the admitted model written, read back by onnx and checked; what is refused, and bad fixes."""
import json

import numpy as np
import onnx
import pytest
from conftest import make_model
from onnx import TensorProto, helper, numpy_helper

import sonnx


def conv_model():
    """y = Relu(Identity(Conv(x, W))), x [N,3,5,5], W (2,3,3,3) an initializer, pads 1."""
    w = (np.arange(2 * 3 * 3 * 3, dtype=np.float32).reshape(2, 3, 3, 3) / 10 - 2).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "W"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Identity", ["c"], ["i"], name="copy"),
             helper.make_node("Relu", ["i"], ["y"], name="relu")]
    return make_model(nodes, [("x", TensorProto.FLOAT, ["N", 3, 5, 5])], [("y", TensorProto.FLOAT, ["N", 2, 5, 5])],
                      opset=13, initializers=[numpy_helper.from_array(w, "W")])


def scale_model():
    """y = Relu(x * scale), x [N,4], scale [4] an input."""
    nodes = [helper.make_node("Mul", ["x", "scale"], ["m"], name="mul"),
             helper.make_node("Relu", ["m"], ["y"], name="relu")]
    return make_model(nodes, [("x", TensorProto.FLOAT, ["N", 4]), ("scale", TensorProto.FLOAT, [4])],
                      [("y", TensorProto.FLOAT, ["N", 4])], opset=13)


@pytest.fixture
def conv_path(tmp_path):
    path = tmp_path / "conv.onnx"
    onnx.save(conv_model(), str(path))
    return path


def errors(findings):
    return [d for d in findings if d.severity == "error"]


def test_admit_brings_the_model_into_the_sonnx_profile(conv_path, tmp_path):
    a = sonnx.admit(str(conv_path), dims={"N": 2})
    assert isinstance(a, sonnx.Admission)
    assert a.admitted and not a.unchanged, a.reasons
    assert a.reasons == []
    assert a.errors_before > 0 and a.errors_after == 0
    assert a.runs == a.runs_equal == 3
    assert a.opset_from == 13 and a.opset_to > 13
    assert a.rewrites.get("upgrade", 0) > 0 and a.rewrites.get("remove-copy") == 1
    assert a.seconds >= 0

    assert isinstance(a.model_bytes, bytes) and a.model_bytes
    proto = onnx.load_from_string(a.model_bytes)
    assert {o.domain: o.version for o in proto.opset_import}[""] == a.opset_to
    assert [n.op_type for n in proto.graph.node] == ["Conv", "Relu"]
    assert [d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim] == [2, 3, 5, 5]

    out = tmp_path / "conv.sonnx.onnx"
    a.save(out)  # an os.PathLike, as a str
    assert out.read_bytes() == a.model_bytes
    assert errors(sonnx.check(str(out), profile="sonnx")) == []
    assert errors(sonnx.check(a.model_bytes, profile="sonnx")) == []

    # Both models compute the same on an input of the fixed shape.
    x = np.random.default_rng(0).standard_normal((2, 3, 5, 5)).astype(np.float32)
    np.testing.assert_array_equal(sonnx.run(str(out), {"x": x})["y"], sonnx.run(str(conv_path), {"x": x})["y"])


def test_the_reports_describe_the_admission(conv_path):
    a = sonnx.admit(conv_path, dims={"N": 2})
    report = json.loads(a.report_json)
    assert isinstance(report, dict) and report
    assert a.report_markdown.strip()
    assert "admitted" in repr(a)


def test_admit_takes_every_form_of_model(conv_path):
    proto = conv_model()
    for model in (conv_path, str(conv_path), proto, proto.SerializeToString(), sonnx.load(conv_path)):
        a = sonnx.admit(model, dims={"N": 1}, samples=2, seed=7)
        assert a.admitted, a.reasons
        assert a.runs == a.runs_equal == 2


def test_a_model_in_the_profile_is_admitted_unchanged(conv_path, tmp_path):
    admitted = sonnx.admit(conv_path, dims={"N": 2}).model_bytes
    a = sonnx.admit(admitted)
    assert a.admitted and a.unchanged
    assert a.errors_before == a.errors_after == 0
    assert a.model_bytes == b""
    with pytest.raises(ValueError, match="in the profile already"):
        a.save(tmp_path / "again.onnx")
    assert not (tmp_path / "again.onnx").exists()


def test_an_unfixed_symbolic_dimension_is_not_admitted(conv_path, tmp_path):
    a = sonnx.admit(conv_path)
    assert not a.admitted and not a.unchanged
    assert a.errors_before > 0
    assert any("--dim N=" in why for why in a.reasons), a.reasons
    assert a.model_bytes == b""
    with pytest.raises(ValueError, match="not admitted"):
        a.save(tmp_path / "out.onnx")
    assert not (tmp_path / "out.onnx").exists()


def test_admit_suggestion_names_the_command(conv_path):
    text = sonnx.admit_suggestion(conv_path)
    assert "sonnx admit" in text and "--dim N=" in text
    assert sonnx.admit_suggestion(conv_path, sonnx.check(conv_path, "sonnx"), "sonnx") == text
    admitted = sonnx.admit(conv_path, dims={"N": 2}).model_bytes
    assert sonnx.admit_suggestion(admitted) == ""


def test_a_fixed_input_becomes_a_constant_and_given_inputs_are_compared(tmp_path):
    path = tmp_path / "scale.onnx"
    onnx.save(scale_model(), str(path))
    scale = np.array([1, -2, 0.5, 3], np.float32)
    x = np.arange(8, dtype=np.float32).reshape(2, 4) - 3
    a = sonnx.admit(path, dims={"N": 2}, fixed={"scale": scale}, inputs={"x": x})
    assert a.admitted, a.reasons
    assert a.runs == a.runs_equal == 4  # the given inputs and three random sets
    assert a.rewrites.get("fix-input") == 1
    proto = onnx.load_from_string(a.model_bytes)
    assert [i.name for i in proto.graph.input] == ["x"]
    out = tmp_path / "scale.sonnx.onnx"
    a.save(str(out))
    np.testing.assert_array_equal(sonnx.run(out, {"x": x})["y"], np.maximum(0, x * scale))


def test_input_shapes_fix_a_whole_shape(tmp_path):
    path = tmp_path / "scale.onnx"
    onnx.save(scale_model(), str(path))
    a = sonnx.admit(path, input_shapes={"x": (3, 4)})
    assert a.admitted, a.reasons
    proto = onnx.load_from_string(a.model_bytes)
    assert [d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim] == [3, 4]


def test_fixes_that_do_not_apply_are_load_errors(conv_path):
    with pytest.raises(sonnx.LoadError, match="nope"):
        sonnx.admit(conv_path, dims={"N": 2}, fixed={"nope": np.zeros((1,), np.float32)})
    with pytest.raises(sonnx.LoadError, match="nope"):
        sonnx.admit(conv_path, input_shapes={"nope": (1, 2)})
    with pytest.raises(sonnx.LoadError, match="--dim M"):
        sonnx.admit(conv_path, dims={"M": 2})
    with pytest.raises(sonnx.LoadError, match="float"):
        sonnx.admit(conv_path, dims={"N": 2}, fixed={"x": np.zeros((2, 3, 5, 5), np.int32)})
    with pytest.raises(sonnx.LoadError, match="expected a numpy array"):
        sonnx.admit(conv_path, dims={"N": 2}, fixed={"x": "not an array"})
    with pytest.raises(sonnx.LoadError, match="profile"):
        sonnx.admit(conv_path, profile="no-such-profile", dims={"N": 2})


def test_an_invalid_model_is_check_failed():
    # Relu's input and output share a name: no valid ONNX model, so no admission.
    bad = make_model([helper.make_node("Relu", ["x"], ["y"], name="r")], [("x", TensorProto.FLOAT, [1])],
                     [("y", TensorProto.FLOAT, [1])], opset=13)
    bad.graph.node.append(helper.make_node("Relu", ["x"], ["y"], name="r2"))  # y defined twice
    with pytest.raises(sonnx.CheckFailed) as e:
        sonnx.admit(bad.SerializeToString())
    assert e.value.diagnostics
