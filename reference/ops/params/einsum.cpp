#include "einsum.h"

namespace sonnx {

namespace {
EinsumTerm parse_einsum_term(const AttrReader& r, const std::string& s) {
  EinsumTerm t;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    int label = -1;
    if (c >= 'a' && c <= 'z') label = c - 'a';
    else if (c >= 'A' && c <= 'Z') label = 26 + (c - 'A');
    if (label >= 0) {
      (t.ellipsis ? t.letters_after : t.letters_before).push_back(label);
    } else if (c == '.') {
      if (t.ellipsis || s.compare(i, 3, "...") != 0) r.fail("malformed ellipsis in einsum term '" + s + "'");
      t.ellipsis = true;
      i += 2;
    } else {
      r.fail("invalid character '" + std::string(1, c) + "' in einsum equation");
    }
  }
  return t;
}
}  // namespace

std::vector<int> EinsumTerm::axis_labels(int64_t dims, int64_t total) const {
  std::vector<int> labels = letters_before;
  for (int64_t j = 0; j < dims; ++j) labels.push_back(kLetters + static_cast<int>(total - dims + j));
  labels.insert(labels.end(), letters_after.begin(), letters_after.end());
  return labels;
}

std::string EinsumParams::operands(size_t n) const {
  if (inputs.size() == n) return "";
  return "equation has " + std::to_string(inputs.size()) + " terms for " + std::to_string(n) + " inputs";
}

EinsumParams EinsumParams::read(const AttrReader& r, int64_t /*version*/) {
  constexpr int kLetters = EinsumTerm::kLetters;
  if (!r.has_attr("equation")) r.fail("attribute 'equation' is required");
  EinsumParams p;
  for (char c : r.attr_string("equation", ""))
    if (c != ' ') p.equation += c;
  size_t arrow = p.equation.find("->");
  std::string lhs = p.equation.substr(0, arrow);
  for (size_t begin = 0;;) {
    size_t comma = lhs.find(',', begin);
    p.inputs.push_back(parse_einsum_term(r, lhs.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin)));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  std::vector<int> occurrences(static_cast<size_t>(kLetters), 0);
  bool any_ellipsis = false;
  for (const EinsumTerm& t : p.inputs) {
    for (int l : t.letters_before) ++occurrences[static_cast<size_t>(l)];
    for (int l : t.letters_after) ++occurrences[static_cast<size_t>(l)];
    any_ellipsis = any_ellipsis || t.ellipsis;
  }
  p.explicit_output = arrow != std::string::npos;
  if (p.explicit_output) {
    p.output = parse_einsum_term(r, p.equation.substr(arrow + 2));
    std::vector<bool> used(static_cast<size_t>(kLetters), false);
    for (const std::vector<int>* part : {&p.output.letters_before, &p.output.letters_after})
      for (int l : *part) {
        const std::string letter(1, EinsumTerm::label_char(l));
        if (occurrences[static_cast<size_t>(l)] == 0) r.fail("output letter does not occur in the inputs: '" + letter + "'");
        if (used[static_cast<size_t>(l)]) r.fail("output letter repeated: '" + letter + "'");
        used[static_cast<size_t>(l)] = true;
      }
  } else {
    p.output.ellipsis = any_ellipsis;
    // Sorted in ASCII order, as numpy does: upper case (labels 26..51) before lower case.
    for (int l = 26; l < kLetters; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) p.output.letters_after.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (occurrences[static_cast<size_t>(l)] == 1) p.output.letters_after.push_back(l);
  }
  return p;
}

}  // namespace sonnx
