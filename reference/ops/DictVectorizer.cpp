// DictVectorizer (ai.onnx.ml 1): the map X as a row Y of shape [1, V], V the length of the
// vocabulary of X's key type (int64_vocabulary for int64 keys, string_vocabulary for string
// keys): Y[0, j] is X's value at vocabulary[j], or the zero of the value type ("" for strings)
// where X has no such key. Y's element type is X's value type. Decisions (spec/ops/DictVectorizer.md):
// exactly one vocabulary, not empty; a key of X outside the vocabulary contributes nothing; a
// word listed twice in the vocabulary receives the value at both of its positions.
#include <algorithm>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct DictVectorizerParams {
  std::vector<int64_t> int64_vocabulary;
  std::vector<std::string> string_vocabulary;

  DType key_type() const { return int64_vocabulary.empty() ? DType::String : DType::Int64; }
  int64_t size() const {
    return static_cast<int64_t>(int64_vocabulary.empty() ? string_vocabulary.size() : int64_vocabulary.size());
  }
  static DictVectorizerParams read(const AttrReader& r, int64_t /*version*/) {
    DictVectorizerParams p;
    p.int64_vocabulary = r.attr_ints("int64_vocabulary");
    p.string_vocabulary = r.attr_strings("string_vocabulary");
    if (p.int64_vocabulary.empty() == p.string_vocabulary.empty())
      r.fail("exactly one of int64_vocabulary and string_vocabulary must be given, and not empty");
    return p;
  }
};

// The schema's six map types: int64 or string keys, values of another of int64, float, double,
// string. Fails for any other pair, or keys that are not of the vocabulary's type.
template <class Ctx>
void dict_vectorizer_check_types(const Ctx& ctx, const DictVectorizerParams& p, DType key, DType value) {
  const bool key_ok = key == DType::Int64 || key == DType::String;
  const bool value_ok = value == DType::Int64 || value == DType::Float || value == DType::Double || value == DType::String;
  if (!key_ok || !value_ok || key == value)
    ctx.fail("X must be a map from int64 or string to another of int64, float, double and string, got map(" +
             std::string(dtype_name(key)) + ", " + std::string(dtype_name(value)) + ")");
  if (key != p.key_type())
    ctx.fail("X's keys are " + std::string(dtype_name(key)) + " but the vocabulary given is " +
             (p.key_type() == DType::Int64 ? "int64_vocabulary" : "string_vocabulary"));
}

// The position of `word` among the map's keys (increasing, distinct), or -1.
template <class K>
int64_t dict_vectorizer_find(std::span<const K> keys, const K& word) {
  auto it = std::lower_bound(keys.begin(), keys.end(), word);
  return it != keys.end() && *it == word ? it - keys.begin() : -1;
}

std::vector<Value> dict_vectorizer(OpContext& ctx) {
  const DictVectorizerParams p = DictVectorizerParams::read(ctx, ctx.version());
  const Value& x = ctx.value(0);
  if (!x.is_map()) ctx.fail("X must be a map");
  const Tensor& keys = x.map_keys();
  const Tensor& values = x.map_values();
  dict_vectorizer_check_types(ctx, p, keys.dtype(), values.dtype());
  Tensor y(values.dtype(), {1, p.size()});  // zero-filled: 0, or "" for strings
  visit_dtype(values.dtype(), [&]<class V>() {
    const V* in = values.data<V>();
    V* out = y.data<V>();
    for (int64_t j = 0; j < p.size(); ++j) {
      const auto u = static_cast<size_t>(j);
      int64_t at = p.key_type() == DType::Int64 ? dict_vectorizer_find(keys.values<int64_t>(), p.int64_vocabulary[u])
                                                : dict_vectorizer_find(keys.values<std::string>(), p.string_vocabulary[u]);
      if (at >= 0) out[j] = in[at];
    }
  });
  return one(std::move(y));
}

// tensor(V)[1, vocabulary size] for X of type map(K, V).
void dict_vectorizer_shape(InferContext& ctx) {
  const DictVectorizerParams p = DictVectorizerParams::read(ctx, ctx.version());
  DType value = DType::Undefined;
  if (const TypeInfo* x = ctx.input_type(0); x && x->kind != TypeInfo::Kind::Unknown) {
    if (x->kind != TypeInfo::Kind::Map) ctx.fail("X must be a map, got " + x->str());
    if (x->inner && x->inner->kind == TypeInfo::Kind::Tensor && x->inner->elem != DType::Undefined &&
        x->map_key != DType::Undefined) {
      value = x->inner->elem;
      dict_vectorizer_check_types(ctx, p, x->map_key, value);
    }
  }
  ctx.set_output(0, value, Dims{known_dim(1), known_dim(p.size())});
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "DictVectorizer", 1, dict_vectorizer, Accuracy::Exact);
SONNX_SHAPE_RULE("ai.onnx.ml", "DictVectorizer", (1), dict_vectorizer_shape);
SONNX_PARAMS("ai.onnx.ml", "DictVectorizer", (1), DictVectorizerParams);
}  // namespace sonnx
