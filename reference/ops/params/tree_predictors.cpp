#include "tree_predictors.h"

namespace sonnx {

namespace {

TreeAggregate tree_regressor_aggregate(const AttrReader& r) {
  const std::string s = r.attr_string("aggregate_function", "SUM");
  if (s == "SUM") return TreeAggregate::Sum;
  if (s == "AVERAGE") return TreeAggregate::Average;
  if (s == "MIN") return TreeAggregate::Min;
  if (s != "MAX") r.fail("unknown aggregate_function '" + s + "'");
  return TreeAggregate::Max;
}

}  // namespace

TreeEnsembleRegressorParams TreeEnsembleRegressorParams::read(const AttrReader& r, int64_t version) {
  TreeEnsembleRegressorParams p;
  p.trees = TreeVoteEnsemble::read(r, version, "target");
  p.aggregate = tree_regressor_aggregate(r);
  if (r.has_attr("n_targets")) {
    p.n_targets = r.attr_int("n_targets", 0);
    if (*p.n_targets < 1) r.fail("n_targets must be positive");
    if (p.trees.vote_id_bound() > *p.n_targets) r.fail("a target id is outside [0, n_targets)");
    const size_t bases = p.trees.base_values.size();
    if (bases != 0 && static_cast<int64_t>(bases) != *p.n_targets)
      r.fail("base_values has " + std::to_string(bases) + " entries, not one per target (" + std::to_string(*p.n_targets) + ")");
  }
  return p;
}

TreeEnsembleClassifierParams TreeEnsembleClassifierParams::read(const AttrReader& r, int64_t version) {
  TreeEnsembleClassifierParams p;
  p.trees = TreeVoteEnsemble::read(r, version, "class");
  p.labels = ClassLabels::read(r, "classlabels_int64s");
  p.classes = p.labels.size();
  if (p.classes < 2) r.fail("at least two class labels are needed, got " + std::to_string(p.classes));
  if (p.trees.vote_id_bound() > p.classes)
    r.fail("a class id is outside [0, " + std::to_string(p.classes) + "), the class labels");
  bool one_id = true, any = false;
  int64_t id = 0;
  for (const auto& leaf : p.trees.votes)
    for (const TreeVote& v : leaf) {
      one_id = one_id && (!any || v.id == id);
      id = v.id;
      any = true;
    }
  p.binary = p.classes == 2 && any && one_id;
  const int64_t bases = static_cast<int64_t>(p.trees.base_values.size());
  if (bases != 0 && bases != p.classes && !(p.binary && bases == 1))
    r.fail("base_values has " + std::to_string(bases) + " entries, not one per class (" + std::to_string(p.classes) + ")");
  return p;
}

}  // namespace sonnx
