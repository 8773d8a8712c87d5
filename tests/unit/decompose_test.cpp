// Decompositions of the operators outside the SONNX profile (admit/decompose.h): a node of
// HardSigmoid, Gelu, Mish, Selu or Elu, at every version the reference implements (and at the
// opsets where the forms of the new nodes change), for each element type and several attribute
// values (defaults absent included), is run by the reference before and after
// decompose_operators on special values (±0, ±inf, NaNs with payloads and signs, signaling NaNs,
// extremes, denormals) and seeded random values — every code of float16 and bfloat16 — and the
// outputs must be bitwise equal. Elu on float and double is the one inexact decomposition: within
// an ulp (float) or a few (double), and recorded so. Each refusal leaves the node and says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <set>

#include "admit/decompose.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
#include "reference/check/validator.h"
#include "reference/infer/infer.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"
#include "loaded_model_util.h"

namespace sonnx {
namespace {

Attribute decompose_float_attr(const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Float;
  a.f = v;
  return a;
}

Attribute string_attr(const std::string& name, const std::string& v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::String;
  a.s = v;
  return a;
}

using Attrs = std::vector<Attribute>;

std::string describe(const Attrs& attrs) {
  std::string d;
  for (const Attribute& a : attrs)
    d += (d.empty() ? "" : ", ") + a.name + " = " + (a.type == Attribute::Type::String ? a.s : std::to_string(a.f));
  return d.empty() ? "defaults" : d;
}

constexpr int64_t kRandomCount = 6000;

// The values a node is run on. float16 and bfloat16: every code. float and double: special values
// and seeded random ones (random bit patterns, which reach every magnitude and NaN payload, and
// uniform values in [-12, 12], where the activations bend).
Tensor test_values(DType type, uint64_t seed) {
  std::mt19937_64 rng(seed);
  if (type == DType::Float16 || type == DType::BFloat16) {
    Tensor t(type, {65536});
    for (int64_t i = 0; i < 65536; ++i) {
      auto code = static_cast<uint16_t>(i);
      std::memcpy(t.raw() + 2 * i, &code, 2);
    }
    return t;
  }
  std::vector<double> numbers{1,     -1,     0.5,   -0.5,   2,      -2,      2.5,   -2.5,   3,       -3,      1e-8, -1e-8,
                              1e-30, -1e-30, 20,    -20,    40,     -40,     88.7,  -88.7,  100,     -100,    710,  -710,
                              -745,  -750,   1e30,  -1e30,  0.1,    -0.1,    1e-3,  -1e-3,  5.5,     -5.5,    16,   -16,
                              -37.5, -38.5,  1e300, -1e300, 1e-310, -1e-310, 7e-46, -7e-46, 1.5e-45, -1.5e-45};
  std::uniform_real_distribution<double> uniform(-12, 12);
  if (type == DType::Float) {
    std::vector<uint32_t> bits{0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                               0x7fc12345u, 0xffd00001u, 0x7f800001u, 0xff900000u, 0x00000001u, 0x80000001u,
                               0x007fffffu, 0x807fffffu, 0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu};
    for (double v : numbers) bits.push_back(std::bit_cast<uint32_t>(static_cast<float>(v)));
    for (int64_t i = 0; i < kRandomCount; ++i)
      bits.push_back(i % 2 ? static_cast<uint32_t>(rng()) : std::bit_cast<uint32_t>(static_cast<float>(uniform(rng))));
    Tensor t(type, {static_cast<int64_t>(bits.size())});
    std::memcpy(t.raw(), bits.data(), 4 * bits.size());
    return t;
  }
  std::vector<uint64_t> bits{0x0000000000000000u, 0x8000000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u,
                             0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff800000000beefu, 0xfffc000000000001u,
                             0x7ff0000000000001u, 0xfff4000000000000u, 0x0000000000000001u, 0x8000000000000001u,
                             0x000fffffffffffffu, 0x800fffffffffffffu, 0x0010000000000000u, 0x8010000000000000u,
                             0x7fefffffffffffffu, 0xffefffffffffffffu};
  for (double v : numbers) bits.push_back(std::bit_cast<uint64_t>(v));
  for (int64_t i = 0; i < kRandomCount; ++i) bits.push_back(i % 2 ? rng() : std::bit_cast<uint64_t>(uniform(rng)));
  Tensor t(type, {static_cast<int64_t>(bits.size())});
  std::memcpy(t.raw(), bits.data(), 8 * bits.size());
  return t;
}

// A model of one node `Y = op <attrs> (X)` at `opset` over a vector of n elements of `type`.
Model one_node_model(const std::string& op, int64_t opset, DType type, const Attrs& attrs, int64_t n) {
  std::string t(dtype_name(type));
  std::string shape = t + "[" + std::to_string(n) + "]";
  Model m = text::parse_model("<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\ng (" + shape + " X) => (" +
                              shape + " Y) {\n  Y = " + op + " (X)\n}");
  m.graph.nodes[0].attributes = attrs;
  return m;
}

Tensor run(const Model& m, const Tensor& x) { return Interpreter(m).run({{"X", Value(x)}}).at("Y").tensor; }

// Element i of a float or double tensor as its bits (zero-extended).
uint64_t bits_at(const Tensor& t, int64_t i) {
  uint64_t b = 0;
  size_t w = dtype_size(t.dtype());
  std::memcpy(&b, t.raw() + static_cast<size_t>(i) * w, w);
  return b;
}

std::string hex(uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(b));
  return buf;
}

// The elements where two tensors differ bitwise, as "[i] x=.. before=.. after=.." (the first few).
std::string differences(const Tensor& x, const Tensor& before, const Tensor& after, int64_t* count = nullptr) {
  std::string d;
  int64_t k = 0;
  for (int64_t i = 0; i < before.size(); ++i) {
    if (bits_at(before, i) == bits_at(after, i)) continue;
    if (++k <= 5)
      d += " [" + std::to_string(i) + "] x=" + hex(bits_at(x, i)) + " before=" + hex(bits_at(before, i)) +
           " after=" + hex(bits_at(after, i));
  }
  if (count) *count = k;
  return k ? std::to_string(k) + " elements differ:" + d : "";
}

const Profile& sonnx_profile() {
  static const Profile p = load_profile("sonnx");
  return p;
}

// The validator's findings on m under a profile ("onnx": structure, attribute types, type
// constraints of each node's version at the model's opset, inference).
std::vector<Diagnostic> findings(const Model& m, const char* profile) {
  return validate(testing::loaded_model(m), load_profile(profile));
}

// Decomposes the one node of `m` at `opset` and checks what it became: no node of the operator
// left, the output still computed under its name by the last node, every new node an ai.onnx
// operator of that opset (of the profile's version at opset 25) in that version's form (the
// validator finds no error; at opset 25 no operator outside the profile), every new initializer a 0-D
// double (or of the element type), one change in the log. Returns the change.
admit::Change decompose_and_check(Model& m, int64_t opset) {
  const std::string op = m.graph.nodes[0].op_type;
  auto types = infer_model(m).types;
  admit::ChangeLog log;
  admit::decompose_operators(m.graph, opset, types, log);
  EXPECT_TRUE(log.refused.empty()) << log.refused.front();
  EXPECT_EQ(log.changes.size(), 1u);
  if (log.changes.size() != 1) return {};
  const admit::Change& c = log.changes[0];
  EXPECT_EQ(c.rewrite, "decompose");
  EXPECT_EQ(c.target, "#0 (" + op + ")");
  EXPECT_EQ(c.rule, "SONNX-OPERATOR-SET");
  EXPECT_EQ(c.detail.rfind(op + " → ", 0), 0u) << c.detail;
  EXPECT_GE(m.graph.nodes.size(), 2u);
  EXPECT_EQ(m.graph.nodes.back().outputs, std::vector<std::string>{"Y"});
  for (size_t i = 0; i < m.graph.nodes.size(); ++i) {
    const Node& n = m.graph.nodes[i];
    SCOPED_TRACE(n.op_type);
    EXPECT_NE(n.op_type, op);
    EXPECT_TRUE(n.domain.empty());
    EXPECT_EQ(n.index, i);
    const catalogue::Schema* s = catalogue::find("", n.op_type, opset);
    EXPECT_NE(s, nullptr);
    if (s && opset == 25) {
      auto pins = sonnx_profile().operators.find(n.op_type);
      EXPECT_NE(pins, sonnx_profile().operators.end()) << n.op_type << " is not in the profile";
      if (pins != sonnx_profile().operators.end()) {
        EXPECT_TRUE(pins->second.count(s->version)) << s->id() << " is not the profile's version";
      }
    }
  }
  for (const Diagnostic& d : findings(m, "onnx")) {
    if (d.severity == Severity::Error) ADD_FAILURE() << format_diagnostic(d);
  }
  if (opset == 25) {
    for (const Diagnostic& d : findings(m, "sonnx")) EXPECT_NE(d.rule, "SONNX-OPERATOR-SET") << format_diagnostic(d);
  }
  DType type = m.graph.inputs[0].type.elem;
  for (const auto& [name, t] : m.graph.initializers) {
    EXPECT_TRUE(t.dtype() == DType::Double || t.dtype() == type) << name << " is " << dtype_name(t.dtype());
    EXPECT_EQ(t.rank(), 0) << name;
  }
  return c;
}

// Runs `op` at `opset` on `type` with each attribute set before and after the decomposition: the
// outputs must be bitwise equal and the change recorded as exact.
void expect_bitwise(const std::string& op, const std::vector<int64_t>& opsets, const std::vector<DType>& types,
                    const std::vector<Attrs>& attribute_sets, int64_t bfloat16_from = 1000) {
  uint64_t seed = 1;
  for (int64_t opset : opsets)
    for (DType type : types) {
      if (type == DType::BFloat16 && opset < bfloat16_from) continue;
      for (const Attrs& attrs : attribute_sets) {
        SCOPED_TRACE(op + " at opset " + std::to_string(opset) + " on " + std::string(dtype_name(type)) + ", " +
                     describe(attrs));
        Tensor x = test_values(type, seed++);
        Model m = one_node_model(op, opset, type, attrs, x.size());
        Tensor before = run(m, x);
        admit::Change c = decompose_and_check(m, opset);
        EXPECT_TRUE(c.exact) << c.detail;
        Tensor after = run(m, x);
        ASSERT_EQ(after.dtype(), type);
        ASSERT_EQ(after.shape(), before.shape());
        EXPECT_EQ(differences(x, before, after), "");
      }
    }
}

const std::vector<DType> kTypes{DType::Float, DType::Double, DType::Float16, DType::BFloat16};

TEST(Decompose, HardSigmoidComputesBitwiseWhatItsKernelComputes) {
  // Versions 1 (opsets 1-5: Cast's `to` a string, legacy Mul/Add), 6 (6-21: legacy broadcasting
  // at 6, Clip's bounds attributes before 11) and 22.
  std::vector<Attrs> attrs{{},
                           {decompose_float_attr("alpha", 0.5f), decompose_float_attr("beta", 0.6f)},
                           {decompose_float_attr("alpha", -3.7f), decompose_float_attr("beta", 0.1f)},
                           {decompose_float_attr("alpha", 0.0f), decompose_float_attr("beta", -0.0f)},  // -0 kept
                           {decompose_float_attr("beta", 1.0f)},
                           {decompose_float_attr("alpha", 3.0e38f), decompose_float_attr("beta", -1.5f)},
                           {decompose_float_attr("alpha", std::numeric_limits<float>::infinity())}};
  expect_bitwise("HardSigmoid", {1, 5, 6, 7, 10, 11, 21, 22, 25}, kTypes, attrs, 22);
}

TEST(Decompose, GeluComputesBitwiseWhatItsKernelComputes) {
  std::vector<Attrs> attrs{{}, {string_attr("approximate", "none")}, {string_attr("approximate", "tanh")}};
  expect_bitwise("Gelu", {20, 25}, kTypes, attrs, 20);
}

TEST(Decompose, MishComputesBitwiseWhatItsKernelComputes) {
  // Versions 18 and 22; on double a signaling NaN comes out as it went in, as from the kernel.
  expect_bitwise("Mish", {18, 21, 22, 25}, kTypes, {{}}, 22);
}

TEST(Decompose, SeluComputesBitwiseWhatItsKernelComputes) {
  // Versions 1 (defaults 1.6732 and 1.0507), 6 and 22; the sum of the branches before opset 9
  // (legacy broadcasting at 5 and 6, Relu-based max/min before 8), Where from 9.
  std::vector<Attrs> attrs{{},
                           {decompose_float_attr("alpha", 2.0f), decompose_float_attr("gamma", 3.0f)},
                           {decompose_float_attr("alpha", 0.5f), decompose_float_attr("gamma", -1.25f)},
                           {decompose_float_attr("alpha", -1.5f), decompose_float_attr("gamma", 0.75f)},
                           {decompose_float_attr("alpha", 0.0f)},
                           {decompose_float_attr("gamma", 1e-30f)}};
  expect_bitwise("Selu", {1, 5, 6, 7, 8, 9, 13, 21, 22, 25}, kTypes, attrs, 22);
  // Where needs none of the sum's conditions on the attributes.
  float inf = std::numeric_limits<float>::infinity();
  expect_bitwise("Selu", {9, 25}, kTypes,
                 {{decompose_float_attr("gamma", 0.0f)},
                  {decompose_float_attr("gamma", -0.0f)},
                  {decompose_float_attr("alpha", inf)},
                  {decompose_float_attr("gamma", -inf)}},
                 22);
}

TEST(Decompose, EluComputesBitwiseWhatItsKernelComputesOn16BitTypes) {
  // Versions 1, 6 and 22 (bfloat16); the 65536 codes are checked when decomposing, and here again.
  std::vector<Attrs> attrs{{},
                           {decompose_float_attr("alpha", 2.0f)},
                           {decompose_float_attr("alpha", 0.1f)},
                           {decompose_float_attr("alpha", 1.6732f)}};
  expect_bitwise("Elu", {5, 6, 7, 8, 9, 21, 22, 25}, {DType::Float16, DType::BFloat16}, attrs, 22);
  expect_bitwise("Elu", {9, 25}, {DType::Float16, DType::BFloat16},
                 {{decompose_float_attr("alpha", -0.75f)}, {decompose_float_attr("alpha", 0.0f)}}, 22);
}

// Distance in units in the last place between two numbers of one type (float: width 4, double:
// 8), by their order as integers (±0 are one point).
uint64_t ulps(uint64_t a, uint64_t b, size_t width) {
  uint64_t sign = width == 4 ? uint64_t{0x80000000u} : uint64_t{0x8000000000000000u};
  auto key = [&](uint64_t v) {
    uint64_t magnitude = v & (sign - 1);
    return v & sign ? sign - magnitude : sign + magnitude;
  };
  uint64_t ka = key(a), kb = key(b);
  return ka > kb ? ka - kb : kb - ka;
}

// Elu's kernel calls expm1, which no profile operator computes: on float and double the
// decomposition is recorded as inexact; it keeps x >= 0, -inf and NaN bitwise and is within an
// ulp of the kernel on float, a few on double. (Run by the reference on every negative float at
// opset 25, the Where form gave the kernel's bits on all 2^31 codes with alpha 1 and 0.1; the form
// before opset 9 differs by an ulp on rare values.)
TEST(Decompose, EluOnFloatAndDoubleIsWithinAnUlpOrAFewAndRecordedAsInexact) {
  uint64_t seed = 100;
  uint64_t max_float = 0, max_double = 0;
  for (int64_t opset : {5, 7, 8, 9, 22, 25})
    for (DType type : {DType::Float, DType::Double})
      for (const Attrs& attrs :
           std::vector<Attrs>{{}, {decompose_float_attr("alpha", 0.1f)}, {decompose_float_attr("alpha", 2.5f)}}) {
        SCOPED_TRACE("opset " + std::to_string(opset) + " on " + std::string(dtype_name(type)) + ", " + describe(attrs));
        Tensor x = test_values(type, seed++);
        Model m = one_node_model("Elu", opset, type, attrs, x.size());
        Tensor before = run(m, x);
        admit::Change c = decompose_and_check(m, opset);
        EXPECT_FALSE(c.exact) << c.detail;
        EXPECT_NE(c.detail.find("not bitwise"), std::string::npos) << c.detail;
        Tensor after = run(m, x);
        size_t w = dtype_size(type);
        uint64_t& worst = type == DType::Float ? max_float : max_double;
        for (int64_t i = 0; i < x.size(); ++i) {
          double v = type == DType::Float ? x.data<float>()[i] : x.data<double>()[i];
          uint64_t b = bits_at(before, i), a = bits_at(after, i);
          SCOPED_TRACE("x = " + hex(bits_at(x, i)) + ", before " + hex(b) + ", after " + hex(a));
          if (std::isnan(v)) {
            // The same NaN; before opset 9 (relu(x) + ...) a double signaling NaN comes out quiet.
            uint64_t quiet = w == 4 ? 0x00400000u : 0x0008000000000000u;
            EXPECT_EQ(a | (opset < 9 ? quiet : 0), b | (opset < 9 ? quiet : 0));
          } else if (!(v < 0) || std::isinf(v)) {
            EXPECT_EQ(a, b);
          } else {
            uint64_t d = ulps(a, b, w);
            worst = std::max(worst, d);
            EXPECT_LE(d, type == DType::Float ? 1u : 4u);
          }
        }
      }
  std::printf("Elu on float: at most %llu ulp from the kernel; on double: %llu\n", static_cast<unsigned long long>(max_float),
              static_cast<unsigned long long>(max_double));
}

// --- Refusals: the node stays, and log.refused says why.

// Decomposes m's graph with `types` (inferred when null) and returns log.refused; the node must be
// left as it was and nothing added.
std::vector<std::string> refusals(Model& m, int64_t opset, const std::map<std::string, TypeInfo>* types = nullptr) {
  std::vector<Node> nodes = m.graph.nodes;
  size_t initializers = m.graph.initializers.size();
  admit::ChangeLog log;
  admit::decompose_operators(m.graph, opset, types ? *types : infer_model(m).types, log);
  EXPECT_TRUE(log.changes.empty());
  EXPECT_EQ(m.graph.nodes.size(), nodes.size());
  for (size_t i = 0; i < nodes.size() && i < m.graph.nodes.size(); ++i) {
    EXPECT_EQ(m.graph.nodes[i].op_type, nodes[i].op_type);
    EXPECT_EQ(m.graph.nodes[i].inputs, nodes[i].inputs);
    EXPECT_EQ(m.graph.nodes[i].outputs, nodes[i].outputs);
  }
  EXPECT_EQ(m.graph.initializers.size(), initializers);
  return log.refused;
}

TEST(Decompose, RefusesANodeWhoseElementTypeIsUnknown) {
  Model m = one_node_model("HardSigmoid", 25, DType::Float, {}, 4);
  std::map<std::string, TypeInfo> none;
  EXPECT_EQ(refusals(m, 25, &none), std::vector<std::string>{"#0 (HardSigmoid): the element type of input 'X' is unknown"});
}

TEST(Decompose, RefusesAnElementTypeTheOperatorVersionDoesNotTake) {
  // HardSigmoid-6 (opset 21) has no bfloat16; no version has int32.
  Model m = one_node_model("HardSigmoid", 21, DType::BFloat16, {}, 4);
  EXPECT_EQ(refusals(m, 21), std::vector<std::string>{"#0 (HardSigmoid): input 'X' is bfloat16, not a type of HardSigmoid-6"});
  Model ints = one_node_model("HardSigmoid", 25, DType::Float, {}, 4);
  std::map<std::string, TypeInfo> types = infer_model(ints).types;
  types["X"].elem = DType::Int32;
  EXPECT_EQ(refusals(ints, 25, &types),
            std::vector<std::string>{"#0 (HardSigmoid): input 'X' is int32, not a type of HardSigmoid-22"});
}

TEST(Decompose, RefusesAttributesTheKernelWouldRefuse) {
  Model m = one_node_model("Gelu", 25, DType::Float, {string_attr("approximate", "erf")}, 4);
  EXPECT_EQ(refusals(m, 25),
            std::vector<std::string>{"#0 (Gelu): attribute approximate must be \"none\" or \"tanh\", got \"erf\""});
  Attribute int_alpha;
  int_alpha.name = "alpha";
  int_alpha.type = Attribute::Type::Int;
  int_alpha.i = 2;
  Model h = one_node_model("HardSigmoid", 25, DType::Float, {int_alpha}, 4);
  EXPECT_EQ(refusals(h, 25), std::vector<std::string>{"#0 (HardSigmoid): attribute 'alpha' has type INT, expected FLOAT"});
}

TEST(Decompose, RefusesSeluAndEluBeforeOpset9WhereTheSumOfBranchesIsNotExact) {
  // Without Where, Selu is a sum of its branches: gamma = 0 or an infinite alpha would turn the
  // other branch's zero into a NaN or flip a zero's sign; Elu's needs alpha > 0.
  float inf = std::numeric_limits<float>::infinity();
  for (const Attrs& attrs : std::vector<Attrs>{{decompose_float_attr("gamma", 0.0f)}, {decompose_float_attr("alpha", inf)}}) {
    Model m = one_node_model("Selu", 8, DType::Float, attrs, 4);
    EXPECT_EQ(refusals(m, 8),
              std::vector<std::string>{"#0 (Selu): before opset 9 (no Where) Selu is decomposed as a sum of its two "
                                       "branches, which needs finite alpha and gamma and gamma ≠ 0"});
  }
  for (const Attrs& attrs : std::vector<Attrs>{{decompose_float_attr("alpha", -1.0f)}, {decompose_float_attr("alpha", 0.0f)}}) {
    Model m = one_node_model("Elu", 5, DType::Float16, attrs, 4);
    EXPECT_EQ(refusals(m, 5),
              std::vector<std::string>{"#0 (Elu): before opset 9 (no Where) Elu is decomposed as relu(x) + alpha * "
                                       "expm1(min(x, -0)), which needs a finite alpha > 0"});
  }
}

TEST(Decompose, RefusesAnOpsetPastTheCatalogueAndAMalformedNode) {
  Model m = one_node_model("Mish", 25, DType::Float, {}, 4);
  std::map<std::string, TypeInfo> types = infer_model(m).types;
  int64_t past = catalogue::max_opset("") + 1;
  EXPECT_EQ(refusals(m, past, &types),
            std::vector<std::string>{"#0 (Mish): opset " + std::to_string(past) + " is past the catalogue's last (" +
                                     std::to_string(past - 1) + ")"});
  EXPECT_EQ(refusals(m, 17, &types), std::vector<std::string>{"#0 (Mish): Mish has no version at opset 17"});
  m.graph.nodes[0].outputs.push_back("Z");
  EXPECT_EQ(refusals(m, 25, &types),
            std::vector<std::string>{"#0 (Mish): the decomposition takes a node with one input and one output"});
}

// Only ai.onnx nodes of the main graph are replaced: a node of another domain and the nodes of a
// nested graph stay. New names avoid every name of the model, nested graphs included; the
// replaced node's output keeps its name, its consumer reads it, the new nodes stand where the old
// one stood, and the graph computes the same.
TEST(Decompose, NamesAreNewOutputsKeptAndNodesInPlace) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 25]>
g (bool c, float[6] X, double[6] h_x) => (float[6] Y, float[6] Z, double[6] W) {
  a = Neg (X)
  h = HardSigmoid (a)
  [sel] s = Selu <alpha = 2.0> (a)
  Y = Add (h, s)
  Z = If (c) <then_branch = t () => (float[6] z1) {
    sel_alpha = Identity (X)
    z1 = HardSigmoid (sel_alpha)
  }, else_branch = e () => (float[6] z2) {
    z2 = Identity (X)
  }>
  W = Identity (h_x)
})");
  std::set<std::string> before_names{"c", "X", "h_x", "a", "h", "sel", "s", "Y", "Z", "W", "sel_alpha", "z1", "z2"};
  Tensor x = Tensor::from_vector<float>({6}, {-3.0f, -0.0f, 0.0f, 0.25f, 1.0f, std::numeric_limits<float>::quiet_NaN()});
  Tensor hx(DType::Double, {6});
  Tensor cond = Tensor::scalar<bool>(true);
  NamedValues in{{"c", Value(cond)}, {"X", Value(x)}, {"h_x", Value(hx)}};
  NamedValues before = Interpreter(m).run(in);

  admit::ChangeLog log;
  admit::decompose_operators(m.graph, 25, infer_model(m).types, log);
  ASSERT_TRUE(log.refused.empty()) << log.refused.front();
  ASSERT_EQ(log.changes.size(), 2u);
  EXPECT_EQ(log.changes[0].target, "#1 (HardSigmoid)");
  EXPECT_EQ(log.changes[0].detail, "HardSigmoid → Cast, Mul, Add, Clip, Cast");
  EXPECT_EQ(log.changes[1].target, "sel (Selu)");
  EXPECT_EQ(log.changes[1].detail, "Selu → Cast, Less, Exp, Mul, Sub, Mul, Mul, Where, Cast");

  const auto& nodes = m.graph.nodes;
  EXPECT_EQ(nodes.front().op_type, "Neg");
  EXPECT_EQ(nodes[nodes.size() - 3].op_type, "Add");
  EXPECT_EQ(nodes[nodes.size() - 3].inputs, (std::vector<std::string>{"h", "s"}));
  EXPECT_EQ(nodes[nodes.size() - 2].op_type, "If");
  EXPECT_EQ(nodes[nodes.size() - 2].attr("then_branch")->g->nodes[1].op_type, "HardSigmoid") << "a nested graph is left";
  // The HardSigmoid's input is cast to double under a name its output gives ("h_x" is taken, in the
  // main graph), the Selu's constants under its node name ("sel_alpha" is taken, in the If).
  EXPECT_EQ(nodes[1].op_type, "Cast");
  EXPECT_EQ(nodes[1].inputs, std::vector<std::string>{"a"});
  EXPECT_EQ(nodes[1].outputs, std::vector<std::string>{"h_x_1"});
  std::set<std::string> initializers;
  for (const auto& [name, t] : m.graph.initializers) initializers.insert(name);
  EXPECT_TRUE(initializers.count("sel_alpha_1")) << "the Selu's alpha";
  std::set<std::string> seen;
  for (const Node& n : nodes) {
    if (n.op_type == "If") continue;
    for (const std::string& name : n.outputs) {
      EXPECT_TRUE(seen.insert(name).second) << name << " is assigned twice";
      if (name != "h" && name != "s" && name != "a" && name != "Y" && name != "W") {
        EXPECT_FALSE(before_names.count(name)) << name << " was a name of the model";
      }
    }
    if (n.op_type != "Neg" && n.op_type != "Add" && n.op_type != "Identity") {
      EXPECT_FALSE(before_names.count(n.name)) << n.name;
    }
  }
  for (const std::string& name : initializers) EXPECT_FALSE(before_names.count(name)) << name;

  NamedValues after = Interpreter(m).run(in);
  for (const char* y : {"Y", "Z", "W"}) {
    const Tensor& b = before.at(y).tensor;
    const Tensor& a = after.at(y).tensor;
    EXPECT_TRUE(a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.byte_size()) == 0) << y;
  }
}

TEST(Decompose, LeavesNodesOfOtherDomains) {
  Model m = one_node_model("HardSigmoid", 25, DType::Float, {}, 4);
  m.graph.nodes[0].domain = "com.example";
  std::map<std::string, TypeInfo> types = infer_model(one_node_model("HardSigmoid", 25, DType::Float, {}, 4)).types;
  admit::ChangeLog log;
  admit::decompose_operators(m.graph, 25, types, log);
  EXPECT_TRUE(log.changes.empty());
  EXPECT_TRUE(log.refused.empty());
  ASSERT_EQ(m.graph.nodes.size(), 1u);
  EXPECT_EQ(m.graph.nodes[0].op_type, "HardSigmoid");
}

}  // namespace
}  // namespace sonnx
