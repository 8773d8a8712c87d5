#include "npy.h"

#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "packing.h"

namespace sonnx {

namespace {
const std::map<std::string, DType>& descr_types() {
  static const std::map<std::string, DType> m{{"<f4", DType::Float},     {"<f8", DType::Double},     {"<f2", DType::Float16},
                                              {"|i1", DType::Int8},      {"|u1", DType::UInt8},      {"<i2", DType::Int16},
                                              {"<u2", DType::UInt16},    {"<i4", DType::Int32},      {"<u4", DType::UInt32},
                                              {"<i8", DType::Int64},     {"<u8", DType::UInt64},     {"|b1", DType::Bool},
                                              {"<c8", DType::Complex64}, {"<c16", DType::Complex128}};
  return m;
}

// numpy has no float8/float4/int4/int2: such a tensor is written as a structured array with one
// field, named by the ONNX type, of one byte per element ("|i1" for int4/int2, "|u1" otherwise):
// {'descr': [('float8e4m3fn', '|u1')], ...}. numpy reads it (arr['float8e4m3fn'] gives the bytes,
// which ml_dtypes can view as its type); read_npy reads it back as the ONNX type.
std::string small_field_format(DType t) { return t == DType::Int4 || t == DType::Int2 ? "|i1" : "|u1"; }
}  // namespace

Tensor read_npy(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError("cannot open '" + file.string() + "'");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return LoadError("'" + file.string() + "': not a readable .npy file: " + why); };
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) throw bad("missing magic");
  int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw bad("truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    throw bad("unknown version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) throw bad("truncated header");
  std::string header = bytes.substr(header_start, header_len);
  std::smatch m;
  DType type = DType::Undefined;
  if (std::regex_search(header, m,
                        std::regex("'descr'\\s*:\\s*\\[\\s*\\(\\s*'([^']*)'\\s*,\\s*'([^']*)'\\s*\\)\\s*,?\\s*\\]"))) {
    type = dtype_from_name(m[1].str());
    if (!is_small_type(type) || m[2].str() != small_field_format(type))
      throw bad("unsupported structured dtype [('" + m[1].str() + "', '" + m[2].str() +
                "')]: only one field named by a small ONNX type (e.g. [('float8e4m3fn', '|u1')]) is read");
  } else {
    if (std::regex_search(header, std::regex("'descr'\\s*:\\s*\\[")))
      throw bad("structured dtypes are not supported (but for one field named by a small ONNX type)");
    if (!std::regex_search(header, m, std::regex("'descr'\\s*:\\s*'([^']*)'"))) throw bad("no descr");
    std::string descr = m[1];
    if (descr == "<U" || descr.rfind("<U", 0) == 0) throw bad("string arrays are not supported");
    if (descr.rfind("|V", 0) == 0)
      throw bad("dtype '" + descr +
                "' (raw bytes, as numpy saves ml_dtypes arrays) does not say its element type; "
                "save float8/float4/int4/int2 data as a one-field structured array such as [('float8e4m3fn', '|u1')]");
    auto it = descr_types().find(descr);
    if (it == descr_types().end()) throw bad("unsupported dtype '" + descr + "'");
    type = it->second;
  }
  if (std::regex_search(header, std::regex("'fortran_order'\\s*:\\s*True"))) throw bad("Fortran order is not supported");
  if (!std::regex_search(header, m, std::regex("'shape'\\s*:\\s*\\(([^)]*)\\)"))) throw bad("no shape");
  Shape shape;
  std::string dims = m[1];
  std::regex num("\\d+");
  for (auto i = std::sregex_iterator(dims.begin(), dims.end(), num); i != std::sregex_iterator(); ++i) {
    try {
      shape.push_back(std::stoll(i->str()));
    } catch (const std::exception&) {
      throw bad("dimension out of range");
    }
  }
  Tensor t;
  try {
    t = Tensor(type, shape);
  } catch (const Trap& e) {
    throw bad(e.what());
  }
  size_t data_start = header_start + header_len;
  if (bytes.size() - data_start != t.byte_size()) throw bad("data size does not match the shape");
  if (t.byte_size()) std::memcpy(t.raw(), bytes.data() + data_start, t.byte_size());
  const auto* elems = reinterpret_cast<const uint8_t*>(t.raw());
  if (is_sub_byte(type))
    for (int64_t i = 0; i < t.size(); ++i)
      if (!is_canonical_byte(type, elems[i]))
        throw bad("element " + std::to_string(i) + " (byte " + std::to_string(elems[i]) + ") is not a valid " +
                  std::string(dtype_name(type)) + " value");
  return t;
}

void write_npy(const std::filesystem::path& file, const Tensor& t) {
  std::string descr;
  for (const auto& [d, type] : descr_types())
    if (type == t.dtype()) descr = "'" + d + "'";
  if (is_small_type(t.dtype()))
    descr = "[('" + std::string(dtype_name(t.dtype())) + "', '" + small_field_format(t.dtype()) + "')]";
  if (descr.empty()) throw LoadError("cannot write " + std::string(dtype_name(t.dtype())) + " tensors as .npy");
  std::string shape = "(";
  for (size_t i = 0; i < t.shape().size(); ++i)
    shape += std::to_string(t.shape()[i]) + (t.shape().size() == 1 ? "," : i + 1 < t.shape().size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': " + descr + ", 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(file, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  out.write(reinterpret_cast<const char*>(t.raw()), static_cast<std::streamsize>(t.byte_size()));
  if (!out) throw LoadError("cannot write '" + file.string() + "'");
}

}  // namespace sonnx
