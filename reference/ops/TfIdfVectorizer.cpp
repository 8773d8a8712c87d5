// TfIdfVectorizer (version 9): counts the n-grams of the input sequence(s) that appear in a pool.
// X is [C] or [N, C] (each row a separate sequence; n-grams never cross rows) of int32/int64
// (with pool_int64s) or strings (with pool_strings). Output Y is float [max(ngram_indexes) + 1]
// or [N, max(ngram_indexes) + 1].
// - The pool holds the 1-grams, then the 2-grams, ...; ngram_counts[n-1] is the pool position
//   (in items) where the n-grams start; pool n-gram number g (counted over all lengths) goes to
//   output coordinate ngram_indexes[g].
// - For n in [min_gram_length, max_gram_length] and each skip s in [0, max_skip_count], the
//   n-grams are X[i], X[i+s+1], ..., X[i+(n-1)(s+1)] for every start i that fits in the row;
//   1-grams are taken once (skips make no difference for them).
// - mode TF: the counts; IDF: min(count, 1) * weights[g]; TFIDF: count * weights[g] (weights
//   default to 1). Pool n-grams that share an output coordinate add up there.
#include <algorithm>
#include <map>
#include <utility>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
enum class TfIdfMode { TF, IDF, TFIDF };

struct TfIdfVectorizerParams {
  int64_t min_gram_length = 0, max_gram_length = 0;  // 1 <= min_gram_length <= max_gram_length (checked)
  int64_t max_skip_count = 0;                        // not negative (checked; 0 when absent)
  TfIdfMode mode = TfIdfMode::TF;                    // "TF", "IDF" or "TFIDF" (required, checked)
  bool string_pool = false;                          // pool_strings given, else pool_int64s (exactly one of them, checked)
  std::vector<int64_t> pool_int64s;
  std::vector<std::string> pool_strings;
  // Pool n-gram number g (counted over all lengths) is the n items of the pool from position
  // start: ngrams[g] = {start, n}, the pool cut at the positions ngram_counts (checked to fit).
  std::vector<std::pair<int64_t, int64_t>> ngrams;
  std::vector<int64_t> ngram_indexes;  // output coordinate of pool n-gram g (one each, not negative; required)
  std::vector<float> weights;          // weight of pool n-gram g (one each; default 1)
  int64_t output_size = 0;             // the last output dim: max(ngram_indexes) + 1 (0 without n-grams)

  static TfIdfVectorizerParams read(const AttrReader& r, int64_t /*version*/) {
    TfIdfVectorizerParams p;
    const bool has_ints = r.has_attr("pool_int64s"), has_strings = r.has_attr("pool_strings");
    if (has_ints == has_strings) r.fail("exactly one of pool_int64s and pool_strings must be given");
    p.string_pool = has_strings;
    if (has_strings) p.pool_strings = r.attr_strings("pool_strings");
    else p.pool_int64s = r.attr_ints("pool_int64s");
    p.min_gram_length = r.attr_int("min_gram_length", 0);
    p.max_gram_length = r.attr_int("max_gram_length", 0);
    if (p.min_gram_length < 1 || p.max_gram_length < p.min_gram_length)
      r.fail("n-gram lengths must satisfy 1 <= min_gram_length <= max_gram_length");
    p.max_skip_count = r.attr_int("max_skip_count", 0);
    if (p.max_skip_count < 0) r.fail("max_skip_count must not be negative");
    const std::string mode = r.attr_string("mode", "");
    if (mode == "TF") p.mode = TfIdfMode::TF;
    else if (mode == "IDF") p.mode = TfIdfMode::IDF;
    else if (mode == "TFIDF") p.mode = TfIdfMode::TFIDF;
    else r.fail("mode must be TF, IDF or TFIDF, not '" + mode + "'");

    const int64_t pool_size = static_cast<int64_t>(has_strings ? p.pool_strings.size() : p.pool_int64s.size());
    const std::vector<int64_t> counts = r.attr_ints("ngram_counts");
    for (size_t level = 0; level < counts.size(); ++level) {
      const int64_t n = static_cast<int64_t>(level) + 1;
      const int64_t start = counts[level];
      const int64_t end = level + 1 < counts.size() ? counts[level + 1] : pool_size;
      if (start < 0 || start > end || end > pool_size) r.fail("ngram_counts must be non-decreasing positions within the pool");
      if ((end - start) % n != 0) r.fail("the pool section of " + std::to_string(n) + "-grams is not a whole number of n-grams");
      for (int64_t at = start; at < end; at += n) p.ngrams.emplace_back(at, n);
    }
    const size_t num_ngrams = p.ngrams.size();
    if (!r.has_attr("ngram_indexes")) r.fail("attribute 'ngram_indexes' is required");
    p.ngram_indexes = r.attr_ints("ngram_indexes");
    if (p.ngram_indexes.size() != num_ngrams)
      r.fail("ngram_indexes has " + std::to_string(p.ngram_indexes.size()) + " entries, the pool has " +
             std::to_string(num_ngrams) + " n-grams");
    for (int64_t i : p.ngram_indexes) {
      if (i < 0) r.fail("ngram_indexes must not be negative");
      p.output_size = std::max(p.output_size, i + 1);
    }
    p.weights = r.attr_floats("weights");
    if (p.weights.empty()) p.weights.assign(num_ngrams, 1.0f);
    if (p.weights.size() != num_ngrams) r.fail("weights must have one entry per pool n-gram");
    return p;
  }
};

template <class K>
std::vector<Value> tfidf(OpContext& ctx, const TfIdfVectorizerParams& p, const Tensor& x, const std::vector<K>& pool) {
  const int64_t min_n = p.min_gram_length, max_n = p.max_gram_length, max_skip = p.max_skip_count;
  const std::vector<int64_t>& indexes = p.ngram_indexes;
  const std::vector<float>& weights = p.weights;
  const int64_t out_len = p.output_size;
  const size_t num_ngrams = p.ngrams.size();
  std::map<std::vector<K>, std::vector<size_t>> lookup;  // n-gram -> pool n-gram numbers
  for (size_t g = 0; g < num_ngrams; ++g) {
    auto [start, n] = p.ngrams[g];
    lookup[std::vector<K>(pool.begin() + start, pool.begin() + start + n)].push_back(g);
  }

  if (x.rank() != 1 && x.rank() != 2) ctx.fail("X must have rank 1 or 2, has shape " + shape_str(x.shape()));
  const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
  const int64_t cols = x.rank() == 2 ? x.dim(1) : x.dim(0);
  std::vector<K> items(static_cast<size_t>(x.size()));
  if constexpr (std::is_same_v<K, std::string>) {
    const std::string* in = x.data<std::string>();
    for (int64_t i = 0; i < x.size(); ++i) items[static_cast<size_t>(i)] = in[i];
  } else {
    items = x.to_int64_vector();
  }

  Tensor y(DType::Float, x.rank() == 2 ? Shape{rows, out_len} : Shape{out_len});
  float* out = y.data<float>();
  for (int64_t r = 0; r < rows; ++r) {
    const K* row = items.data() + r * cols;
    std::vector<int64_t> count(num_ngrams, 0);
    for (int64_t n = min_n; n <= max_n; ++n) {
      const int64_t skips = n == 1 ? 0 : max_skip;
      for (int64_t s = 0; s <= skips; ++s) {
        const int64_t stride = s + 1;
        for (int64_t i = 0; i + (n - 1) * stride < cols; ++i) {
          std::vector<K> gram;
          for (int64_t k = 0; k < n; ++k) gram.push_back(row[i + k * stride]);
          auto it = lookup.find(gram);
          if (it == lookup.end()) continue;
          for (size_t id : it->second) ++count[id];
        }
      }
    }
    for (size_t id = 0; id < num_ngrams; ++id) {
      double v = static_cast<double>(count[id]);
      if (p.mode == TfIdfMode::IDF) v = (count[id] > 0 ? 1.0 : 0.0) * weights[id];
      else if (p.mode == TfIdfMode::TFIDF) v *= weights[id];
      out[r * out_len + indexes[id]] += static_cast<float>(v);
    }
  }
  return one(std::move(y));
}

std::vector<Value> tfidf_vectorizer(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const TfIdfVectorizerParams p = TfIdfVectorizerParams::read(ctx, ctx.version());
  if (p.string_pool) {
    if (x.dtype() != DType::String) ctx.fail("with pool_strings the input must be a string tensor");
    return tfidf<std::string>(ctx, p, x, p.pool_strings);
  }
  if (x.dtype() != DType::Int32 && x.dtype() != DType::Int64) ctx.fail("with pool_int64s the input must be int32 or int64");
  return tfidf<int64_t>(ctx, p, x, p.pool_int64s);
}
}  // namespace
SONNX_PARAMS("", "TfIdfVectorizer", (9), TfIdfVectorizerParams);
SONNX_KERNEL("", "TfIdfVectorizer", 9, tfidf_vectorizer, Accuracy::Rounding);
namespace {
// [max(ngram_indexes) + 1] or [N, max(ngram_indexes) + 1], float.
void tfidf_shape(InferContext& ctx) {
  Dim c = size_dim(ctx, TfIdfVectorizerParams::read(ctx, ctx.version()).output_size, "ngram_indexes");
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, DType::Float, std::nullopt);
  if (x->size() == 1) ctx.set_output(0, DType::Float, Dims{c});
  else if (x->size() == 2) ctx.set_output(0, DType::Float, Dims{(*x)[0], c});
  else ctx.fail("the input must be 1-D or 2-D");
}
}  // namespace
SONNX_SHAPE_RULE("", "TfIdfVectorizer", (9), tfidf_shape);
}  // namespace sonnx
