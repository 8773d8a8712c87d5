// Einsum's parameters (reference/ops/op_params.h): the equation parsed once, read by its reference
// kernel, its shape rule and its enclosure (enclose/enclose_einsum.cpp), so they cannot parse it
// differently. The equation is "term1,term2,...[->output]" (spaces ignored); a term is a list of
// letters plus at most one "..." standing for the same number of broadcast dimensions in every
// operand (right-aligned, numpy broadcasting). Without "->" the output is the ellipsis followed by
// the letters that occur exactly once, in ASCII order (implicit mode, as numpy).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

// One term of the equation: the labels of its letters around its ellipsis. A letter's label is
// 0..25 for a-z, 26..51 for A-Z; the ellipsis's dimension j is kLetters + j.
struct EinsumTerm {
  static constexpr int kLetters = 52;
  std::vector<int> letters_before, letters_after;  // around the ellipsis (all in `before` if none)
  bool ellipsis = false;

  size_t letter_count() const { return letters_before.size() + letters_after.size(); }
  // The label of every axis of the term once the ellipsis stands for `dims` of the `total` ellipsis
  // dims (right-aligned).
  std::vector<int> axis_labels(int64_t dims, int64_t total) const;
  static char label_char(int label) { return static_cast<char>(label < 26 ? 'a' + label : 'A' + (label - 26)); }
};

struct EinsumParams {
  std::string equation;            // the attribute (required), its spaces dropped
  std::vector<EinsumTerm> inputs;  // one per operand (their count is checked against the node's inputs later)
  // After "->" (explicit mode: each letter once, each from the inputs; checked). Implicit mode: the
  // ellipsis when some input term has one, then the letters used exactly once, in ASCII order
  // (upper case first), as numpy does.
  EinsumTerm output;
  bool explicit_output = false;  // the equation has "->"
  static EinsumParams read(const AttrReader& reader, int64_t version);
  // "" when the equation has a term for each of `n` operands, else why not.
  std::string operands(size_t n) const;
};

}  // namespace sonnx
