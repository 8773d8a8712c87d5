// Values in files, as `sonnx run`, `plan`, `bench`, `partition` and `enclose` read and write them:
// numpy .npy (a tensor: format 1.0-3.0, little-endian, C order; the types numpy lacks, one byte per
// element under a one-field structured descr naming the ONNX type, [('int4', '|i1')]) and ONNX
// protobuf .pb (a TensorProto, SequenceProto, OptionalProto or MapProto). Also the inputs of a
// model: read from files against its declared types, or synthetic.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "sonnx.hpp"

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

// A .npy file (by its extension), else a .pb file of `kind`: "tensor" (also ""), "sequence",
// "optional" or "map". Throws LoadError on anything it cannot read.
Value read_value_file(const std::filesystem::path& file, const std::string& kind = "");
// A tensor as .npy when the file's extension is .npy, else any value as a .pb proto named `name`.
// Throws LoadError when the file cannot be written or a .npy file is given no tensor.
void write_value_file(const std::filesystem::path& file, const Value& value, const std::string& name = "");

// The value of the model's graph input `input` (one with an initializer too) from a file, as
// read_value_file reads it (a .pb of the kind the input declares), checked against the declared
// element type and known dimensions. Throws LoadError: not an input of the model, unreadable, or
// contradicting the declaration.
Value read_input(const ModelHandle& model, const std::string& input, const std::filesystem::path& file);

// The value of graph input `input` written as numbers ("16000", "1,0.5,2"): a scalar when the input
// is declared 0-D, else a 1-D tensor, of the declared element type (a number the type does not hold
// exactly is refused). Throws LoadError.
Value read_input_text(const ModelHandle& model, const std::string& input, const std::string& numbers);
// Fills every graph input that is not in `given` and has no initializer with a tensor of its
// declared type and shape (symbolic dimensions from `dims`, else 1): float and double uniform in
// [-1, 1) from a fixed seed, other types zero, so every command feeds the same values. Throws
// LoadError when an input is not a non-string tensor of known element type and rank.
void add_synthetic_inputs(const ModelHandle& model, const std::map<std::string, int64_t>& dims, NamedValues& given);

}  // namespace sonnx
#pragma GCC visibility pop
