// TreeEnsembleClassifier (ai.onnx.ml 1, 3, 5; 5 deprecated, its text that of 3): X [N, F] (float,
// double, int64, int32) -> Y [N] (the top class's label: classlabels_int64s or classlabels_strings,
// exactly one given) and Z [N, E] float (a score per class). The trees are params/tree_votes.h;
// every vote (class_ids, class_weights) at the leaf each tree reaches adds to its class.
// Decisions where the text is silent (spec/ops/TreeEnsembleClassifier.md):
//   - E classes, E >= 2. Z[c] = base_values[c] (empty: 0) + the votes for c, then post_transform
//     on the row; Y is the label of the first largest Z (ties go to the lower class index).
//   - Binary: two labels and every vote names one same class id. The votes' sum s, plus
//     base_values[0] (one entry) or base_values[1] (two entries), is the second class's score.
//     Before the post_transform the row is [1 - s, s] for NONE and PROBIT, [-s, s] for LOGISTIC,
//     SOFTMAX and SOFTMAX_ZERO; Y is the second label iff Z[1] > Z[0].
// Computed in double, Z rounded once.
#include "op_params.h"
#include "params/tree_predictors.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

// Row r's scores (the votes and base values) before the post_transform.
std::vector<double> tree_classifier_scores(const OpContext& ctx, const TreeEnsembleClassifierParams& p, const double* row) {
  const TreeVoteEnsemble& e = p.trees;
  std::vector<double> z(static_cast<size_t>(p.classes), 0.0);
  double s = 0;  // binary: the one score
  for (size_t tree = 0; tree < e.roots.size(); ++tree)
    for (const TreeVote& v : e.votes[e.leaf_reached(ctx, tree, row)]) {
      if (p.binary) s += v.weight;
      else z[static_cast<size_t>(v.id)] += v.weight;
    }
  if (!p.binary) {
    for (size_t c = 0; c < e.base_values.size(); ++c) z[c] += e.base_values[c];
    return z;
  }
  if (!e.base_values.empty()) s += e.base_values.back();  // the only entry, or the second class's
  z[0] = p.binary_complement() ? 1 - s : -s;
  z[1] = s;
  return z;
}

std::vector<Value> tree_ensemble_classifier(OpContext& ctx) {
  const TreeEnsembleClassifierParams p = TreeEnsembleClassifierParams::read(ctx, ctx.version());
  const Tensor& x = ctx.input(0);
  const std::vector<double> in = p.trees.features_of(ctx, x);
  const int64_t n = x.dim(0), f = x.dim(1), classes = p.classes;
  if (std::string why = p.trees.fits(f); !why.empty()) ctx.fail(why);
  Tensor y(p.labels.dtype(), {n});
  std::vector<double> scores;
  scores.reserve(static_cast<size_t>(n * classes));
  for (int64_t r = 0; r < n; ++r) {
    std::vector<double> z = tree_classifier_scores(ctx, p, in.data() + r * f);
    post_transform_row(p.trees.post_transform, z);
    size_t top = 0;
    for (size_t c = 1; c < z.size(); ++c)
      if (z[c] > z[top]) top = c;
    p.labels.write(y, r, top);
    scores.insert(scores.end(), z.begin(), z.end());
  }
  std::vector<Value> out;
  out.emplace_back(std::move(y));
  out.emplace_back(float_tensor(ctx, DType::Float, {n, classes}, scores));
  return out;
}

void tree_ensemble_classifier_shape(InferContext& ctx) {
  const TreeEnsembleClassifierParams p = TreeEnsembleClassifierParams::read(ctx, ctx.version());
  require_rank(ctx, 0, 2, "X");
  const Dims* x = ctx.input_shape(0);
  if (std::string why = p.trees.fits(x ? (*x)[1].value : std::nullopt); !why.empty()) ctx.fail(why);
  std::optional<Dims> y, z;
  if (x) {
    y = Dims{(*x)[0]};
    z = Dims{(*x)[0], known_dim(p.classes)};
  }
  ctx.set_output(0, p.labels.dtype(), y);
  if (ctx.num_outputs() > 1) ctx.set_output(1, DType::Float, z);
}

}  // namespace
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleClassifier", 1, tree_ensemble_classifier, Accuracy::Rounding);
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleClassifier", 3, tree_ensemble_classifier, Accuracy::Rounding);
SONNX_KERNEL("ai.onnx.ml", "TreeEnsembleClassifier", 5, tree_ensemble_classifier, Accuracy::Rounding);
SONNX_SHAPE_RULE("ai.onnx.ml", "TreeEnsembleClassifier", (1, 3, 5), tree_ensemble_classifier_shape);
SONNX_PARAMS("ai.onnx.ml", "TreeEnsembleClassifier", (1, 3, 5), TreeEnsembleClassifierParams);
}  // namespace sonnx
