"""Writing one ONNX backend-test directory: the model and its test data sets.

A test is a `Case`: its name (without the test_sklearn_ prefix), the model, and data sets of
inputs and expected outputs. A value is a numpy array (a TensorProto), a dict (a MapProto) or a
list of dicts (a SequenceProto of MapProtos). The map protos are built here by hand: onnx 1.12's
numpy_helper.from_dict takes a numpy dtype for a Python type and fails on every key.
"""
import os
from dataclasses import dataclass, field

import numpy as np
from onnx import MapProto, SequenceProto, TensorProto, TypeProto, helper, numpy_helper

IR_VERSION = 8
# The ai.onnx opset beside each ai.onnx.ml opset: the one of the onnx release that brought it
# (ml 1-3: onnx 1.12's 17, the newest it knows; ml 4: 1.15's 20; ml 5: 1.16's 21).
ONNX_OPSET_FOR_ML = {1: 17, 2: 17, 3: 17, 4: 20, 5: 21}

F32, F64, I64, STR = TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.INT64, TensorProto.STRING


@dataclass
class Case:
    name: str
    model: object
    data_sets: list = field(default_factory=list)  # [(inputs list, outputs list)]


def make_model(nodes, inputs, outputs, ml_opset, initializers=()):
    graph = helper.make_graph(list(nodes), "sklearn", list(inputs), list(outputs), initializer=list(initializers))
    opsets = [helper.make_opsetid("", ONNX_OPSET_FOR_ML[ml_opset]), helper.make_opsetid("ai.onnx.ml", ml_opset)]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="sonnx tests/sklearn")
    model.ir_version = IR_VERSION
    return model


def ml_node(op, inputs, outputs, **attrs):
    return helper.make_node(op, list(inputs), list(outputs), domain="ai.onnx.ml", **attrs)


def tensor_info(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, list(shape))


def map_type(key_elem, value_elem):
    """map(key, tensor(value)) (onnx 1.12's helper has no make_map_type_proto)."""
    t = TypeProto()
    t.map_type.key_type = key_elem
    t.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(value_elem, None))
    return t


def seq_map_info(name, key_elem, value_elem=F32):
    """A value of type seq(map(key, value)), as ZipMap writes."""
    return helper.make_value_info(name, helper.make_sequence_type_proto(map_type(key_elem, value_elem)))


def map_info(name, key_elem, value_elem=F32):
    return helper.make_value_info(name, map_type(key_elem, value_elem))


def map_proto(d, value_dtype=np.float32):
    """A MapProto: the keys, and the values as a sequence of scalar tensors of the same length."""
    m = MapProto()
    keys = list(d.keys())
    if all(isinstance(k, str) for k in keys):
        m.key_type = STR
        m.string_keys.extend(k.encode() for k in keys)
    else:
        m.key_type = I64
        m.keys.extend(int(k) for k in keys)
    m.values.elem_type = SequenceProto.TENSOR
    m.values.tensor_values.extend(numpy_helper.from_array(np.array(d[k], dtype=value_dtype)) for k in keys)
    return m


def value_proto(v):
    if isinstance(v, dict):
        return map_proto(v)
    if isinstance(v, list):
        s = SequenceProto()
        s.elem_type = SequenceProto.MAP
        s.map_values.extend(map_proto(d) for d in v)
        return s
    return numpy_helper.from_array(v)


def write_case(out_dir, case):
    """Writes OUT/test_sklearn_<name>/ and returns its path."""
    d = os.path.join(out_dir, "test_sklearn_" + case.name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.onnx"), "wb") as f:
        f.write(case.model.SerializeToString())
    for i, (inputs, outputs) in enumerate(case.data_sets):
        ds = os.path.join(d, f"test_data_set_{i}")
        os.makedirs(ds, exist_ok=True)
        for kind, values in (("input", inputs), ("output", outputs)):
            for k, v in enumerate(values):
                with open(os.path.join(ds, f"{kind}_{k}.pb"), "wb") as f:
                    f.write(value_proto(v).SerializeToString())
    return d
