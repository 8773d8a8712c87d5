// An operator's attributes are read once, into its parameter struct (reference/ops/op_params.h):
// the reference kernel, the shape rule, the fast-kernel factory and the enclosure of a version
// whose record has one all accept the same attributes and refuse the same malformed ones. Several
// cases are forms on which the layers used to disagree, each reading the attributes itself
// (marked "was: ...").
#include <gtest/gtest.h>

#include <random>

#include "enclose_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "reference/infer/infer.h"
#include "reference/ops/op_params.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_int;
using sonnx::testing::attr_ints;
using sonnx::testing::attr_string;
using sonnx::testing::attr_strings;

struct ParamsCase {
  std::string what;
  std::string op;
  int64_t version;  // the model imports this opset, which selects exactly this version
  std::vector<Value> inputs;
  std::vector<onnx::AttributeProto> attrs;
  bool accepted;
};

Value random_floats(const Shape& shape, std::mt19937& rng) {
  return floats(shape, uniform_floats(static_cast<size_t>(shape_size(shape)), rng, -1, 1));
}

std::vector<ParamsCase> cases() {
  std::mt19937 rng(5);
  Value m23 = random_floats({2, 3}, rng), m34 = random_floats({3, 4}, rng), m43 = random_floats({4, 3}, rng);
  Value x234 = random_floats({2, 3, 4}, rng), img = random_floats({1, 2, 4, 4}, rng);
  Value c2 = random_floats({2}, rng), w3222 = random_floats({3, 2, 2, 2}, rng);
  Value var2 = floats({2}, {0.5f, 2.0f});
  return {
      {"Gemm with transB and alpha", "Gemm", 13, {m23, m43}, {attr_int("transB", 1), attr_float("alpha", 0.5f)}, true},
      {"Gemm with transA given as a float", "Gemm", 13, {m23, m34}, {attr_float("transA", 1.0f)}, false},
      {"Softmax-13 along axis -2", "Softmax", 13, {x234}, {attr_int("axis", -2)}, true},
      {"Softmax-11 at axis == rank (was: the shape rule accepted it)", "Softmax", 11, {m23}, {attr_int("axis", 2)}, false},
      {"ReduceMean-18 with noop_with_empty_axes and no axes",
       "ReduceMean",
       18,
       {x234},
       {attr_int("noop_with_empty_axes", 1)},
       true},
      {"ReduceSum-11 with keepdims as a string", "ReduceSum", 11, {x234}, {attr_string("keepdims", "yes")}, false},
      {"ArgMax-13 with select_last_index as a float", "ArgMax", 13, {x234}, {attr_float("select_last_index", 1)}, false},
      {"LayerNormalization at axis 1",
       "LayerNormalization",
       17,
       {x234, random_floats({3, 4}, rng)},
       {attr_int("axis", 1)},
       true},
      {"LayerNormalization at axis == rank (was: the kernels accepted it)",
       "LayerNormalization",
       17,
       {x234, random_floats({1}, rng)},
       {attr_int("axis", 3)},
       false},
      {"LayerNormalization with a double stash_type (was: the shape rule accepted it)",
       "LayerNormalization",
       17,
       {x234, random_floats({4}, rng)},
       {attr_int("stash_type", 11)},
       false},
      {"GroupNormalization-21 without num_groups", "GroupNormalization", 21, {img, c2, c2}, {}, false},
      {"Transpose with a negative perm entry (was: the shape rule accepted it)",
       "Transpose",
       13,
       {m23},
       {attr_ints("perm", {-1, 0})},
       false},
      {"Transpose with perm", "Transpose", 13, {x234}, {attr_ints("perm", {2, 0, 1})}, true},
      {"Unsqueeze-11 without axes (was: the shape rule accepted it)", "Unsqueeze", 11, {m23}, {}, false},
      {"Squeeze-11 naming an axis twice (was: the reference accepted it)",
       "Squeeze",
       11,
       {random_floats({2, 1, 3}, rng)},
       {attr_ints("axes", {1, -2})},
       false},
      {"Flatten-9 at a negative axis (was: the kernels accepted it)", "Flatten", 9, {x234}, {attr_int("axis", -1)}, false},
      {"Flatten-13 at a negative axis", "Flatten", 13, {x234}, {attr_int("axis", -1)}, true},
      {"Concat-13 without axis", "Concat", 13, {m23, m23}, {}, false},
      {"LeakyRelu with alpha given as an int", "LeakyRelu", 16, {m23}, {attr_int("alpha", 1)}, false},
      {"Gelu with an unknown approximation", "Gelu", 20, {m23}, {attr_string("approximate", "fast")}, false},
      {"AveragePool-11 with dilations",
       "AveragePool",
       11,
       {img},
       {attr_ints("kernel_shape", {2, 2}), attr_ints("dilations", {2, 2})},
       false},
      {"AveragePool-11 counting the padding",
       "AveragePool",
       11,
       {img},
       {attr_ints("kernel_shape", {3, 3}), attr_ints("pads", {1, 1, 1, 1}), attr_int("count_include_pad", 1)},
       true},
      {"MaxPool-12 with storage_order 2",
       "MaxPool",
       12,
       {img},
       {attr_ints("kernel_shape", {2, 2}), attr_int("storage_order", 2)},
       false},
      {"Conv with group 1 and kernel_shape", "Conv", 22, {img, w3222}, {attr_ints("kernel_shape", {2, 2})}, true},
      {"Conv with a kernel_shape other than W's (was: the shape rule accepted it)",
       "Conv",
       22,
       {img, w3222},
       {attr_ints("kernel_shape", {3, 3})},
       false},
      {"ConvTranspose with group 0", "ConvTranspose", 22, {img, w3222}, {attr_int("group", 0)}, false},
      {"Split-18 into num_outputs parts, the last smaller",
       "Split",
       18,
       {random_floats({5, 2}, rng)},
       {attr_int("num_outputs", 1)},
       true},
      {"Split-18 with num_outputs 0", "Split", 18, {random_floats({5, 2}, rng)}, {attr_int("num_outputs", 0)}, false},
      {"Resize-19 with an unknown keep_aspect_ratio_policy",
       "Resize",
       19,
       {img, Value(), floats({4}, {1, 1, 2, 2})},
       {attr_string("keep_aspect_ratio_policy", "fit")},
       false},
      {"Resize-19 nearest on named axes", "Resize", 19, {img, Value(), floats({2}, {2, 2})}, {attr_ints("axes", {2, 3})}, true},
      {"Mod with fmod 2", "Mod", 13, {m23, m23}, {attr_int("fmod", 2)}, false},
      {"ScatterND-16 keeping the max, which version 18 brings",
       "ScatterND",
       16,
       {random_floats({4}, rng), Value(Tensor::from_vector<int64_t>({1, 1}, {1})), random_floats({1}, rng)},
       {attr_string("reduction", "max")},
       false},
      {"RNN-14 batch-major",
       "RNN",
       14,
       {random_floats({1, 2, 3}, rng), random_floats({1, 2, 3}, rng), random_floats({1, 2, 2}, rng)},
       {attr_int("layout", 1)},
       true},
      {"RNN-14 with layout 2 (was: the shape rule read it as 1)",
       "RNN",
       14,
       {random_floats({1, 2, 3}, rng), random_floats({1, 2, 3}, rng), random_floats({1, 2, 2}, rng)},
       {attr_int("layout", 2)},
       false},
      {"DepthToSpace-13 with an unknown mode (was: the shape rule accepted it)",
       "DepthToSpace",
       13,
       {random_floats({1, 4, 2, 2}, rng)},
       {attr_int("blocksize", 2), attr_string("mode", "RCD")},
       false},
      {"DepthToSpace-13 in CRD mode",
       "DepthToSpace",
       13,
       {random_floats({1, 4, 2, 2}, rng)},
       {attr_int("blocksize", 2), attr_string("mode", "CRD")},
       true},
      {"TopK-1 without k", "TopK", 1, {x234}, {}, false},
      {"CumSum-14 reverse and exclusive",
       "CumSum",
       14,
       {x234, Value(Tensor::scalar<int64_t>(1))},
       {attr_int("reverse", 1), attr_int("exclusive", 1)},
       true},
      {"Add-6 broadcasting B at axis 1",
       "Add",
       6,
       {x234, random_floats({3}, rng)},
       {attr_int("broadcast", 1), attr_int("axis", 1)},
       true},
      {"Add-6 with unequal shapes and no broadcast (was: the shape rule accepted it)",
       "Add",
       6,
       {x234, random_floats({4}, rng)},
       {},
       false},
      {"Less-1 with B not fitting A at the axis (was: the shape rule accepted it)",
       "Less",
       1,
       {x234, random_floats({4}, rng)},
       {attr_int("broadcast", 1), attr_int("axis", 1)},
       false},
      {"Cast-13 to float16", "Cast", 13, {m23}, {attr_int("to", 10)}, true},
      {"Cast-13 with a type name (was: the shape rule accepted it)", "Cast", 13, {m23}, {attr_string("to", "FLOAT16")}, false},
      {"BatchNormalization-15 with epsilon given as ints",
       "BatchNormalization",
       15,
       {img, c2, c2, c2, var2},
       {attr_ints("epsilon", {1})},
       false},
      // Operators whose attributes were read where they were used until every runnable version
      // with attributes had a struct.
      {"BitCast-26 to string (was: the shape rule accepted it)", "BitCast", 26, {m23}, {attr_int("to", 8)}, false},
      {"EyeLike-22 with a string dtype (was: the shape rule accepted it)", "EyeLike", 22, {m23}, {attr_int("dtype", 8)}, false},
      {"EyeLike-22 with k", "EyeLike", 22, {m23}, {attr_int("k", 1)}, true},
      {"RandomNormalLike-22 with an integer dtype (was: the shape rule accepted it)",
       "RandomNormalLike",
       22,
       {m23},
       {attr_int("dtype", 7)},
       false},
      {"IsInf-20 with detect_negative as a float", "IsInf", 20, {m23}, {attr_float("detect_negative", 0)}, false},
      {"Einsum-12 transposing", "Einsum", 12, {m23}, {attr_string("equation", "ij->ji")}, true},
      {"Einsum-12 with an output letter no input has (was: only the shape rule refused it)",
       "Einsum",
       12,
       {m23},
       {attr_string("equation", "ij->k")},
       false},
      {"DFT-17 one-sided forward", "DFT", 17, {random_floats({1, 4, 1}, rng)}, {attr_int("onesided", 1)}, true},
      {"DFT-17 one-sided inverse (was: the shape rule accepted it)",
       "DFT",
       17,
       {random_floats({1, 4, 1}, rng)},
       {attr_int("onesided", 1), attr_int("inverse", 1)},
       false},
      {"RoiAlign-16 with max pooling",
       "RoiAlign",
       16,
       {img, floats({1, 4}, {0, 0, 2, 2}), Value(Tensor::from_vector<int64_t>({1}, {0}))},
       {attr_string("mode", "max")},
       true},
      {"RoiAlign-16 with an unknown mode (was: the shape rule accepted it)",
       "RoiAlign",
       16,
       {img, floats({1, 4}, {0, 0, 2, 2}), Value(Tensor::from_vector<int64_t>({1}, {0}))},
       {attr_string("mode", "median")},
       false},
      {"MaxPool-8 with dilations (was: the kernel dilated, the shape rule did not)",
       "MaxPool",
       8,
       {img},
       {attr_ints("kernel_shape", {2, 2}), attr_ints("dilations", {2, 2})},
       false},
      {"MaxPool-8 with ceil_mode (was: the kernel honoured it, the shape rule did not)",
       "MaxPool",
       8,
       {random_floats({1, 2, 5, 5}, rng)},
       {attr_ints("kernel_shape", {2, 2}), attr_ints("strides", {2, 2}), attr_int("ceil_mode", 1)},
       false},
      {"RNN-14 with Relu",
       "RNN",
       14,
       {x234, random_floats({1, 2, 4}, rng), random_floats({1, 2, 2}, rng)},
       {attr_strings("activations", {"Relu"})},
       true},
      {"RNN-14 with an unknown activation (was: only the kernel refused it)",
       "RNN",
       14,
       {x234, random_floats({1, 2, 4}, rng), random_floats({1, 2, 2}, rng)},
       {attr_strings("activations", {"Cube"})},
       false},
      {"ReverseSequence-10 with batch_axis == time_axis (was: the shape rule accepted it)",
       "ReverseSequence",
       10,
       {m23, Value(Tensor::from_vector<int64_t>({3}, {1, 2, 1}))},
       {attr_int("time_axis", 1)},
       false},
  };
}

// Whether type inference, with every input's type and shape declared, accepts the node.
bool inference_accepts(const ParamsCase& c, std::string& error) {
  using sonnx::testing::vi;
  std::vector<std::string> names;
  std::vector<onnx::ValueInfoProto> inputs;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    bool omitted = c.inputs[i].kind == Value::Kind::None;
    names.push_back(omitted ? "" : "in" + std::to_string(i));
    if (!omitted) inputs.push_back(vi(names.back(), c.inputs[i].tensor.dtype(), c.inputs[i].tensor.shape(), true));
  }
  onnx::GraphProto g = sonnx::testing::graph("g", {sonnx::testing::node(c.op, names, {"out0"}, c.attrs)}, inputs, {vi("out0")});
  InferenceResult r = infer_model(model_of(g, c.version));
  if (r.errors.empty()) return true;
  error = r.errors.front().message;
  return false;
}

// Whether the fast kernel takes the node on these inputs (of known types and shapes): its factory
// prepares a kernel and the kernel gives the output shapes without a trap.
bool fast_kernel_takes(const ParamsCase& c, const OneNodeModel& m) {
  FastKernelRequest r;
  r.node = &m.model.graph.nodes.at(0);
  r.version = c.version;
  std::vector<const Tensor*> args;
  for (const Value& v : c.inputs) {
    TypeInfo t;
    if (v.kind != Value::Kind::None) {
      t.kind = TypeInfo::Kind::Tensor;
      t.elem = v.tensor.dtype();
      t.shape = known_dims(v.tensor.shape());
    }
    r.input_types.push_back(t);
    args.push_back(v.kind == Value::Kind::None ? nullptr : &v.tensor);
  }
  std::unique_ptr<FastKernel> k = make_fast_kernel(r);
  if (!k) return false;
  try {
    k->output_shapes(args);
    return true;
  } catch (const Trap&) {
    return false;
  }
}

TEST(OneParameterStruct, EveryLayerAcceptsAndRefusesTheSameAttributes) {
  for (const ParamsCase& c : cases()) {
    SCOPED_TRACE(c.op + "-" + std::to_string(c.version) + ": " + c.what);
    const OpRecord* rec = OpRecords::instance().find("", c.op, c.version);
    ASSERT_NE(rec, nullptr);
    ASSERT_NE(rec->params, nullptr) << "the version has no parameter struct";
    OneNodeModel m = one_node_model(c.op, c.version, c.inputs, c.attrs);
    std::string infer_error;
    bool inferred = inference_accepts(c, infer_error);
    if (!c.accepted) {
      EXPECT_THROW(reference_output(m), Trap);
      EXPECT_FALSE(inferred) << "the shape rule accepted it";
      if (rec->fast_kernel) {
        EXPECT_FALSE(fast_kernel_takes(c, m)) << "the fast kernel took it";
      }
      if (rec->enclosure) {
        EXPECT_THROW(enclose_output(m), Trap);
      }
      continue;
    }
    Tensor y = reference_output(m);
    EXPECT_TRUE(inferred) << infer_error;
    if (rec->fast_kernel) {
      EXPECT_TRUE(fast_kernel_takes(c, m)) << "the fast kernel declined";
    }
    if (rec->enclosure) {
      Bounds b = enclose_output(m, Semantics::Admissible);
      ASSERT_EQ(b.lo.shape(), y.shape());
      for (int64_t i = 0; i < y.size(); ++i)
        EXPECT_TRUE(bound_at(b, i).contains(y.as_double(i))) << "element " << i << " = " << y.as_double(i);
    }
  }
}

// A parameter struct registered for a version sonnx cannot run is a typo in a version list.
TEST(OneParameterStruct, RegisteredOnlyForVersionsWithAKernel) {
  int with_params = 0;
  for (const auto& [key, rec] : OpRecords::instance().all()) {
    if (!rec.params) continue;
    ++with_params;
    EXPECT_NE(OpRecords::instance().kernel(rec.domain, rec.op_type, rec.version), nullptr)
        << rec.op_type << "-" << rec.version << " has " << rec.params->type_name << " but no kernel";
  }
  EXPECT_GT(with_params, 0);
}

}  // namespace
}  // namespace sonnx::enclose
