#include "tensor_proto.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "sonnx/errors.h"
#include "packing.h"

namespace sonnx {
namespace fs = std::filesystem;

fs::path resolve_external_location(const fs::path& base_dir, const std::string& location) {
  fs::path loc(location);
  if (location.empty()) throw LoadError("external data: empty location");
  if (location.find('\0') != std::string::npos) throw LoadError("external data: location contains a NUL byte; refused");
  if (loc.is_absolute()) throw LoadError("external data: absolute location '" + location + "' refused");
  for (const auto& part : loc)
    if (part == "..") throw LoadError("external data: location '" + location + "' contains '..'; refused");
  std::error_code ec;
  fs::path base = fs::weakly_canonical(base_dir.empty() ? fs::current_path() : base_dir, ec);
  fs::path full = fs::weakly_canonical(base / loc, ec);
  if (ec) throw LoadError("external data: cannot resolve '" + location + "': " + ec.message());
  auto rel = full.lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..")
    throw LoadError("external data: location '" + location + "' resolves outside the model directory; refused");
  return full;
}

namespace {

// Bytes that something keeps alive: a memory-mapped region of an external-data file, or the
// raw_data string taken over from a TensorProto.
struct Bytes {
  const std::byte* data = nullptr;
  size_t size = 0;
  std::shared_ptr<const void> owner;
  std::string_view view() const { return {reinterpret_cast<const char*>(data), size}; }
};

// Maps the external bytes of a tensor that should hold `expected_bytes`, read-only (the pages are
// read on first use and never copied to the heap). The size is checked against the file first, so
// a hostile length cannot map or allocate beyond it.
Bytes map_external(const onnx::TensorProto& p, const fs::path& base_dir, size_t expected_bytes) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : p.external_data()) {
    try {
      if (kv.key() == "location") location = kv.value();
      else if (kv.key() == "offset") offset = std::stoll(kv.value());
      else if (kv.key() == "length") length = std::stoll(kv.value());
    } catch (const std::exception&) {
      throw LoadError("external data: bad " + kv.key() + " '" + kv.value() + "'");
    }
  }
  fs::path file = resolve_external_location(base_dir, location);
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) throw LoadError("external data: '" + location + "' is not a regular file");
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw LoadError("external data: cannot open '" + file.string() + "'");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw LoadError("external data: cannot size '" + location + "'");
  }
  int64_t file_size = st.st_size;
  auto refuse = [&](const std::string& why) {
    ::close(fd);
    throw LoadError(why);
  };
  if (offset < 0 || offset > file_size) refuse("external data: offset out of range in '" + location + "'");
  if (length < 0) length = file_size - offset;
  if (length > file_size - offset) refuse("external data: length past the end of '" + location + "'");
  if (static_cast<uint64_t>(length) != expected_bytes)
    refuse("tensor '" + p.name() + "': " + std::to_string(length) + " bytes of data in '" + location + "', " +
           std::to_string(expected_bytes) + " expected");
  Bytes b;
  b.size = static_cast<size_t>(length);
  if (length == 0) {
    ::close(fd);
    return b;
  }
  auto page = static_cast<int64_t>(::sysconf(_SC_PAGESIZE));
  int64_t start = offset / page * page;
  size_t span = static_cast<size_t>(offset - start + length);
  void* m = ::mmap(nullptr, span, PROT_READ, MAP_PRIVATE, fd, start);
  ::close(fd);
  if (m == MAP_FAILED) throw LoadError("external data: cannot map '" + location + "'");
  b.owner = std::shared_ptr<const void>(m, [span](const void* q) { ::munmap(const_cast<void*>(q), span); });
  b.data = static_cast<const std::byte*>(m) + (offset - start);
  return b;
}

// Whether a tensor of `type` can use raw little-endian bytes as its storage as they are (the
// other types are unpacked or normalised by deserialize_elements).
bool raw_is_storage(DType type) {
  switch (type) {
    case DType::Float:
    case DType::Double:
    case DType::Float16:
    case DType::BFloat16:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32:
    case DType::UInt64: return true;
    default: return false;
  }
}

template <class T, class Src>
void copy_field(Tensor& t, const Src& field, const char* what) {
  if (static_cast<int64_t>(field.size()) != t.size())
    throw LoadError("tensor data: " + std::to_string(field.size()) + " values in " + what + " for " + std::to_string(t.size()) +
                    " elements");
  T* out = t.data<T>();
  for (int64_t i = 0; i < t.size(); ++i) {
    if constexpr (std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t>) out[i].bits = static_cast<uint16_t>(field[i]);
    else out[i] = static_cast<T>(field[i]);
  }
}

template <class T, class Src>
void copy_complex(Tensor& t, const Src& field, const char* what) {
  if (static_cast<int64_t>(field.size()) != 2 * t.size())
    throw LoadError(std::string("tensor data: wrong number of values in ") + what);
  T* out = t.data<T>();
  for (int64_t i = 0; i < t.size(); ++i) out[i] = T(field[2 * i], field[2 * i + 1]);
}

// The small types in int32_data: one int32 per serialized byte (a float8 bit pattern, or two 4-bit
// or four 2-bit elements packed as in raw_data), each in [0, 255].
void copy_small_from_int32(Tensor& t, const onnx::TensorProto& p) {
  std::string bytes;
  bytes.reserve(static_cast<size_t>(p.int32_data_size()));
  for (int32_t v : p.int32_data()) {
    if (v < 0 || v > 255)
      throw LoadError("tensor '" + p.name() + "': int32_data value " + std::to_string(v) + " is not a byte of " +
                      std::string(dtype_name(t.dtype())) + " data");
    bytes.push_back(static_cast<char>(v));
  }
  deserialize_elements(t, bytes);
}

// How many values the typed data field for `type` holds (complex types count value pairs).
int64_t typed_field_count(const onnx::TensorProto& p, DType type) {
  switch (type) {
    case DType::String: return p.string_data_size();
    case DType::Float: return p.float_data_size();
    case DType::Complex64: return p.float_data_size() / 2;
    case DType::Double: return p.double_data_size();
    case DType::Complex128: return p.double_data_size() / 2;
    case DType::Int64: return p.int64_data_size();
    case DType::UInt64:
    case DType::UInt32: return p.uint64_data_size();
    default: return p.int32_data_size();  // int32 and narrower, bool, float16, bfloat16
  }
}

}  // namespace

namespace {

// `take`: the same proto, whose raw_data may be taken over (null: copy what is needed).
Tensor read_tensor_proto(const onnx::TensorProto& p, const fs::path& base_dir, onnx::TensorProto* take) {
  if (!is_valid_dtype(p.data_type()))
    throw LoadError("tensor '" + p.name() + "': unknown data type " + std::to_string(p.data_type()));
  auto type = static_cast<DType>(p.data_type());
  Shape shape(p.dims().begin(), p.dims().end());
  int64_t count;
  try {
    count = shape_size(shape);
  } catch (const Trap& e) {
    throw LoadError("tensor '" + p.name() + "': " + e.what());
  }
  // The data present must match the shape before the tensor is allocated: a small file must not
  // be able to declare a huge shape and make us allocate it.
  bool external = p.data_location() == onnx::TensorProto::EXTERNAL;
  auto expected_bytes = serialized_size(type, count);
  // Values the typed field must hold: the 4- and 2-bit types keep packed bytes in int32_data.
  auto expected_values = is_sub_byte(type) ? static_cast<int64_t>(expected_bytes) : count;
  bool raw_form = type != DType::String && (external || p.has_raw_data());
  Bytes raw;
  if (type == DType::String && external) {
    throw LoadError("tensor '" + p.name() + "': string tensors cannot be external");
  } else if (external) {
    raw = map_external(p, base_dir, expected_bytes);
  } else if (raw_form && take && raw_is_storage(type) && p.raw_data().size() == expected_bytes) {
    auto taken = std::shared_ptr<std::string>(take->release_raw_data());
    raw = {reinterpret_cast<const std::byte*>(taken->data()), taken->size(), taken};
  } else if (raw_form) {
    raw = {reinterpret_cast<const std::byte*>(p.raw_data().data()), p.raw_data().size(), nullptr};
  } else if (count > 0 && typed_field_count(p, type) != expected_values) {
    throw LoadError("tensor '" + p.name() + "': " + std::to_string(typed_field_count(p, type)) + " values for shape " +
                    shape_str(shape) + " of " + std::string(dtype_name(type)));
  }
  if (raw_form && raw.size != expected_bytes)
    throw LoadError("tensor '" + p.name() + "': " + std::to_string(raw.size) + " bytes of data for shape " + shape_str(shape) +
                    " of " + std::string(dtype_name(type)));
  // ONNX raw data is little-endian, as is this host: kept bytes (mapped, or taken over) become the
  // storage as they are when aligned for the type, without a copy.
  if (raw_form && raw.owner && raw_is_storage(type) && count > 0 &&
      reinterpret_cast<uintptr_t>(raw.data) % dtype_size(type) == 0)
    return Tensor::shared(type, shape, raw.data, raw.owner);
  Tensor t(type, shape);
  if (type == DType::String) {
    copy_field<std::string>(t, p.string_data(), "string_data");
    return t;
  }
  if (raw_form) {
    deserialize_elements(t, raw.view());
    return t;
  }
  if (t.size() == 0) return t;
  if (is_small_type(type)) {
    copy_small_from_int32(t, p);
    return t;
  }
  switch (type) {
    case DType::Float: copy_field<float>(t, p.float_data(), "float_data"); break;
    case DType::Double: copy_field<double>(t, p.double_data(), "double_data"); break;
    case DType::Int64: copy_field<int64_t>(t, p.int64_data(), "int64_data"); break;
    case DType::UInt64: copy_field<uint64_t>(t, p.uint64_data(), "uint64_data"); break;
    case DType::UInt32: copy_field<uint32_t>(t, p.uint64_data(), "uint64_data"); break;
    case DType::Int32: copy_field<int32_t>(t, p.int32_data(), "int32_data"); break;
    case DType::Int16: copy_field<int16_t>(t, p.int32_data(), "int32_data"); break;
    case DType::Int8: copy_field<int8_t>(t, p.int32_data(), "int32_data"); break;
    case DType::UInt16: copy_field<uint16_t>(t, p.int32_data(), "int32_data"); break;
    case DType::UInt8: copy_field<uint8_t>(t, p.int32_data(), "int32_data"); break;
    case DType::Bool: copy_field<bool>(t, p.int32_data(), "int32_data"); break;
    case DType::Float16: copy_field<float16_t>(t, p.int32_data(), "int32_data"); break;
    case DType::BFloat16: copy_field<bfloat16_t>(t, p.int32_data(), "int32_data"); break;
    case DType::Complex64: copy_complex<std::complex<float>>(t, p.float_data(), "float_data"); break;
    case DType::Complex128: copy_complex<std::complex<double>>(t, p.double_data(), "double_data"); break;
    default: throw LoadError("tensor '" + p.name() + "': unsupported data type");
  }
  return t;
}

}  // namespace

Tensor tensor_from_proto(const onnx::TensorProto& p, const fs::path& base_dir) {
  return read_tensor_proto(p, base_dir, nullptr);
}

Tensor tensor_from_proto(onnx::TensorProto&& p, const fs::path& base_dir) { return read_tensor_proto(p, base_dir, &p); }

onnx::TensorProto tensor_to_proto(const Tensor& t, const std::string& name) {
  onnx::TensorProto p;
  p.set_name(name);
  p.set_data_type(static_cast<int32_t>(t.dtype()));
  for (int64_t d : t.shape()) p.add_dims(d);
  if (t.dtype() == DType::String) {
    for (const auto& s : t.values<std::string>()) p.add_string_data(s);
  } else {
    p.set_raw_data(serialize_elements(t));
  }
  return p;
}

Value value_from_sequence_proto(const onnx::SequenceProto& p, const fs::path& base_dir) {
  std::vector<Value> elems;
  DType elem = DType::Undefined;
  switch (p.elem_type()) {
    case onnx::SequenceProto::TENSOR:
      for (const auto& t : p.tensor_values()) {
        elems.emplace_back(tensor_from_proto(t, base_dir));
        elem = elems.back().tensor.dtype();
      }
      break;
    case onnx::SequenceProto::SEQUENCE:
      for (const auto& s : p.sequence_values()) elems.push_back(value_from_sequence_proto(s, base_dir));
      break;
    case onnx::SequenceProto::OPTIONAL:
      for (const auto& o : p.optional_values()) elems.push_back(value_from_optional_proto(o, base_dir));
      break;
    case onnx::SequenceProto::MAP:
      for (const auto& m : p.map_values()) elems.push_back(value_from_map_proto(m, base_dir));
      break;
    case onnx::SequenceProto::UNDEFINED: break;
    default: throw LoadError("sequence '" + p.name() + "': unsupported element kind");
  }
  return Value::make_sequence(std::move(elems), elem);
}

Value value_from_optional_proto(const onnx::OptionalProto& p, const fs::path& base_dir) {
  switch (p.elem_type()) {
    case onnx::OptionalProto::TENSOR:
      if (p.has_tensor_value()) return Value::make_optional(Value(tensor_from_proto(p.tensor_value(), base_dir)));
      return Value::make_optional(std::nullopt);
    case onnx::OptionalProto::SEQUENCE:
      if (p.has_sequence_value()) return Value::make_optional(value_from_sequence_proto(p.sequence_value(), base_dir));
      return Value::make_optional(std::nullopt);
    case onnx::OptionalProto::MAP:
      if (p.has_map_value()) return Value::make_optional(value_from_map_proto(p.map_value(), base_dir));
      return Value::make_optional(std::nullopt);
    case onnx::OptionalProto::UNDEFINED: return Value::make_optional(std::nullopt);
    default: throw LoadError("optional '" + p.name() + "': unsupported element kind");
  }
}

namespace {

// The keys of a MapProto as a 1-D tensor of its key type.
Tensor map_keys_from_proto(const onnx::MapProto& p) {
  const std::string what = "map '" + p.name() + "'";
  if (!is_valid_dtype(p.key_type()))
    throw LoadError(what + ": key type " + std::to_string(p.key_type()) + " is not an element type");
  const auto key_type = static_cast<DType>(p.key_type());
  if (key_type == DType::String) {
    if (p.keys_size() > 0) throw LoadError(what + ": string keys given as integers");
    Tensor keys(DType::String, {p.string_keys_size()});
    for (int i = 0; i < p.string_keys_size(); ++i) keys.data<std::string>()[i] = p.string_keys(i);
    return keys;
  }
  if (!is_integer(key_type))
    throw LoadError(what + ": keys must be of an integer type or strings, not " + std::string(dtype_name(key_type)));
  if (p.string_keys_size() > 0) throw LoadError(what + ": " + std::string(dtype_name(key_type)) + " keys given as strings");
  Tensor keys(DType::Int64, {p.keys_size()});
  for (int i = 0; i < p.keys_size(); ++i) keys.data<int64_t>()[i] = p.keys(i);
  if (key_type == DType::Int64) return keys;
  // A narrower integer type: each key must be a value of it (the proto stores every integer key as int64).
  Tensor narrow(key_type, {p.keys_size()});
  visit_dtype(key_type, [&]<class K>() {
    if constexpr (std::is_integral_v<K>) {
      for (int i = 0; i < p.keys_size(); ++i) {
        const int64_t k = p.keys(i);
        const auto v = static_cast<K>(k);
        // uint64 keys arrive as their two's-complement int64 bits, and come back by the cast.
        if (static_cast<int64_t>(v) != k)
          throw LoadError(what + ": key " + std::to_string(k) + " is not a " + std::string(dtype_name(key_type)));
        narrow.data<K>()[i] = v;
      }
    }
  });
  return narrow;
}

}  // namespace

Value value_from_map_proto(const onnx::MapProto& p, const fs::path& base_dir) {
  const std::string what = "map '" + p.name() + "'";
  Tensor keys = map_keys_from_proto(p);
  const onnx::SequenceProto& vs = p.values();
  if (vs.elem_type() != onnx::SequenceProto::TENSOR && !(vs.elem_type() == onnx::SequenceProto::UNDEFINED && keys.size() == 0))
    throw LoadError(what + ": only maps whose values are tensors of one element are supported");
  if (vs.tensor_values_size() != keys.size())
    throw LoadError(what + ": " + std::to_string(keys.size()) + " keys but " + std::to_string(vs.tensor_values_size()) +
                    " values");
  Tensor values;
  for (int i = 0; i < vs.tensor_values_size(); ++i) {
    Tensor t = tensor_from_proto(vs.tensor_values(i), base_dir);
    if (t.size() != 1)
      throw LoadError(what + ": value " + std::to_string(i) + " has " + std::to_string(t.size()) + " elements, not one");
    if (i == 0) values = Tensor(t.dtype(), {keys.size()});
    else if (t.dtype() != values.dtype()) throw LoadError(what + ": its values have different element types");
    Tensor one = t.reshaped({1});
    if (t.dtype() == DType::String) values.data<std::string>()[i] = one.data<std::string>()[0];
    else std::memcpy(values.raw() + static_cast<size_t>(i) * dtype_size(t.dtype()), one.raw(), dtype_size(t.dtype()));
  }
  // An empty map's value type is not in the proto: float, the value type of most maps (ZipMap's).
  if (!values.defined()) values = Tensor(DType::Float, {0});
  try {
    return Value::make_map(std::move(keys), std::move(values));
  } catch (const Trap& e) {
    throw LoadError(what + ": " + e.what());
  }
}

onnx::SequenceProto value_to_sequence_proto(const Value& v, const std::string& name) {
  onnx::SequenceProto p;
  p.set_name(name);
  p.set_elem_type(onnx::SequenceProto::TENSOR);
  for (const auto& e : v.sequence) {
    if (e.is_tensor()) *p.add_tensor_values() = tensor_to_proto(e.tensor);
    else if (e.is_sequence()) {
      p.set_elem_type(onnx::SequenceProto::SEQUENCE);
      *p.add_sequence_values() = value_to_sequence_proto(e);
    } else if (e.is_optional()) {
      p.set_elem_type(onnx::SequenceProto::OPTIONAL);
      *p.add_optional_values() = value_to_optional_proto(e);
    } else if (e.is_map()) {
      p.set_elem_type(onnx::SequenceProto::MAP);
      *p.add_map_values() = value_to_map_proto(e);
    }
  }
  return p;
}

onnx::OptionalProto value_to_optional_proto(const Value& v, const std::string& name) {
  onnx::OptionalProto p;
  p.set_name(name);
  if (!v.optional) {
    p.set_elem_type(onnx::OptionalProto::UNDEFINED);
    return p;
  }
  if (v.optional->is_tensor()) {
    p.set_elem_type(onnx::OptionalProto::TENSOR);
    *p.mutable_tensor_value() = tensor_to_proto(v.optional->tensor);
  } else if (v.optional->is_sequence()) {
    p.set_elem_type(onnx::OptionalProto::SEQUENCE);
    *p.mutable_sequence_value() = value_to_sequence_proto(*v.optional);
  } else if (v.optional->is_map()) {
    p.set_elem_type(onnx::OptionalProto::MAP);
    *p.mutable_map_value() = value_to_map_proto(*v.optional);
  }
  return p;
}

onnx::MapProto value_to_map_proto(const Value& v, const std::string& name) {
  if (!v.is_map()) throw InternalError("value_to_map_proto: not a map");
  onnx::MapProto p;
  p.set_name(name);
  const Tensor& keys = v.map_keys();
  const Tensor& values = v.map_values();
  p.set_key_type(static_cast<int32_t>(keys.dtype()));
  for (int64_t i = 0; i < keys.size(); ++i) {
    if (keys.dtype() == DType::String) p.add_string_keys(keys.data<std::string>()[i]);
    else if (keys.dtype() == DType::UInt64)
      p.add_keys(static_cast<int64_t>(keys.data<uint64_t>()[i]));  // its bits, as onnx does
    else p.add_keys(keys.as_int64(i));
  }
  onnx::SequenceProto* vs = p.mutable_values();
  vs->set_elem_type(onnx::SequenceProto::TENSOR);
  for (int64_t i = 0; i < values.size(); ++i) {
    Tensor one(values.dtype(), {});
    if (values.dtype() == DType::String) one.data<std::string>()[0] = values.data<std::string>()[i];
    else std::memcpy(one.raw(), values.raw() + static_cast<size_t>(i) * dtype_size(values.dtype()), dtype_size(values.dtype()));
    *vs->add_tensor_values() = tensor_to_proto(one);
  }
  return p;
}

namespace {
std::string read_file_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw LoadError("cannot open '" + file.string() + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

Value read_value_pb(const fs::path& file, const std::string& kind) {
  std::string bytes = read_file_bytes(file);
  fs::path dir = file.parent_path();
  if (kind == "sequence") {
    onnx::SequenceProto s;
    if (!s.ParseFromString(bytes)) throw LoadError("'" + file.string() + "' is not a SequenceProto");
    return value_from_sequence_proto(s, dir);
  }
  if (kind == "optional") {
    onnx::OptionalProto o;
    if (!o.ParseFromString(bytes)) throw LoadError("'" + file.string() + "' is not an OptionalProto");
    return value_from_optional_proto(o, dir);
  }
  if (kind == "map") {
    onnx::MapProto m;
    if (!m.ParseFromString(bytes)) throw LoadError("'" + file.string() + "' is not a MapProto");
    return value_from_map_proto(m, dir);
  }
  if (!kind.empty() && kind != "tensor") throw LoadError("'" + file.string() + "': unknown kind of value '" + kind + "'");
  onnx::TensorProto t;
  if (!t.ParseFromString(bytes)) throw LoadError("'" + file.string() + "' is not a TensorProto");
  return Value(tensor_from_proto(t, dir));
}

std::string value_pb_kind(const TypeInfo& t) {
  switch (t.kind) {
    case TypeInfo::Kind::Sequence: return "sequence";
    case TypeInfo::Kind::Optional: return "optional";
    case TypeInfo::Kind::Map: return "map";
    case TypeInfo::Kind::Tensor:
    case TypeInfo::Kind::SparseTensor:
    case TypeInfo::Kind::Unknown: break;
  }
  return "tensor";
}

void write_value_pb(const fs::path& file, const Value& v, const std::string& name) {
  std::string bytes;
  if (v.is_tensor()) bytes = tensor_to_proto(v.tensor, name).SerializeAsString();
  else if (v.is_sequence()) bytes = value_to_sequence_proto(v, name).SerializeAsString();
  else if (v.is_optional()) bytes = value_to_optional_proto(v, name).SerializeAsString();
  else if (v.is_map()) bytes = value_to_map_proto(v, name).SerializeAsString();
  else throw InternalError("write_value_pb: empty value");
  std::ofstream out(file, std::ios::binary);
  out << bytes;
  if (!out) throw LoadError("cannot write '" + file.string() + "'");
}

}  // namespace sonnx
