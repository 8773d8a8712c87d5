"""Element types crossing between numpy and sonnx: every numeric dtype, float16 and bool included,
strings and sequences."""
import numpy as np
import pytest
from conftest import NUMPY_TO_ONNX, identity_model, make_model
from onnx import TensorProto, helper

import sonnx


@pytest.mark.parametrize("dtype", list(NUMPY_TO_ONNX))
def test_identity_keeps_type_and_bits(dtype):
    rng = np.random.default_rng(7)
    if dtype == np.bool_:
        x = rng.integers(0, 2, (2, 3)).astype(np.bool_)
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, (2, 3), dtype=dtype, endpoint=True)
    else:
        x = rng.standard_normal((2, 3)).astype(dtype)
    for executor in ("reference", "linear"):
        y = sonnx.run(identity_model(NUMPY_TO_ONNX[dtype]), {"x": x}, executor=executor)["y"]
        assert y.dtype == x.dtype and y.shape == x.shape
        assert y.tobytes() == x.tobytes()


def test_float16_arithmetic_rounds_as_numpy():
    model = make_model([helper.make_node("Add", ["a", "b"], ["c"], name="add")],
                       [("a", TensorProto.FLOAT16, (64,)), ("b", TensorProto.FLOAT16, (64,))], [("c", TensorProto.FLOAT16, (64,))])
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal(64) * 100).astype(np.float16), (rng.standard_normal(64)).astype(np.float16)
    c = sonnx.run(model, {"a": a, "b": b})["c"]
    assert c.dtype == np.float16
    np.testing.assert_array_equal(c, a + b)  # float16 + float16 is exact in float32, then rounded once


def test_bool_logic():
    model = make_model([helper.make_node("And", ["a", "b"], ["c"], name="and"), helper.make_node("Not", ["c"], ["d"], name="not")],
                       [("a", TensorProto.BOOL, (4,)), ("b", TensorProto.BOOL, (4,))], [("d", TensorProto.BOOL, (4,))])
    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    d = sonnx.run(model, {"a": a, "b": b})["d"]
    assert d.dtype == np.bool_
    np.testing.assert_array_equal(d, ~(a & b))


def test_strings():
    x = np.array(["ab", "", "ünï"], dtype=object)
    y = sonnx.run(identity_model(TensorProto.STRING, (3,)), {"x": x})["y"]
    assert y.dtype == object and list(y) == ["ab", "", "ünï"]
    y = sonnx.run(identity_model(TensorProto.STRING, (3,)), {"x": np.array(["ab", "", "ünï"])})["y"]
    assert list(y) == ["ab", "", "ünï"]


def test_sequences_are_lists():
    model = make_model([helper.make_node("SequenceConstruct", ["a", "b"], ["s"], name="seq"),
                        helper.make_node("SequenceAt", ["s", "i"], ["y"], name="at")],
                       [("a", TensorProto.FLOAT, (2,)), ("b", TensorProto.FLOAT, (2,)), ("i", TensorProto.INT64, ())],
                       [("y", TensorProto.FLOAT, (2,))])
    a, b = np.array([1, 2], np.float32), np.array([3, 4], np.float32)
    np.testing.assert_array_equal(sonnx.run(model, {"a": a, "b": b, "i": np.array(1, np.int64)})["y"], b)


def test_a_bfloat16_input_takes_float32_values_or_uint16_bits():
    # numpy has no bfloat16: a declared bfloat16 input takes float32 values, rounded to nearest even
    # as Cast does, or the uint16 bit patterns; the output (float) shows the bfloat16 values read.
    model = make_model([helper.make_node("Cast", ["x"], ["y"], name="cast", to=TensorProto.FLOAT)],
                       [("x", TensorProto.BFLOAT16, (4,))], [("y", TensorProto.FLOAT, (4,))])
    # 1 + 2^-8 is halfway between the bfloat16 values 1 and 1 + 2^-7: to even, 1. 1 + 3·2^-8 is
    # halfway between 1 + 2^-7 and 1 + 2^-6: to even, 1 + 2^-6.
    x = np.array([1.0, -0.5, 1 + 2.0**-8, 1 + 3 * 2.0**-8], np.float32)
    np.testing.assert_array_equal(sonnx.run(model, {"x": x})["y"], [1.0, -0.5, 1.0, 1 + 2.0**-6])
    bits = np.array([0x3F80, 0xBF00, 0x4049, 0x0000], np.uint16)  # 1, -0.5, 3.140625, 0
    np.testing.assert_array_equal(sonnx.run(model, {"x": bits})["y"], [1.0, -0.5, 3.140625, 0.0])
    with pytest.raises(sonnx.Trap):
        sonnx.run(model, {"x": np.ones(4, np.float64)})
