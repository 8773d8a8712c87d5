// The small element types (float8, float4, int4, uint4, int2, uint2) in the kernels that move data
// or only inspect values: Transpose, Pad, ConstantOfShape (versions 20-25), TensorScatter-24,
// If/Loop/Scan (19-25), Dropout-22, IsInf-20, IsNaN-20, QLinearMatMul-21, and the element-moving kernels whose schemas do not list the small
// types but share the generic copy path (Concat, Where, Gather, GatherElements, GatherND,
// ScatterND, ScatterElements, Expand, Tile, Slice, Split, Compress, ReverseSequence, Trilu,
// CenterCropPad, the sequence operators, Optional). Inputs are tensors of distinct codes where the type has
// enough of them; the expected output is the selection or permutation of input codes the
// operator's text defines, written out by hand. Each test runs every (version, type) pair the
// catalogue lists and counts them, so an empty loop cannot pass.
#include <string>
#include <vector>

#include "reference/catalogue/catalogue.h"
#include "reference/model/packing.h"
#include "reference/model/tensor_proto.h"
#include "tests/unit/op_test_util.h"
#include "tests/unit/ops/small_type_util.h"

namespace sonnx::testing {
namespace {

using Codes = std::vector<unsigned>;
Value ints(const std::vector<int64_t>& v) { return tensor<int64_t>({static_cast<int64_t>(v.size())}, v); }
Value codes(DType d, const Shape& s, const Codes& c) { return Value(small_tensor(d, s, c)); }

// Whether the schema that starts at op-version lists tensor(d) in any type constraint.
bool lists(const std::string& op, int64_t version, DType d) {
  const catalogue::Schema* s = catalogue::exact("", op, version);
  if (!s) return false;
  std::string want = "tensor(" + std::string(dtype_name(d)) + ")";
  for (const auto& tc : s->type_constraints)
    for (const auto& t : tc.types)
      if (t == want) return true;
  return false;
}

// Calls f(version, type) for every version of `versions` and small type the schema lists; returns
// how many pairs ran.
template <class F>
int for_each_listed(const std::string& op, const std::vector<int64_t>& versions, F f) {
  int n = 0;
  for (int64_t v : versions)
    for (DType d : small_dtypes()) {
      if (!lists(op, v, d)) continue;
      SCOPED_TRACE(op + "-" + std::to_string(v) + " " + std::string(dtype_name(d)));
      f(v, d);
      ++n;
    }
  return n;
}

// The output's type, shape and codes.
void expect_codes(const Value& got, DType d, const Shape& shape, const Codes& want) {
  ASSERT_TRUE(got.is_tensor());
  EXPECT_EQ(got.tensor.dtype(), d);
  EXPECT_EQ(got.tensor.shape(), shape);
  EXPECT_EQ(codes_of(got.tensor), want);
}

// Three distinct codes (every type has at least four).
Codes abc(DType) { return {1, 2, 3}; }

// ---------------------------------------------------------------------------------------------
// Transpose: out[j][i] = in[i][j]; and a rank-3 permutation.

TEST(SmallTypesTranspose, SwapsAxesOfEveryListedType) {
  int n = for_each_listed("Transpose", {21, 23, 24, 25}, [](int64_t v, DType d) {
    // [2,3] of codes c0..c5 (distinct for 4- and 8-bit types; 2-bit types wrap: 1 2 3 0 1 2).
    Codes in = counting_codes(d, 6);
    expect_codes(run1("Transpose", v, {codes(d, {2, 3}, in)}), d, {3, 2}, {in[0], in[3], in[1], in[4], in[2], in[5]});
    // An odd count: [1,3] → [3,1] keeps the order; rank 3 with perm (2, 0, 1) on [1,2,2].
    expect_codes(run1("Transpose", v, {codes(d, {1, 3}, abc(d))}), d, {3, 1}, abc(d));
    Codes q = {0, 1, 2, 3};  // in[0][a][b] = q[2a + b]; out[b][0][a] = in[0][a][b]
    expect_codes(run1("Transpose", v, {codes(d, {1, 2, 2}, q)}, {attr_ints("perm", {2, 0, 1})}), d, {2, 1, 2},
                 {q[0], q[2], q[1], q[3]});
  });
  EXPECT_EQ(n, 6 + 7 + 8 + 10);  // the types each version lists
}

// ---------------------------------------------------------------------------------------------
// Pad on [a, b, c] with pads (2, 1): every mode's element order from the operator's text.

TEST(SmallTypesPad, EveryModeOnThreeElements) {
  int n = for_each_listed("Pad", {21, 23, 24, 25}, [](int64_t v, DType d) {
    const unsigned a = 1, b = 2, c = 3, k = 0;  // k: the constant
    Value x = codes(d, {3}, {a, b, c});
    Value pads = ints({2, 1});
    Value fill = codes(d, {}, {k});
    expect_codes(run1("Pad", v, {x, pads, fill}), d, {6}, {k, k, a, b, c, k});
    expect_codes(run1("Pad", v, {x, pads}, {attr_string("mode", "edge")}), d, {6}, {a, a, a, b, c, c});
    expect_codes(run1("Pad", v, {x, pads}, {attr_string("mode", "reflect")}), d, {6}, {c, b, a, b, c, b});
    expect_codes(run1("Pad", v, {x, pads}, {attr_string("mode", "wrap")}), d, {6}, {b, c, a, b, c, a});
    // A constant other than the zero code; negative pads crop to an odd count.
    expect_codes(run1("Pad", v, {x, ints({1, 0}), codes(d, {}, {3})}), d, {4}, {3, a, b, c});
    expect_codes(run1("Pad", v, {codes(d, {5}, counting_codes(d, 5)), ints({-1, -1})}), d, {3},
                 {counting_codes(d, 5)[1], counting_codes(d, 5)[2], counting_codes(d, 5)[3]});
  });
  EXPECT_EQ(n, 6 + 7 + 8 + 10);
}

TEST(SmallTypesPad, DefaultConstantIsTheZeroByteAndTypesMustAgree) {
  for_each_listed("Pad", {25}, [](int64_t v, DType d) {
    expect_codes(run1("Pad", v, {codes(d, {1}, {1}), ints({1, 1})}), d, {3}, {0, 1, 0});
    // The zero byte is what Cast makes of 0 (float8e8m0 has no zero: its smallest value 2^-127).
    EXPECT_EQ(codes_of(run1("Cast", 25, {Value(Tensor::scalar<float>(0))}, {attr_int("to", static_cast<int>(d))}).tensor),
              Codes{0});
    expect_trap([&] { run1("Pad", v, {codes(d, {1}, {1}), ints({1, 1}), Value(Tensor::scalar<float>(0))}); }, "constant_value");
  });
}

// ---------------------------------------------------------------------------------------------
// ConstantOfShape: every element is the value attribute's single element.

onnx::AttributeProto value_attr(const Tensor& t) {
  onnx::AttributeProto a;
  a.set_name("value");
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = tensor_to_proto(t);
  return a;
}

TEST(SmallTypesConstantOfShape, FillsWithTheValueAttribute) {
  int n = for_each_listed("ConstantOfShape", {20, 21, 23, 24, 25}, [](int64_t v, DType d) {
    unsigned k = 3;
    expect_codes(run1("ConstantOfShape", v, {ints({5})}, {value_attr(small_tensor(d, {1}, {k}))}), d, {5}, Codes(5, k));
    expect_codes(run1("ConstantOfShape", v, {ints({2, 0})}, {value_attr(small_tensor(d, {1}, {k}))}), d, {2, 0}, {});
  });
  EXPECT_EQ(n, 4 + 6 + 7 + 8 + 10);
}

// ---------------------------------------------------------------------------------------------
// Dropout-22 with float8 data and ratio.

TEST(SmallTypesDropout, InferenceReturnsTheDataAndAnAllTrueMask) {
  int n = for_each_listed("Dropout", {22}, [](int64_t v, DType d) {
    Codes in = counting_codes(d, 5);
    auto out = run_op("Dropout", v, {codes(d, {5}, in), codes(d, {}, {0x30})}, {}, 2);  // ratio 0.5 or so, not training
    expect_codes(out[0], d, {5}, in);
    EXPECT_EQ(values_of<bool>(out[1]), std::vector<bool>(5, true));
  });
  EXPECT_EQ(n, 4);
}

TEST(SmallTypesDropout, TrainingScalesKeptValuesAndRoundsWithoutSaturation) {
  // e4m3fn: 1 = 0x38, 1.5 = 0x3C, -2 = 0xC0, 448 (max) = 0x7E; ratio 0.5 = 0x30 → scale 2:
  // 2 = 0x40, 3 = 0x44, -4 = 0xC8, 896 is out of range: NaN (0x7F) without saturation.
  DType d = DType::Float8E4M3FN;
  Codes in = {0x38, 0x3C, 0xC0, 0x7E, 0x38, 0x3C, 0xC0, 0x7E};
  Codes doubled = {0x40, 0x44, 0xC8, 0x7F, 0x40, 0x44, 0xC8, 0x7F};
  auto out = run_op("Dropout", 22, {codes(d, {8}, in), codes(d, {}, {0x30}), bool_scalar(true)}, {attr_int("seed", 7)}, 2);
  Codes got = codes_of(out[0].tensor);
  std::vector<bool> mask = values_of<bool>(out[1]);
  ASSERT_EQ(got.size(), 8u);
  int kept = 0;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(got[i], mask[i] ? doubled[i] : 0u) << i;
    kept += mask[i];
  }
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, 8);
}

// ---------------------------------------------------------------------------------------------
// IsInf-20 / IsNaN-20 on float8 codes (ONNX's float8 note: e4m3fn has NaN S.1111.111 and no
// infinity; e5m2 has ±inf S.11111.00 and NaN S.11111.{01,10,11}; the fnuz kinds NaN 1.0000.000 only).

TEST(SmallTypesIsInfIsNaN, Float8SpecialCodes) {
  struct Row {
    DType d;
    Codes x;
    std::vector<bool> inf, nan;
  };
  std::vector<Row> rows = {
      {DType::Float8E4M3FN, {0x7F, 0xFF, 0x7E, 0x00, 0x80}, {0, 0, 0, 0, 0}, {1, 1, 0, 0, 0}},
      {DType::Float8E5M2, {0x7C, 0xFC, 0x7D, 0xFF, 0x7B}, {1, 1, 0, 0, 0}, {0, 0, 1, 1, 0}},
      {DType::Float8E4M3FNUZ, {0x80, 0x7F, 0xFF, 0x00, 0x01}, {0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}},
      {DType::Float8E5M2FNUZ, {0x80, 0x7F, 0xFF, 0x00, 0x7C}, {0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(dtype_name(r.d));
    ASSERT_TRUE(lists("IsInf", 20, r.d) && lists("IsNaN", 20, r.d));
    Value x = codes(r.d, {5}, r.x);
    EXPECT_EQ(values_of<bool>(run1("IsInf", 20, {x})), r.inf);
    EXPECT_EQ(values_of<bool>(run1("IsNaN", 20, {x})), r.nan);
  }
  // e5m2: detect_positive / detect_negative pick the sign.
  Value x = codes(DType::Float8E5M2, {2}, {0x7C, 0xFC});
  EXPECT_EQ(values_of<bool>(run1("IsInf", 20, {x}, {attr_int("detect_negative", 0)})), (std::vector<bool>{true, false}));
  EXPECT_EQ(values_of<bool>(run1("IsInf", 20, {x}, {attr_int("detect_positive", 0)})), (std::vector<bool>{false, true}));
}

// ---------------------------------------------------------------------------------------------
// QLinearMatMul-21 with float8 a, b and y (e4m3fn: 0.5 = 0x30, 1 = 0x38, 2 = 0x40, 3 = 0x44, 4 = 0x48).

TEST(SmallTypesQLinearMatMul, Float8Product) {
  DType d = DType::Float8E4M3FN;
  Value a = codes(d, {1, 2}, {0x38, 0x40});  // [1, 2]
  Value b = codes(d, {2, 1}, {0x44, 0x30});  // [3; 0.5] → 1·3 + 2·0.5 = 4
  Value zero = codes(d, {}, {0});
  auto f = [](float v) { return Value(Tensor::scalar<float>(v)); };
  expect_codes(run1("QLinearMatMul", 21, {a, f(1), zero, b, f(1), zero, f(1), zero}), d, {1, 1}, {0x48});
  expect_codes(run1("QLinearMatMul", 21, {a, f(1), zero, b, f(1), zero, f(2), zero}), d, {1, 1}, {0x40});
}

// ---------------------------------------------------------------------------------------------
// TensorScatter-24 writes update's slices at the write index (linear, circular).

TEST(SmallTypesTensorScatter, WritesAtTheIndexLinearAndCircular) {
  int n = for_each_listed("TensorScatter", {24}, [](int64_t v, DType d) {
    const unsigned a = 1, b = 2, z = 0;
    Value past = codes(d, {1, 4, 1}, {z, z, z, z});
    Value update = codes(d, {1, 2, 1}, {a, b});
    expect_codes(run1("TensorScatter", v, {past, update, ints({1})}), d, {1, 4, 1}, {z, a, b, z});
    expect_codes(run1("TensorScatter", v, {past, update, ints({3})}, {attr_string("mode", "circular")}), d, {1, 4, 1},
                 {b, z, z, a});
  });
  EXPECT_EQ(n, 8);
}

// ---------------------------------------------------------------------------------------------
// If, Loop and Scan pass small tensors (and If sequences) through unchanged.

onnx::GraphProto identities(const std::vector<std::string>& ins, const std::vector<std::pair<std::string, std::string>>& moves) {
  std::vector<onnx::NodeProto> nodes;
  std::vector<onnx::ValueInfoProto> gin, gout;
  for (const auto& i : ins) gin.push_back(vi(i));
  for (const auto& [from, to] : moves) {
    nodes.push_back(node("Identity", {from}, {to}));
    gout.push_back(vi(to));
  }
  return graph("body", nodes, gin, gout);
}

TEST(SmallTypesControlFlow, IfLoopScanPassValuesThrough) {
  int n = for_each_listed("Scan", {19, 21, 23, 24, 25}, [](int64_t v, DType d) {
    Codes in = {1, 2, 3};
    Value x = codes(d, {3}, in);
    // If: the taken branch returns the outer x (as a tensor, then inside a sequence).
    onnx::GraphProto then_b = identities({}, {{"X", "o"}});
    onnx::GraphProto else_b = identities({}, {{"E", "o"}});
    onnx::GraphProto g =
        graph("m", {node("If", {"C"}, {"Y"}, {attr_graph("then_branch", then_b), attr_graph("else_branch", else_b)})},
              {vi("C"), vi("X"), vi("E")}, {vi("Y")});
    NamedValues out = run_graph(g, {{"", v}}, {{"C", bool_scalar(true)}, {"X", x}, {"E", codes(d, {1}, {0})}});
    expect_codes(out["Y"], d, {3}, in);
    Value seq = seq_of({x}, d);
    out = run_graph(g, {{"", v}}, {{"C", bool_scalar(false)}, {"X", x}, {"E", seq}});
    ASSERT_TRUE(out["Y"].is_sequence());
    expect_codes(out["Y"].sequence.at(0), d, {3}, in);
    // Loop: two iterations carry x unchanged.
    onnx::GraphProto loop_body = identities({"i", "c", "v"}, {{"c", "c_out"}, {"v", "v_out"}});
    expect_codes(run1("Loop", v, {i64_scalar(2), Value(), x}, {attr_graph("body", loop_body)}), d, {3}, in);
    // Scan: the state passes through, the scan output restacks x's rows.
    onnx::GraphProto scan_body = identities({"s", "r"}, {{"s", "s_out"}, {"r", "y"}});
    auto scan = run_op("Scan", v, {codes(d, {1}, {3}), codes(d, {3, 1}, in)},
                       {attr_graph("body", scan_body), attr_int("num_scan_inputs", 1)}, 2);
    expect_codes(scan[0], d, {1}, {3});
    expect_codes(scan[1], d, {3, 1}, in);
  });
  EXPECT_EQ(n, 4 + 6 + 7 + 8 + 10);
}

// ---------------------------------------------------------------------------------------------
// Element-moving kernels of operators whose schemas do not list the small types (the validator
// refuses such nodes; the kernels share the generic copy path and move them all the same).

TEST(SmallTypesGenericCopy, ConcatWhereGatherScatterExpandTileSlice) {
  for (DType d : small_dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const unsigned a = 1, b = 2, c = 3, z = 0;
    Value x = codes(d, {3}, {a, b, c});
    Value y = codes(d, {2}, {z, a});
    expect_codes(run1("Concat", 13, {x, y}, {attr_int("axis", 0)}), d, {5}, {a, b, c, z, a});
    expect_codes(run1("Where", 16, {tensor<bool>({3}, {true, false, true}), x, codes(d, {3}, {z, z, z})}), d, {3}, {a, z, c});
    expect_codes(run1("Gather", 13, {x, ints({2, 0, -1})}), d, {3}, {c, a, c});
    expect_codes(run1("GatherElements", 13, {x, ints({1, 1, 0})}), d, {3}, {b, b, a});
    expect_codes(run1("ScatterND", 18, {x, tensor<int64_t>({1, 1}, {1}), codes(d, {1}, {z})}), d, {3}, {a, z, c});
    expect_codes(run1("ScatterElements", 18, {x, ints({2}), codes(d, {1}, {z})}), d, {3}, {a, b, z});
    expect_codes(run1("Expand", 13, {codes(d, {3, 1}, {a, b, c}), ints({3, 2})}), d, {3, 2}, {a, a, b, b, c, c});
    expect_codes(run1("Tile", 13, {x, ints({2})}), d, {6}, {a, b, c, a, b, c});
    expect_codes(run1("Slice", 13, {x, ints({2}), ints({-4}), ints({0}), ints({-1})}), d, {3}, {c, b, a});
    // A reduction computes: still refused for these types.
    EXPECT_ANY_THROW(
        run1("ScatterND", 18, {x, tensor<int64_t>({1, 1}, {1}), codes(d, {1}, {z})}, {attr_string("reduction", "add")}));
  }
}

TEST(SmallTypesGenericCopy, GatherNDSplitCompressReverseTriluCropSequencesOptionals) {
  for (DType d : small_dtypes()) {
    SCOPED_TRACE(dtype_name(d));
    const unsigned a = 1, b = 2, c = 3, z = 0;
    Value x = codes(d, {3}, {a, b, c});
    Value m = codes(d, {2, 2}, {z, a, b, c});  // m[i][j] = {z, a; b, c}
    expect_codes(run1("GatherND", 13, {m, tensor<int64_t>({2, 2}, {1, 0, 0, 1})}), d, {2}, {b, a});
    auto parts = run_op("Split", 18, {x, ints({1, 2})}, {}, 2);
    expect_codes(parts[0], d, {1}, {a});
    expect_codes(parts[1], d, {2}, {b, c});
    expect_codes(run1("Compress", 11, {x, tensor<bool>({3}, {true, false, true})}), d, {2}, {a, c});
    // ReverseSequence: m as [time, batch]; batch 0 reverses 2 steps, batch 1 keeps its single one.
    expect_codes(run1("ReverseSequence", 10, {m, ints({2, 1})}, {attr_int("time_axis", 0), attr_int("batch_axis", 1)}), d,
                 {2, 2}, {b, a, z, c});
    // Trilu: the upper triangle stays, the element below the diagonal becomes the zero byte.
    expect_codes(run1("Trilu", 14, {codes(d, {2, 2}, {a, b, c, a})}), d, {2, 2}, {a, b, z, a});
    expect_codes(run1("CenterCropPad", 18, {x, ints({5})}), d, {5}, {z, a, b, c, z});
    expect_codes(run1("CenterCropPad", 18, {x, ints({1})}), d, {1}, {b});
    // Sequences and optionals hold small tensors like any other.
    Value seq = run1("SplitToSequence", 11, {x, ints({2, 1})});
    ASSERT_TRUE(seq.is_sequence());
    ASSERT_EQ(seq.sequence.size(), 2u);
    expect_codes(seq.sequence[0], d, {2}, {a, b});
    expect_codes(seq.sequence[1], d, {1}, {c});
    expect_codes(run1("ConcatFromSequence", 11, {seq}, {attr_int("axis", 0)}), d, {3}, {a, b, c});
    expect_codes(run1("SequenceAt", 11, {seq, i64_scalar(-1)}), d, {1}, {c});
    Value opt = run1("Optional", 15, {x});
    ASSERT_TRUE(opt.is_optional() && opt.optional);
    expect_codes(run1("OptionalGetElement", 18, {opt}), d, {3}, {a, b, c});
  }
}

// ---------------------------------------------------------------------------------------------
// Odd element counts of 4- and 2-bit results survive TensorProto packing (the last byte half or
// three-quarters padding).

TEST(SmallTypesTranspose, OddSubByteResultsRoundTripThroughTensorProto) {
  for (DType d : {DType::Int4, DType::UInt4, DType::Float4E2M1, DType::Int2, DType::UInt2}) {
    SCOPED_TRACE(dtype_name(d));
    Codes in = {1, 2, 3};
    Value out = run1("Transpose", 25, {codes(d, {3, 1}, in)});
    onnx::TensorProto p = tensor_to_proto(out.tensor);
    // Low bits first: 4-bit: bytes 0x21, 0x03; 2-bit: 0b00111001 = 0x39.
    std::string want = code_bits(d) == 4 ? std::string("\x21\x03", 2) : std::string("\x39", 1);
    EXPECT_EQ(p.raw_data(), want);
    Tensor back = tensor_from_proto(p);
    EXPECT_EQ(back, out.tensor);
    EXPECT_EQ(codes_of(back), in);
  }
}

}  // namespace
}  // namespace sonnx::testing
