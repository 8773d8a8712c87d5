// The check both text-syntax tests make of an error: the parser refuses the text with a ParseError
// at the given line and column whose message contains the given words.
#pragma once
#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "reference/model/text_syntax.h"

namespace sonnx::text {

// `parse` is parse_model or parse_function.
template <class Result>
void expect_parse_error(Result (*parse)(std::string_view), std::string_view text, int line, int column,
                        const std::string& words) {
  try {
    parse(text);
    ADD_FAILURE() << "accepted:\n" << text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line, line) << e.what();
    EXPECT_EQ(e.column, column) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

}  // namespace sonnx::text
