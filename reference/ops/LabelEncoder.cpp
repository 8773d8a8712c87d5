// LabelEncoder (ai.onnx.ml 1, 2, 4): maps each element of X through a table, keeping X's shape.
//   1: classes_strings; a string input becomes the index of its first occurrence (default_int64,
//      -1, when absent), an int64 input becomes classes_strings[i] (default_string, "_Unused", when
//      out of range).
//   2: exactly one keys_* and one values_* list of the same length; X's element type is the keys'
//      type, Y's is the values'; an element not among the keys gives the default_* of the values'
//      type. Float keys compare bitwise (so a NaN key matches that very NaN).
//   4: keys and values may also be 1-D tensors (string, int64, int32, int16, float, double), with
//      default_tensor (one element) as their default ({"_Unused"}, {-1} or {-0.0} when absent).
//      Float keys compare by value, and a NaN key matches every NaN. A repeated key: the last wins.
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>
#include <unordered_map>

#include "op_params.h"
#include "params/label_encoder.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

// Where each key sits (the last of equal keys); how keys are equal depends on the version.
class KeyIndex {
 public:
  KeyIndex(const Tensor& keys, bool bitwise_floats) : type_(keys.dtype()), bitwise_(bitwise_floats) {
    for (int64_t j = 0; j < keys.size(); ++j) {
      if (type_ == DType::String) strings_[keys.data<std::string>()[j]] = j;
      else if (type_ == DType::Float || type_ == DType::Double) {
        double v = keys.as_double(j);
        if (bitwise_) bits_[bits_of(keys, j)] = j;
        else if (std::isnan(v)) nan_ = j;
        else reals_[v] = j;
      } else ints_[keys.as_int64(j)] = j;
    }
  }
  // The key position of x's element i, or -1.
  int64_t find(const Tensor& x, int64_t i) const {
    if (type_ == DType::String) return lookup(strings_, x.data<std::string>()[i]);
    if (type_ == DType::Float || type_ == DType::Double) {
      if (bitwise_) return lookup(bits_, bits_of(x, i));
      double v = x.as_double(i);
      return std::isnan(v) ? nan_ : lookup(reals_, v);
    }
    return lookup(ints_, x.as_int64(i));
  }

 private:
  static uint64_t bits_of(const Tensor& t, int64_t i) {
    return t.dtype() == DType::Float ? std::bit_cast<uint32_t>(t.data<float>()[i])
                                     : std::bit_cast<uint64_t>(t.data<double>()[i]);
  }
  template <class M, class K>
  static int64_t lookup(const M& m, const K& k) {
    auto it = m.find(k);
    return it == m.end() ? -1 : it->second;
  }
  DType type_;
  bool bitwise_;
  std::unordered_map<std::string, int64_t> strings_;
  std::map<int64_t, int64_t> ints_;
  std::map<double, int64_t> reals_;  // -0.0 and +0.0 are one key
  std::map<uint64_t, int64_t> bits_;
  int64_t nan_ = -1;
};

std::vector<Value> label_encoder_1(OpContext& ctx) {
  const LabelEncoderParams p = LabelEncoderParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const std::vector<std::string>& classes = p.classes;
  if (x.dtype() == DType::String) {
    const int64_t def = p.default_int64;
    Tensor out(DType::Int64, x.shape());
    for (int64_t i = 0; i < x.size(); ++i) {
      auto it = std::find(classes.begin(), classes.end(), x.data<std::string>()[i]);
      out.data<int64_t>()[i] = it == classes.end() ? def : it - classes.begin();
    }
    return one(std::move(out));
  }
  require_type(ctx, x, DType::Int64, "X");
  const std::string& def = p.default_string;
  Tensor out(DType::String, x.shape());
  for (int64_t i = 0; i < x.size(); ++i) {
    int64_t k = x.data<int64_t>()[i];
    out.data<std::string>()[i] = k >= 0 && k < static_cast<int64_t>(classes.size()) ? classes[static_cast<size_t>(k)] : def;
  }
  return one(std::move(out));
}

std::vector<Value> label_encoder(OpContext& ctx) {
  const LabelEncoderParams p = LabelEncoderParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const Tensor& keys = p.keys;
  const Tensor& values = p.values;
  const Tensor& def = p.default_value;
  require_type(ctx, x, keys.dtype(), "X (the keys' type)");
  const KeyIndex index(keys, ctx.version() < 4);
  Tensor out(values.dtype(), x.shape());
  visit_dtype(values.dtype(), [&]<class T>() {
    T* o = out.data<T>();
    for (int64_t i = 0; i < x.size(); ++i) {
      int64_t j = index.find(x, i);
      o[i] = j < 0 ? def.data<T>()[0] : values.data<T>()[j];
    }
  });
  return one(std::move(out));
}

// Y's element type: the values' (version 1: the other of string and int64).
void label_encoder_shape(InferContext& ctx) {
  const LabelEncoderParams p = LabelEncoderParams::read(ctx, ctx.version());
  DType out = p.values.dtype();
  if (ctx.version() == 1) {
    DType in = ctx.input_elem(0);
    out = in == DType::String ? DType::Int64 : in == DType::Int64 ? DType::String : DType::Undefined;
  }
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, out, x ? std::optional<Dims>(*x) : std::nullopt);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "LabelEncoder", 1, label_encoder_1, Accuracy::Exact);
SONNX_KERNEL("ai.onnx.ml", "LabelEncoder", 2, label_encoder, Accuracy::Exact);
SONNX_KERNEL("ai.onnx.ml", "LabelEncoder", 4, label_encoder, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "LabelEncoder", (1, 2, 4), label_encoder_shape);
SONNX_PARAMS("ai.onnx.ml", "LabelEncoder", (1, 2, 4), LabelEncoderParams);
}  // namespace sonnx
