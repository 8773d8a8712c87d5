// RegexFullMatch-20: whole-string matches in RE2 syntax. Expected values worked out by hand.
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

std::vector<bool> matches(const Value& v) { return values_of<bool>(v); }

TEST(RegexFullMatchOp, WholeStringOnly) {
  // "b" occurs in "abc" but does not make up the whole of it.
  auto y = run1("RegexFullMatch", 20, {tensor<std::string>({4}, {"abc", "b", "", "bb"})}, {attr_string("pattern", "b")});
  EXPECT_EQ(y.tensor.dtype(), DType::Bool);
  EXPECT_EQ(matches(y), (std::vector<bool>{false, true, false, false}));
  auto star = run1("RegexFullMatch", 20, {tensor<std::string>({4}, {"abc", "b", "", "bb"})}, {attr_string("pattern", "b*")});
  EXPECT_EQ(matches(star), (std::vector<bool>{false, true, true, true}));
}

TEST(RegexFullMatchOp, KeepsShapeAndRe2Classes) {
  // \d+ and an alternation, on a 2x3 tensor; \w is ASCII in RE2.
  auto y = run1("RegexFullMatch", 20, {tensor<std::string>({2, 3}, {"123", "12a", "cat", "dog", "cow", "9"})},
                {attr_string("pattern", R"(\d+|cat|dog)")});
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(matches(y), (std::vector<bool>{true, false, true, true, false, true}));
}

TEST(RegexFullMatchOp, Utf8CharactersAreOneCharacter) {
  // "é" is two bytes in UTF-8 but one character: "." matches it whole, ".." does not.
  auto one = run1("RegexFullMatch", 20, {tensor<std::string>({1}, {"\xC3\xA9"})}, {attr_string("pattern", ".")});
  auto two = run1("RegexFullMatch", 20, {tensor<std::string>({1}, {"\xC3\xA9"})}, {attr_string("pattern", "..")});
  EXPECT_EQ(matches(one), (std::vector<bool>{true}));
  EXPECT_EQ(matches(two), (std::vector<bool>{false}));
}

TEST(RegexFullMatchOp, EmptyTensor) {
  auto y = run1("RegexFullMatch", 20, {tensor<std::string>({2, 0}, {})}, {attr_string("pattern", "a")});
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 0}));
  EXPECT_EQ(y.tensor.dtype(), DType::Bool);
}

TEST(RegexFullMatchOp, InvalidPatternTraps) {
  expect_trap([] { run1("RegexFullMatch", 20, {tensor<std::string>({1}, {"a"})}, {attr_string("pattern", "(a")}); },
              "not a valid RE2 expression");
  // Backreferences are outside RE2's syntax.
  expect_trap([] { run1("RegexFullMatch", 20, {tensor<std::string>({1}, {"aa"})}, {attr_string("pattern", R"((a)\1)")}); },
              "not a valid RE2 expression");
  expect_trap([] { run1("RegexFullMatch", 20, {tensor<std::string>({1}, {"a"})}); }, "pattern");
}

TEST(RegexFullMatchOp, NonStringInputTraps) {
  expect_trap([] { run1("RegexFullMatch", 20, {tensor<int64_t>({1}, {1})}, {attr_string("pattern", "1")}); }, "string");
}

}  // namespace
}  // namespace sonnx::testing
