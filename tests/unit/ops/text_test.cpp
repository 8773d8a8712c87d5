// The string operators: StringNormalizer and TfIdfVectorizer. Expected values are worked out by
// hand from the ONNX operator specs.
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

// ---------------------------------------------------------------------------------------------
// StringNormalizer
std::vector<std::string> strings_of(const Value& v) { return values_of<std::string>(v); }

TEST(StringNormalizerOp, CaseInsensitiveStopwordsAndUpper) {
  auto out = run_op("StringNormalizer", 10, {tensor<std::string>({1, 3}, {"Monday", "tuesday", "MONDAY"})},
                    {attr_strings("stopwords", {"monday"}), attr_string("case_change_action", "UPPER")});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{1, 1}));
  EXPECT_EQ(strings_of(out[0]), (std::vector<std::string>{"TUESDAY"}));
}

TEST(StringNormalizerOp, CaseSensitiveKeepsOtherCase) {
  auto out = run_op("StringNormalizer", 10, {tensor<std::string>({2}, {"Monday", "monday"})},
                    {attr_strings("stopwords", {"monday"}), attr_int("is_case_sensitive", 1),
                     attr_string("case_change_action", "LOWER")});
  EXPECT_EQ(strings_of(out[0]), (std::vector<std::string>{"monday"}));
}

TEST(StringNormalizerOp, EverythingRemovedGivesOneEmptyString) {
  auto one_d = run_op("StringNormalizer", 10, {tensor<std::string>({2}, {"a", "A"})}, {attr_strings("stopwords", {"a"})});
  EXPECT_EQ(one_d[0].tensor.shape(), (Shape{1}));
  EXPECT_EQ(strings_of(one_d[0]), (std::vector<std::string>{""}));
  auto two_d = run_op("StringNormalizer", 10, {tensor<std::string>({1, 1}, {"a"})}, {attr_strings("stopwords", {"a"})});
  EXPECT_EQ(two_d[0].tensor.shape(), (Shape{1, 1}));
}

TEST(StringNormalizerOp, Utf8CaseMapping) {
  // é (U+00E9) -> É (U+00C9); ß has no single-letter capital and stays; Greek σ -> Σ; ж -> Ж.
  auto up = run_op("StringNormalizer", 10,
                   {tensor<std::string>({1}, {"caf\xC3\xA9 stra\xC3\x9F"
                                              "e \xCF\x83\xD0\xB6"})},
                   {attr_string("case_change_action", "UPPER"), attr_string("locale", "en_US")});
  EXPECT_EQ(strings_of(up[0])[0], "CAF\xC3\x89 STRA\xC3\x9F"
                                  "E \xCE\xA3\xD0\x96");
  auto low = run_op("StringNormalizer", 10, {tensor<std::string>({1}, {"\xC4\xB0\xC5\xB8Q"})},
                    {attr_string("case_change_action", "LOWER")});
  // İ (U+0130) -> i, Ÿ (U+0178) -> ÿ (U+00FF), Q -> q
  EXPECT_EQ(strings_of(low[0])[0], "i\xC3\xBFq");
}

TEST(StringNormalizerOp, InvalidUtf8AndBadShapeTrap) {
  expect_trap(
      [] { run_op("StringNormalizer", 10, {tensor<std::string>({1}, {"\xC3"})}, {attr_string("case_change_action", "UPPER")}); },
      "UTF-8");
  expect_trap([] { run_op("StringNormalizer", 10, {tensor<std::string>({2, 1}, {"a", "b"})}); }, "[C] or [1, C]");
}

// ---------------------------------------------------------------------------------------------
// TfIdfVectorizer.

TEST(TfIdfVectorizerOp, StringsAllModes) {
  // Pool: 1-grams "a", "c"; 2-gram ("a", "b"). In a b a b c: a 2, c 1, (a b) 2.
  auto x = tensor<std::string>({5}, {"a", "b", "a", "b", "c"});
  std::vector<onnx::AttributeProto> attrs{attr_int("min_gram_length", 1),
                                          attr_int("max_gram_length", 2),
                                          attr_int("max_skip_count", 0),
                                          attr_ints("ngram_counts", {0, 2}),
                                          attr_ints("ngram_indexes", {0, 1, 2}),
                                          attr_strings("pool_strings", {"a", "c", "a", "b"}),
                                          attr_floats("weights", {0.5f, 2, 3})};
  auto with_mode = [&](const char* mode) {
    auto a = attrs;
    a.push_back(attr_string("mode", mode));
    return values_of<float>(run_op("TfIdfVectorizer", 9, {x}, a)[0]);
  };
  EXPECT_EQ(with_mode("TF"), (std::vector<float>{2, 1, 2}));  // weights ignored
  EXPECT_EQ(with_mode("IDF"), (std::vector<float>{0.5f, 2, 3}));
  EXPECT_EQ(with_mode("TFIDF"), (std::vector<float>{1, 2, 6}));
}

TEST(TfIdfVectorizerOp, SkipsCountEachGap) {
  // (1, 3) with gaps 1 or 2 in [1, 2, 3, 1, 5, 3]: positions (0, 2) and (3, 5).
  auto out = run_op("TfIdfVectorizer", 9, {tensor<int64_t>({6}, {1, 2, 3, 1, 5, 3})},
                    {attr_string("mode", "TF"), attr_int("min_gram_length", 2), attr_int("max_gram_length", 2),
                     attr_int("max_skip_count", 1), attr_ints("ngram_counts", {0, 0}), attr_ints("ngram_indexes", {0}),
                     attr_ints("pool_int64s", {1, 3})});
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{2}));
}

TEST(TfIdfVectorizerOp, RowsDoNotShareNgramsAndIndexesPermute) {
  // Pool 2-grams (94, 17) -> Y[1], (17, 36) -> Y[0]. Row 0 ends with 94 and row 1 starts with 17:
  // that (94, 17) spans two rows and is not an n-gram.
  auto out = run_op("TfIdfVectorizer", 9, {tensor<int32_t>({2, 3}, {17, 36, 94, 17, 36, 36})},
                    {attr_string("mode", "TF"), attr_int("min_gram_length", 2), attr_int("max_gram_length", 2),
                     attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0, 0}), attr_ints("ngram_indexes", {1, 0}),
                     attr_ints("pool_int64s", {94, 17, 17, 36})});
  EXPECT_EQ(out[0].tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<float>(out[0]), (std::vector<float>{1, 0, 1, 0}));
}

TEST(TfIdfVectorizerOp, BadAttributesTrap) {
  expect_trap(
      [] {
        run_op("TfIdfVectorizer", 9, {tensor<int64_t>({2}, {1, 2})},
               {attr_string("mode", "TF"), attr_int("min_gram_length", 1), attr_int("max_gram_length", 1),
                attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0}), attr_ints("ngram_indexes", {0, 1}),
                attr_ints("pool_int64s", {1})});
      },
      "ngram_indexes");
  expect_trap(
      [] {
        run_op("TfIdfVectorizer", 9, {tensor<int64_t>({2}, {1, 2})},
               {attr_string("mode", "BM25"), attr_int("min_gram_length", 1), attr_int("max_gram_length", 1),
                attr_int("max_skip_count", 0), attr_ints("ngram_counts", {0}), attr_ints("ngram_indexes", {0}),
                attr_ints("pool_int64s", {1})});
      },
      "mode");
}

}  // namespace
}  // namespace sonnx::testing
