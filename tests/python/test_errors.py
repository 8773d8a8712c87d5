"""Bad input gives a clear exception of the right class, never a crash."""
import numpy as np
import pytest
from conftest import identity_model
from onnx import TensorProto

import sonnx


def test_exceptions_form_one_family():
    for e in (sonnx.LoadError, sonnx.CheckFailed, sonnx.Unsupported, sonnx.Trap, sonnx.Undetermined, sonnx.InternalError):
        assert issubclass(e, sonnx.Error) and issubclass(e, Exception)


def test_unreadable_models_are_load_errors(tmp_path, mlp):
    with pytest.raises(sonnx.LoadError, match="no such file"):
        sonnx.check(str(tmp_path / "missing.onnx"))
    with pytest.raises(sonnx.LoadError, match="not a valid ONNX ModelProto"):
        sonnx.check(b"this is not a protobuf model")
    with pytest.raises(sonnx.LoadError):
        sonnx.check(b"")
    with open(mlp, "rb") as f:
        half = f.read()[:100]
    with pytest.raises(sonnx.LoadError):
        sonnx.run(half, {})
    with pytest.raises(sonnx.LoadError, match="expected a path"):
        sonnx.check(42)
    with pytest.raises(sonnx.LoadError, match="profile"):
        sonnx.check(mlp, profile="no-such-profile")


def test_bad_device_sets_are_load_errors(mlp):
    with pytest.raises(sonnx.LoadError, match="no device is called 'npu'"):
        sonnx.Session(mlp, devices=["npu"])
    with pytest.raises(sonnx.LoadError, match="named twice"):
        sonnx.Session(mlp, devices=["cpu", "cpu"])
    with pytest.raises(sonnx.LoadError, match="cannot load backend plugin"):
        sonnx.Session(mlp, devices=["cpu"], plugins=["/no/such/plugin.so"])
    with pytest.raises(sonnx.LoadError, match="assign"):
        sonnx.Session(mlp, devices=["cpu"], assign="fastest")


def test_a_model_failing_the_check_is_not_run(broken):
    with pytest.raises(sonnx.CheckFailed) as e:
        sonnx.Session(broken)
    assert "STRUCT-SSA" in str(e.value)
    assert "STRUCT-SSA" in [d.rule for d in e.value.diagnostics]


def test_wrong_inputs_are_traps(mlp):
    session = sonnx.Session(mlp)
    with pytest.raises(sonnx.Trap):
        session.run({"X": np.ones((1, 2), np.int64)})  # wrong element type
    with pytest.raises(sonnx.Trap):
        session.run({"X": np.ones((2, 2), np.float32)})  # wrong shape
    with pytest.raises(sonnx.Trap):
        session.run({"X": np.ones((1, 2), np.float32), "Z": np.ones(1, np.float32)})  # no such input
    with pytest.raises(sonnx.Trap):
        session.run({})  # X missing
    with pytest.raises(sonnx.LoadError, match="expected a numpy array"):
        session.run({"X": object()})
    with pytest.raises(sonnx.LoadError, match="no ONNX element type"):
        session.run({"X": np.array(["2020-01-01"], dtype="datetime64[D]")})
    # Still usable afterwards.
    np.testing.assert_array_equal(session.run({"X": np.ones((1, 2), np.float32)})["Y"], np.full((1, 3), 2, np.float32))


def test_bad_options_are_load_errors(mlp):
    with pytest.raises(sonnx.LoadError, match="unknown executor"):
        sonnx.Session(mlp, executor="no-such-executor")
    with pytest.raises(sonnx.LoadError, match="threads"):
        sonnx.Session(mlp, threads=0)
    with pytest.raises(sonnx.LoadError, match="semantics"):
        sonnx.enclose(mlp, {"X": np.ones((1, 2), np.float32)}, semantics="no-such-semantics")
    with pytest.raises(sonnx.LoadError):
        sonnx.conform(["/no/such/directory"])


def test_an_absurd_shape_is_refused_not_allocated():
    model = identity_model(TensorProto.FLOAT, ("n", "m"))
    huge = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), shape=(1 << 20, 1 << 20), strides=(0, 0))  # 4 TiB
    with pytest.raises((sonnx.Error, MemoryError)):
        sonnx.run(model, {"x": huge})
