// Sequences and optionals in the encloser (enclose/enclose_sequence.cpp, SequenceMap in
// enclose_control.cpp; spec/accuracy.md, "Enclosures"): the bounds of each element of a sequence
// are those of the value the ONNX definition moves there (checked against positions worked out by
// hand), integer results (a length, a presence) are exact, a float operator after
// ConcatFromSequence or inside SequenceMap encloses the exact value (MPFR) and the reference's
// result, and the enclosure judge judges a sequence element by element and an optional by its value.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "conformance/enclosure_judge.h"
#include "enclose_test_util.h"
#include "sonnx/errors.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_graph;
using sonnx::testing::attr_int;
using sonnx::testing::attr_type;
using sonnx::testing::vi;

// The same double, NaN matching NaN (an undefined element moves as undefined).
bool seq_same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// Element i of float bounds `got` is element j of `want`, both ends.
void seq_expect_moved(const Bounds& got, int64_t i, const Bounds& want, int64_t j) {
  Interval g = bound_at(got, i), w = bound_at(want, j);
  EXPECT_TRUE(seq_same(g.lo, w.lo) && seq_same(g.hi, w.hi))
      << "element " << i << " = [" << g.lo << ", " << g.hi << "], want element " << j << " = [" << w.lo << ", " << w.hi << "]";
}

// Every element of got is the element of want at the same index, and got is of want's type and shape.
void seq_expect_same_bounds(const Bounds& got, const Bounds& want) {
  ASSERT_TRUE(got.is_tensor());
  ASSERT_EQ(got.type, want.type);
  ASSERT_EQ(got.lo.shape(), want.lo.shape());
  for (int64_t i = 0; i < got.lo.size(); ++i) seq_expect_moved(got, i, want, i);
}

Value seq_floats(const Shape& shape, const std::vector<float>& v) { return floats(shape, v); }

// Random floats and, in the last data set, edge values: signed zeros, a subnormal, the largest
// float, an infinity and a NaN.
std::vector<std::vector<float>> seq_data_sets(size_t n, std::mt19937& rng) {
  std::vector<std::vector<float>> sets;
  for (int s = 0; s < 4; ++s) sets.push_back(wide_floats(n, rng));
  std::vector<float> edge = {0.0f, -0.0f, 1e-45f, 3.4028235e38f, -INFINITY, NAN, 1.0f, -3.0f, 7.5f, 0.1f};
  edge.resize(n, 2.0f);
  sets.push_back(edge);
  return sets;
}

// D = X / 3 (bounds that are not points), split along axis 1 into pieces of 2 columns, then moved
// about by every sequence operator. The pieces of the [2, 5] tensor D are [2, 2], [2, 2], [2, 1]:
// element (r, c) of piece p is D's (r, 2p + c).
OneNodeModel seq_moving_model(const std::vector<float>& x) {
  std::vector<onnx::NodeProto> nodes = {
      named_node("Div", {"X", "three"}, "D"),
      named_node("SplitToSequence", {"D", "two"}, "S", {attr_int("axis", 1)}),
      named_node("SequenceErase", {"S", "one"}, "E"),         // [S0, S2]
      named_node("SequenceAt", {"S", "minus_one"}, "G"),      // S2
      named_node("SequenceInsert", {"E", "X", "zero"}, "I"),  // [X, S0, S2]
      named_node("SequenceLength", {"I"}, "N"),               // 3
      named_node("SequenceEmpty", {}, "Z"),
      named_node("SequenceInsert", {"Z", "D"}, "ZD"),  // [D]
      named_node("SequenceConstruct", {"D", "X"}, "C"),
      named_node("ConcatFromSequence", {"C"}, "K", {attr_int("axis", 0)}),  // [4, 5]: D over X
  };
  NamedValues feed = {{"X", seq_floats({2, 5}, x)},
                      {"three", seq_floats({}, {3.0f})},
                      {"two", Value(Tensor::scalar<int64_t>(2))},
                      {"one", Value(Tensor::scalar<int64_t>(1))},
                      {"minus_one", Value(Tensor::scalar<int32_t>(-1))},
                      {"zero", Value(Tensor::scalar<int64_t>(0))}};
  return graph_model(18, nodes, feed, {"D", "S", "E", "G", "I", "N", "ZD", "K"});
}

TEST(EncloseSequence, EachBoundMovesWithItsElement) {
  std::mt19937 rng(3711);
  int checked = 0;
  for (const std::vector<float>& x : seq_data_sets(10, rng))
    for (Semantics semantics : {Semantics::Real, Semantics::Admissible}) {
      SCOPED_TRACE(semantics == Semantics::Real ? "real" : "admissible");
      OneNodeModel m = seq_moving_model(x);
      std::map<std::string, Bounds> out = enclose_model(m.model, m.feed, semantics);
      const Bounds& d = out.at("D");
      ASSERT_TRUE(d.is_tensor());
      const Bounds xb = Bounds::of(m.feed.at("X").tensor);
      // S: the three pieces, of D's type; element (r, c) of piece p is D's (r, 2p + c).
      const Bounds& s = out.at("S");
      ASSERT_EQ(s.kind, Bounds::Kind::Sequence);
      ASSERT_EQ(s.type, DType::Float);
      ASSERT_EQ(s.elements.size(), 3u);
      const int64_t widths[] = {2, 2, 1};
      for (int64_t p = 0; p < 3; ++p) {
        const Bounds& piece = s.elements[static_cast<size_t>(p)];
        ASSERT_EQ(piece.type, DType::Float);
        ASSERT_EQ(piece.lo.shape(), (Shape{2, widths[p]}));
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t c = 0; c < widths[p]; ++c) seq_expect_moved(piece, r * widths[p] + c, d, r * 5 + 2 * p + c);
      }
      // E = S without element 1; G = S's last; I = X before E's elements; N = 3 exactly.
      const Bounds& e = out.at("E");
      ASSERT_EQ(e.elements.size(), 2u);
      seq_expect_same_bounds(e.elements[0], s.elements[0]);
      seq_expect_same_bounds(e.elements[1], s.elements[2]);
      seq_expect_same_bounds(out.at("G"), s.elements[2]);
      const Bounds& ins = out.at("I");
      ASSERT_EQ(ins.elements.size(), 3u);
      seq_expect_same_bounds(ins.elements[0], xb);  // an input moves as the points it is
      seq_expect_same_bounds(ins.elements[1], s.elements[0]);
      seq_expect_same_bounds(ins.elements[2], s.elements[2]);
      const Bounds& n = out.at("N");
      ASSERT_TRUE(n.exact());
      EXPECT_EQ(n.type, DType::Int64);
      EXPECT_EQ(n.lo.as_int64(0), 3);
      // ZD: D inserted into an empty float sequence.
      ASSERT_EQ(out.at("ZD").elements.size(), 1u);
      seq_expect_same_bounds(out.at("ZD").elements[0], d);
      // K = D over X along axis 0: its first 10 elements are D's, the next 10 X's.
      const Bounds& k = out.at("K");
      ASSERT_TRUE(k.is_tensor());
      ASSERT_EQ(k.lo.shape(), (Shape{4, 5}));
      for (int64_t i = 0; i < 10; ++i) {
        seq_expect_moved(k, i, d, i);
        seq_expect_moved(k, 10 + i, xb, i);
      }
      ++checked;
    }
  EXPECT_EQ(checked, 10);
}

// The exact sums after ConcatFromSequence (concatenated, and stacked on a new axis) lie in the real
// enclosure; the reference's float sums in the admissible one, which holds the real one; a value
// 1000 ulps off the reference's lies outside.
TEST(EncloseSequence, AFloatOperatorAfterConcatFromSequence) {
  std::mt19937 rng(1207);
  int checked = 0;
  for (int64_t new_axis : {0, 1}) {
    SCOPED_TRACE("new_axis " + std::to_string(new_axis));
    std::vector<std::vector<float>> xs = seq_data_sets(3, rng), ys = seq_data_sets(3, rng), zs = seq_data_sets(6, rng);
    for (size_t t = 0; t < xs.size(); ++t) {
      std::vector<float> x = xs[t], y = ys[t], z = zs[t];
      if (t + 1 == xs.size()) {  // finite edges, no sum near overflow: far outside must be outside
        x = {0.0f, -0.0f, 1e-45f};
        y = {1e30f, 1.0f, -2.5f};
        z = {-0.0f, 0.0f, 1e-45f, -1e30f, 0.1f, 2.5f};
      }
      // Concatenated, C = [x0 x1 x2 y0 y1 y2]; stacked on axis 1, C[i][k] is element k's i.
      std::vector<double> c(6);
      for (size_t i = 0; i < 3; ++i) {
        c[new_axis ? 2 * i : i] = x[i];
        c[new_axis ? 2 * i + 1 : 3 + i] = y[i];
      }
      Shape zs_shape = new_axis ? Shape{3, 2} : Shape{6};
      std::vector<onnx::NodeProto> nodes = {named_node("SequenceConstruct", {"X", "Y"}, "S"),
                                            named_node("ConcatFromSequence", {"S"}, "C",
                                                       {attr_int("axis", new_axis ? 1 : 0), attr_int("new_axis", new_axis)}),
                                            named_node("Add", {"C", "Z"}, "out0")};
      OneNodeModel m = graph_model(18, nodes,
                                   {{"X", seq_floats({3}, x)}, {"Y", seq_floats({3}, y)}, {"Z", seq_floats(zs_shape, z)}},
                                   {"out0"});
      Bounds real = enclose_output(m, Semantics::Real), adm = enclose_output(m, Semantics::Admissible);
      Tensor ref = reference_output(m);
      ASSERT_EQ(real.lo.shape(), zs_shape);
      for (int64_t i = 0; i < 6; ++i) {
        SCOPED_TRACE("element " + std::to_string(i));
        Exact exact(c[static_cast<size_t>(i)]);
        mpfr_add_d(exact.get(), exact.get(), z[static_cast<size_t>(i)], MPFR_RNDN);  // exact at 2200 bits
        Interval r = bound_at(real, i), a = bound_at(adm, i);
        EXPECT_TRUE(exact.inside(r)) << "[" << r.lo << ", " << r.hi << "]";
        double v = ref.as_double(i);
        EXPECT_TRUE(a.contains(v)) << v << " outside [" << a.lo << ", " << a.hi << "]";
        EXPECT_LE(a.lo, r.lo);
        EXPECT_GE(a.hi, r.hi);
        if (std::isfinite(v)) {
          EXPECT_FALSE(a.contains(v + 1000 * float_ulp(v)));
          EXPECT_FALSE(a.contains(v - 1000 * float_ulp(v)));
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 2 * 5 * 6);
}

// SequenceMap: the body (an Add of the element and a tensor) walked once per element; each output
// element holds the exact sum and, under admissible, the reference's.
TEST(EncloseSequence, SequenceMapWalksItsBodyPerElement) {
  std::mt19937 rng(5);
  using sonnx::testing::graph;
  using sonnx::testing::node;
  onnx::GraphProto body = graph("body", {node("Add", {"e", "t"}, {"o"})}, {vi("e"), vi("t")}, {vi("o", DType::Float)});
  int checked = 0;
  for (int s = 0; s < 5; ++s) {
    std::vector<float> x = wide_floats(4, rng), y = wide_floats(4, rng), t = wide_floats(4, rng);
    std::vector<onnx::NodeProto> nodes = {named_node("SequenceConstruct", {"X", "Y"}, "S"),
                                          named_node("SequenceMap", {"S", "T"}, "M", {attr_graph("body", body)})};
    OneNodeModel m = graph_model(17, nodes, {{"X", seq_floats({4}, x)}, {"Y", seq_floats({4}, y)}, {"T", seq_floats({4}, t)}},
                                 {"M"});
    Bounds real = enclose_model(m.model, m.feed, Semantics::Real).at("M");
    Bounds adm = enclose_model(m.model, m.feed, Semantics::Admissible).at("M");
    Value ref = Interpreter(m.model).run(m.feed).at("M");
    ASSERT_EQ(real.kind, Bounds::Kind::Sequence);
    ASSERT_EQ(real.elements.size(), 2u);
    ASSERT_EQ(adm.elements.size(), 2u);
    ASSERT_TRUE(ref.is_sequence());
    for (size_t k = 0; k < 2; ++k)
      for (int64_t i = 0; i < 4; ++i) {
        Exact exact((k == 0 ? x : y)[static_cast<size_t>(i)]);
        mpfr_add_d(exact.get(), exact.get(), t[static_cast<size_t>(i)], MPFR_RNDN);
        Interval r = bound_at(real.elements[k], i), a = bound_at(adm.elements[k], i);
        EXPECT_TRUE(exact.inside(r));
        double v = ref.sequence[k].tensor.as_double(i);
        EXPECT_TRUE(a.contains(v));
        EXPECT_LE(a.lo, r.lo);
        EXPECT_GE(a.hi, r.hi);
        EXPECT_FALSE(a.contains(v + 1000 * float_ulp(v)));
        ++checked;
      }
  }
  EXPECT_EQ(checked, 5 * 2 * 4);
}

// Optional, OptionalHasElement and OptionalGetElement: the content's bounds move in and out, the
// presence is exact; an Optional without input is empty.
OneNodeModel seq_optional_model(const std::vector<float>& x) {
  std::vector<onnx::NodeProto> nodes = {named_node("Div", {"X", "three"}, "D"),
                                        named_node("Optional", {"D"}, "O"),
                                        named_node("OptionalHasElement", {"O"}, "H"),
                                        named_node("OptionalGetElement", {"O"}, "G"),
                                        named_node("Optional", {}, "E", {attr_type("type", DType::Float)}),
                                        named_node("OptionalHasElement", {"E"}, "HE")};
  return graph_model(18, nodes, {{"X", seq_floats({10}, x)}, {"three", seq_floats({}, {3.0f})}},
                     {"D", "O", "H", "G", "E", "HE"});
}

TEST(EncloseSequence, OptionalsHoldTheirContentsBounds) {
  std::mt19937 rng(88);
  for (const std::vector<float>& x : seq_data_sets(10, rng))
    for (Semantics semantics : {Semantics::Real, Semantics::Admissible}) {
      OneNodeModel m = seq_optional_model(x);
      std::map<std::string, Bounds> out = enclose_model(m.model, m.feed, semantics);
      const Bounds& o = out.at("O");
      ASSERT_EQ(o.kind, Bounds::Kind::Optional);
      ASSERT_EQ(o.elements.size(), 1u);
      seq_expect_same_bounds(o.elements[0], out.at("D"));
      seq_expect_same_bounds(out.at("G"), out.at("D"));
      const Bounds &h = out.at("H"), &he = out.at("HE");
      ASSERT_TRUE(h.exact() && he.exact());
      EXPECT_EQ(h.type, DType::Bool);
      EXPECT_TRUE(h.lo.data<bool>()[0]);
      EXPECT_FALSE(he.lo.data<bool>()[0]);
      EXPECT_EQ(out.at("E").kind, Bounds::Kind::Optional);
      EXPECT_TRUE(out.at("E").elements.empty());
    }
}

// Graph inputs that are a sequence and an optional are taken as the exact values they are.
TEST(EncloseSequence, SequenceAndOptionalGraphInputs) {
  Value seq = Value::make_sequence({seq_floats({2}, {0.5f, -1.0f}), seq_floats({3}, {0.1f, 2.0f, -0.0f})}, DType::Float);
  Value empty = Value::make_optional(std::nullopt);
  std::vector<onnx::NodeProto> nodes = {named_node("SequenceAt", {"S", "one"}, "A"), named_node("SequenceLength", {"S"}, "L"),
                                        named_node("OptionalHasElement", {"P"}, "H"), named_node("Identity", {"S"}, "Same")};
  OneNodeModel m = graph_model(18, nodes, {{"S", seq}, {"one", Value(Tensor::scalar<int64_t>(1))}, {"P", empty}},
                               {"A", "L", "H", "Same"});
  for (Semantics semantics : {Semantics::Real, Semantics::Admissible}) {
    std::map<std::string, Bounds> out = enclose_model(m.model, m.feed, semantics);
    const Bounds& a = out.at("A");
    ASSERT_TRUE(a.is_tensor());
    ASSERT_EQ(a.type, DType::Float);
    const double want[] = {0.1f, 2.0f, -0.0f};  // element 1, as floats
    for (int64_t i = 0; i < 3; ++i) {
      EXPECT_EQ(bound_at(a, i).lo, want[i]);
      EXPECT_EQ(bound_at(a, i).hi, want[i]);
    }
    EXPECT_EQ(out.at("L").lo.as_int64(0), 2);
    EXPECT_FALSE(out.at("H").lo.data<bool>()[0]);
    const Bounds& same = out.at("Same");
    ASSERT_EQ(same.kind, Bounds::Kind::Sequence);
    ASSERT_EQ(same.elements.size(), 2u);
    seq_expect_same_bounds(same.elements[1], a);
  }
}

// The judge: a sequence output element by element, an optional by its value.
TEST(EncloseSequence, TheJudgeJudgesSequencesElementByElement) {
  std::mt19937 rng(61);
  std::vector<float> x = wide_floats(10, rng);
  OneNodeModel m = seq_moving_model(x);
  std::map<std::string, Bounds> adm = enclose_model(m.model, m.feed, Semantics::Admissible);
  NamedValues ref = Interpreter(m.model).run(m.feed);
  for (const char* name : {"S", "E", "I", "ZD"}) EXPECT_TRUE(judge_by_enclosure(name, ref.at(name), adm.at(name)).ok) << name;
  // One element of piece 2 moved 1000 ulps: that element, and only it, is outside.
  Value bad = ref.at("S");
  float& v = bad.sequence[2].tensor.data<float>()[1];
  v = static_cast<float>(v + 1000 * float_ulp(v));
  EnclosureCheck c = judge_by_enclosure("S", bad, adm.at("S"));
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.outside, 1);
  EXPECT_GE(c.ulps_outside, 400);  // 1000 ulps of its binade, fewer of the next one's
  EXPECT_NE(c.message.find("sequence element 2: element 1"), std::string::npos) << c.message;
  // The wrong number of elements, or a tensor for a sequence: not a value of the enclosure.
  Value shorter = ref.at("S");
  shorter.sequence.pop_back();
  EXPECT_FALSE(judge_by_enclosure("S", shorter, adm.at("S")).ok);
  EXPECT_FALSE(judge_by_enclosure("S", ref.at("D"), adm.at("S")).ok);

  OneNodeModel o = seq_optional_model(x);
  std::map<std::string, Bounds> oadm = enclose_model(o.model, o.feed, Semantics::Admissible);
  NamedValues oref = Interpreter(o.model).run(o.feed);
  EXPECT_TRUE(judge_by_enclosure("O", oref.at("O"), oadm.at("O")).ok);
  EXPECT_TRUE(judge_by_enclosure("E", oref.at("E"), oadm.at("E")).ok);
  EXPECT_FALSE(judge_by_enclosure("O", oref.at("E"), oadm.at("O")).ok);  // empty for one holding a value
  EXPECT_FALSE(judge_by_enclosure("E", oref.at("O"), oadm.at("E")).ok);
  Value off = Value::make_optional(*oref.at("O").optional);  // a copy of the content
  float& w = off.optional->tensor.data<float>()[0];
  w = static_cast<float>(w - 1000 * float_ulp(w));
  EXPECT_FALSE(judge_by_enclosure("O", off, oadm.at("O")).ok);
}

// The runs on float64 bounds cannot tell float16 from float: the encloser checks the element types.
TEST(EncloseSequence, MixedElementTypesTrap) {
  Tensor h(DType::Float16, {1});
  std::vector<onnx::NodeProto> nodes = {named_node("SequenceConstruct", {"X", "H"}, "S")};
  OneNodeModel m = graph_model(18, nodes, {{"X", seq_floats({1}, {1.0f})}, {"H", Value(h)}}, {"S"});
  EXPECT_THROW(enclose_model(m.model, m.feed, Semantics::Real), Trap);
}

}  // namespace
}  // namespace sonnx::enclose
