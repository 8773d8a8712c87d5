// Conversion between ONNX's TensorProto / SequenceProto / OptionalProto / MapProto and our Tensor /
// Value.
#pragma once
#include <filesystem>
#include <string>

#include <onnx/onnx_pb.h>
#include <onnx/onnx-data_pb.h>

#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

// Reads a TensorProto. External data is read from `base_dir`; a location that is absolute, contains
// "..", or resolves (through symlinks) outside base_dir is refused with LoadError. Malformed
// content (a data count that does not match the shape) is a LoadError too.
// External data is memory-mapped read-only and becomes the tensor's storage without a copy.
Tensor tensor_from_proto(const onnx::TensorProto& proto, const std::filesystem::path& base_dir = {});
// The same, taking over the proto's raw_data as the tensor's storage (no copy); the proto is left
// without it.
Tensor tensor_from_proto(onnx::TensorProto&& proto, const std::filesystem::path& base_dir = {});
onnx::TensorProto tensor_to_proto(const Tensor& t, const std::string& name = "");

Value value_from_sequence_proto(const onnx::SequenceProto& proto, const std::filesystem::path& base_dir = {});
Value value_from_optional_proto(const onnx::OptionalProto& proto, const std::filesystem::path& base_dir = {});
// A MapProto: keys (an integer type or string) and a SequenceProto of as many one-element tensors.
// LoadError for other values (a map of sequences or maps, which no operator makes or reads), for
// counts that differ and for a key given twice.
Value value_from_map_proto(const onnx::MapProto& proto, const std::filesystem::path& base_dir = {});
onnx::SequenceProto value_to_sequence_proto(const Value& v, const std::string& name = "");
onnx::OptionalProto value_to_optional_proto(const Value& v, const std::string& name = "");
onnx::MapProto value_to_map_proto(const Value& v, const std::string& name = "");  // values as 0-D tensors

// Resolves an external-data location against the model directory, refusing escapes (see above).
std::filesystem::path resolve_external_location(const std::filesystem::path& base_dir, const std::string& location);

// Reads a .pb file holding a TensorProto, SequenceProto, OptionalProto or MapProto, as `kind` says
// ("tensor" or "", "sequence", "optional", "map").
Value read_value_pb(const std::filesystem::path& file, const std::string& kind = "");
// The kind of .pb file that holds a value of declared type `t` ("tensor" for a tensor or an unknown
// type), for read_value_pb.
std::string value_pb_kind(const TypeInfo& t);
void write_value_pb(const std::filesystem::path& file, const Value& v, const std::string& name);

}  // namespace sonnx
