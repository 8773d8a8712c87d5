#include "tree_walk.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace sonnx::support {

bool tree_goes_true(const TreeNodes& t, size_t i, double x) {
  if (std::isnan(x) && t.nan_true[i]) return true;
  const double s = t.splits[i];
  switch (t.modes[i]) {
    case TreeNodes::kLeq: return x <= s;
    case TreeNodes::kLt: return x < s;
    case TreeNodes::kGte: return x >= s;
    case TreeNodes::kGt: return x > s;
    case TreeNodes::kEq: return x == s;
    case TreeNodes::kNeq: return x != s;
    default: return std::find(t.sets[i].begin(), t.sets[i].end(), x) != t.sets[i].end();
  }
}

size_t tree_leaf_of(const AttrReader& r, const TreeNodes& t, size_t root, const double* row) {
  if (t.true_leaf[root] && t.false_leaf[root] && t.true_ids[root] == t.false_ids[root])
    return static_cast<size_t>(t.true_ids[root]);
  size_t i = root;
  for (size_t steps = 0; steps <= t.modes.size(); ++steps) {
    bool go_true = tree_goes_true(t, i, row[t.features[i]]);
    size_t child = static_cast<size_t>(go_true ? t.true_ids[i] : t.false_ids[i]);
    if (go_true ? t.true_leaf[i] : t.false_leaf[i]) return child;
    i = child;
  }
  r.fail("the tree from root " + std::to_string(root) + " has a cycle");
  return 0;  // not reached: fail() throws (gcc does not see that through the virtual call)
}

}  // namespace sonnx::support
