"""Maps (ai.onnx.ml's map(K, V)) crossing between Python and sonnx: a map is a dict, a sequence of
maps a list of dicts. Outputs hold Python ints or strs as keys and Python floats, ints or strs as
values; inputs take the key and value types the model declares. Expected values are worked out by
hand from the operator texts (Operators-ml.md)."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import sonnx


def maps_map_type(key, value):
    t = onnx.TypeProto()
    t.map_type.key_type = key
    t.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(value, None))
    return t


def maps_model(node, inputs, outputs):
    """A one-node ai.onnx.ml model; inputs and outputs are (name, TypeProto) pairs."""
    graph = helper.make_graph([node], "g", [helper.make_value_info(n, t) for n, t in inputs],
                              [helper.make_value_info(n, t) for n, t in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("ai.onnx.ml", 1)])
    model.ir_version = 8
    return model


def zipmap_model():
    node = helper.make_node("ZipMap", ["X"], ["Z"], domain="ai.onnx.ml", name="zip", classlabels_int64s=[10, 2, 7])
    return maps_model(node, [("X", helper.make_tensor_type_proto(TensorProto.FLOAT, [2, 3]))],
                      [("Z", helper.make_sequence_type_proto(maps_map_type(TensorProto.INT64, TensorProto.FLOAT)))])


def dictvectorizer_model(key=TensorProto.STRING, value=TensorProto.FLOAT):
    node = helper.make_node("DictVectorizer", ["X"], ["Y"], domain="ai.onnx.ml", name="dv",
                            string_vocabulary=["a", "c", "b", "z"])
    return maps_model(node, [("X", maps_map_type(key, value))],
                      [("Y", helper.make_tensor_type_proto(value, [1, 4]))])


def test_zipmap_gives_a_list_of_dicts():
    x = np.array([[0.25, 0.5, 0.25], [1, 0, -2]], np.float32)
    for executor in ("reference", "linear"):
        z = sonnx.run(zipmap_model(), {"X": x}, executor=executor)["Z"]
        # Labels 10, 2, 7 name the columns of each row.
        assert z == [{10: 0.25, 2: 0.5, 7: 0.25}, {10: 1.0, 2: 0.0, 7: -2.0}]
        assert all(type(k) is int and type(v) is float for m in z for k, v in m.items())
        assert list(z[0]) == [2, 7, 10]  # in increasing key order


def test_a_dict_input_takes_the_declared_types():
    # string_vocabulary ["a", "c", "b", "z"] and {"a": 4, "c": 8} give [[4, 8, 0, 0]]; Python's 4.0
    # and 8 become the declared float values.
    y = sonnx.run(dictvectorizer_model(), {"X": {"a": 4.0, "c": 8}})["Y"]
    assert y.dtype == np.float32 and y.shape == (1, 4)
    np.testing.assert_array_equal(y, np.array([[4, 8, 0, 0]], np.float32))
    session = sonnx.Session(dictvectorizer_model(value=TensorProto.DOUBLE))
    np.testing.assert_array_equal(session.run({"X": {"z": 0.1, "b": -1.5}})["Y"], np.array([[0, 0, -1.5, 0.1]]))


def test_a_dict_that_does_not_fit_the_declared_map_is_refused():
    # Float values for a map(string, int64): no implicit conversion.
    with pytest.raises(sonnx.Trap, match="no implicit type conversion"):
        sonnx.run(dictvectorizer_model(value=TensorProto.INT64), {"X": {"a": 1.5}})
    # Integer keys for string keys.
    with pytest.raises(sonnx.Trap, match="no implicit type conversion"):
        sonnx.run(dictvectorizer_model(), {"X": {1: 1.0}})
    # Keys that are neither integers nor strings make no map at all.
    with pytest.raises(sonnx.LoadError, match="keys must be of an integer type or strings"):
        sonnx.run(dictvectorizer_model(), {"X": {1.5: 1.0}})
    # A key the declared integer type cannot hold (numpy reads 2**63 as uint64).
    castmap = maps_model(helper.make_node("CastMap", ["X"], ["Y"], domain="ai.onnx.ml", name="cm"),
                         [("X", maps_map_type(TensorProto.INT64, TensorProto.FLOAT))],
                         [("Y", helper.make_tensor_type_proto(TensorProto.FLOAT, [None]))])
    with pytest.raises(sonnx.LoadError, match="does not fit the declared int64"):
        sonnx.run(castmap, {"X": {2 ** 63: 1.0}})


def test_castmap_reads_a_dict_and_a_map_is_never_enclosed():
    castmap = maps_model(helper.make_node("CastMap", ["X"], ["Y"], domain="ai.onnx.ml", name="cm", cast_to="TO_FLOAT"),
                         [("X", maps_map_type(TensorProto.INT64, TensorProto.STRING))],
                         [("Y", helper.make_tensor_type_proto(TensorProto.FLOAT, [None]))])
    # {3: "0.5", 1: "2"} in key order 1, 3: [2, 0.5].
    y = sonnx.run(castmap, {"X": {3: "0.5", 1: "2"}})["Y"]
    np.testing.assert_array_equal(y, np.array([2, 0.5], np.float32))
    with pytest.raises(sonnx.Unsupported, match="map"):
        sonnx.enclose(castmap, {"X": {3: "0.5", 1: "2"}})
    with pytest.raises(sonnx.Unsupported, match="ZipMap"):
        sonnx.enclose(zipmap_model(), {"X": np.zeros((2, 3), np.float32)})
