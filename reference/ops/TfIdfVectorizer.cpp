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
#include <map>

#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
template <class K>
std::vector<Value> tfidf(OpContext& ctx, const Tensor& x, const std::vector<K>& pool) {
  const int64_t min_n = ctx.attr_int("min_gram_length", 0);
  const int64_t max_n = ctx.attr_int("max_gram_length", 0);
  const int64_t max_skip = ctx.attr_int("max_skip_count", 0);
  const std::string mode = ctx.attr_string("mode", "");
  const std::vector<int64_t> counts = ctx.attr_ints("ngram_counts");
  const std::vector<int64_t> indexes = ctx.attr_ints("ngram_indexes");
  if (min_n < 1 || max_n < min_n) ctx.fail("n-gram lengths must satisfy 1 <= min_gram_length <= max_gram_length");
  if (max_skip < 0) ctx.fail("max_skip_count must not be negative");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") ctx.fail("mode must be TF, IDF or TFIDF, not '" + mode + "'");
  const int64_t pool_size = static_cast<int64_t>(pool.size());

  // Split the pool into n-grams: (length, items) for pool n-gram number g.
  std::map<std::vector<K>, std::vector<size_t>> lookup;  // n-gram -> pool n-gram numbers
  size_t g = 0;
  for (size_t level = 0; level < counts.size(); ++level) {
    const int64_t n = static_cast<int64_t>(level) + 1;
    const int64_t start = counts[level];
    const int64_t end = level + 1 < counts.size() ? counts[level + 1] : pool_size;
    if (start < 0 || start > end || end > pool_size) ctx.fail("ngram_counts must be non-decreasing positions within the pool");
    if ((end - start) % n != 0) ctx.fail("the pool section of " + std::to_string(n) + "-grams is not a whole number of n-grams");
    for (int64_t p = start; p < end; p += n) {
      lookup[std::vector<K>(pool.begin() + p, pool.begin() + p + n)].push_back(g);
      ++g;
    }
  }
  const size_t num_ngrams = g;
  if (indexes.size() != num_ngrams)
    ctx.fail("ngram_indexes has " + std::to_string(indexes.size()) + " entries, the pool has " + std::to_string(num_ngrams) +
             " n-grams");
  int64_t out_len = 0;
  for (int64_t i : indexes) {
    if (i < 0) ctx.fail("ngram_indexes must not be negative");
    out_len = std::max(out_len, i + 1);
  }
  std::vector<float> weights = ctx.attr_floats("weights");
  if (weights.empty()) weights.assign(num_ngrams, 1.0f);
  if (weights.size() != num_ngrams) ctx.fail("weights must have one entry per pool n-gram");

  if (x.rank() != 1 && x.rank() != 2) ctx.fail("X must have rank 1 or 2, has shape " + shape_str(x.shape()));
  const int64_t rows = x.rank() == 2 ? x.dim(0) : 1;
  const int64_t cols = x.rank() == 2 ? x.dim(1) : x.dim(0);
  std::vector<K> items(static_cast<size_t>(x.size()));
  if constexpr (std::is_same_v<K, std::string>) {
    const std::string* p = x.data<std::string>();
    for (int64_t i = 0; i < x.size(); ++i) items[static_cast<size_t>(i)] = p[i];
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
      if (mode == "IDF") v = (count[id] > 0 ? 1.0 : 0.0) * weights[id];
      else if (mode == "TFIDF") v *= weights[id];
      out[r * out_len + indexes[id]] += static_cast<float>(v);
    }
  }
  return one(std::move(y));
}

std::vector<Value> tfidf_vectorizer(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  const bool has_ints = ctx.has_attr("pool_int64s"), has_strings = ctx.has_attr("pool_strings");
  if (has_ints == has_strings) ctx.fail("exactly one of pool_int64s and pool_strings must be given");
  if (has_strings) {
    if (x.dtype() != DType::String) ctx.fail("with pool_strings the input must be a string tensor");
    return tfidf<std::string>(ctx, x, ctx.attr_strings("pool_strings"));
  }
  if (x.dtype() != DType::Int32 && x.dtype() != DType::Int64) ctx.fail("with pool_int64s the input must be int32 or int64");
  return tfidf<int64_t>(ctx, x, ctx.attr_ints("pool_int64s"));
}
}  // namespace
SONNX_KERNEL("", "TfIdfVectorizer", 9, tfidf_vectorizer, Accuracy::Rounding);
namespace {
// [max(ngram_indexes) + 1] or [N, max(ngram_indexes) + 1], float.
void tfidf_shape(InferContext& ctx) {
  std::vector<int64_t> idx = ctx.attr_ints("ngram_indexes");
  if (idx.empty()) ctx.fail("attribute 'ngram_indexes' is required");
  int64_t m = *std::max_element(idx.begin(), idx.end());
  Dim c = size_dim(ctx, m + 1, "ngram_indexes");
  const Dims* x = ctx.input_shape(0);
  if (!x) return ctx.set_output(0, DType::Float, std::nullopt);
  if (x->size() == 1) ctx.set_output(0, DType::Float, Dims{c});
  else if (x->size() == 2) ctx.set_output(0, DType::Float, Dims{(*x)[0], c});
  else ctx.fail("the input must be 1-D or 2-D");
}
}  // namespace
SONNX_SHAPE_RULE("", "TfIdfVectorizer", (9), tfidf_shape);
}  // namespace sonnx
