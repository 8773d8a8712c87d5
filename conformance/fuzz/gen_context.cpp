#include "gen_context.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "recipe.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
#include "reference/model/tensor_proto.h"
#include "reference/ops/registry.h"

namespace sonnx::fuzz {

int64_t TVar::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

GenContext::GenContext(z3::context& zc, uint64_t seed, int md, int os) : z(zc), rng(seed), max_dim(md), opset(os) {
  graph.set_name("fuzz");
}

int64_t GenContext::uniform(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }
double GenContext::uniform_real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
bool GenContext::coin(double p) { return std::bernoulli_distribution(p)(rng); }

z3::expr GenContext::fresh(OpPlan& p, const std::string& hint, int64_t lo, int64_t hi) {
  z3::expr e = z.int_const(fresh_name(hint).c_str());
  p.constraints.push_back(e >= c(lo) && e <= c(hi));
  return e;
}

std::string GenContext::fresh_name(const std::string& prefix) { return prefix + std::to_string(counter_++); }

int GenContext::index_of(const std::string& name) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == name) return static_cast<int>(i);
  return -1;
}

int GenContext::pick(const std::function<bool(const TVar&)>& ok) {
  std::vector<int> cand;
  for (size_t i = 0; i < tensors.size(); ++i)
    if (ok(tensors[i])) cand.push_back(static_cast<int>(i));
  if (cand.empty()) return -1;
  // Favour recent tensors so graphs grow deep, not only wide; any tensor may get several consumers.
  size_t k = cand.size();
  size_t j = coin(0.6) ? k - 1 - static_cast<size_t>(uniform(0, std::min<int64_t>(1, static_cast<int64_t>(k) - 1)))
                       : static_cast<size_t>(uniform(0, static_cast<int64_t>(k) - 1));
  return cand[j];
}

bool GenContext::fits(const std::vector<int64_t>& shape) const {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 1) return false;
    n *= d;
  }
  return n <= kMaxElements && shape.size() <= 5;
}

namespace {

void set_type(onnx::ValueInfoProto& vi, const std::string& name, int32_t elem, const std::vector<int64_t>& shape) {
  vi.set_name(name);
  auto* tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* sh = tt->mutable_shape();
  for (int64_t d : shape) sh->add_dim()->set_dim_value(d);
}

Shape to_shape(const std::vector<int64_t>& s) { return s; }

}  // namespace

int GenContext::add_input(const std::vector<int64_t>& shape, Interval range) {
  std::string name = fresh_name("in");
  set_type(*graph.add_input(), name, onnx::TensorProto::FLOAT, shape);
  Tensor t(DType::Float, to_shape(shape));
  for (auto& x : t.values<float>()) x = static_cast<float>(uniform_real(range.lo, range.hi));
  input_values[name] = Value(std::move(t));
  input_draws.push_back({name, range, "uniform"});
  TVar v;
  v.name = name;
  v.shape = shape;
  v.range = range;
  tensors.push_back(v);
  return static_cast<int>(tensors.size()) - 1;
}

int GenContext::add_bool_input(const std::vector<int64_t>& shape) {
  std::string name = fresh_name("in");
  set_type(*graph.add_input(), name, onnx::TensorProto::BOOL, shape);
  Tensor t(DType::Bool, to_shape(shape));
  for (auto& x : t.values<bool>()) x = coin();
  input_values[name] = Value(std::move(t));
  input_draws.push_back({name, {0, 1}, "bool"});
  TVar v;
  v.name = name;
  v.elem = onnx::TensorProto::BOOL;
  v.shape = shape;
  v.range = {0, 1};
  tensors.push_back(v);
  return static_cast<int>(tensors.size()) - 1;
}

int GenContext::add_int_input(int32_t elem, const std::vector<int64_t>& shape, int64_t lo, int64_t hi) {
  std::string name = fresh_name("in");
  set_type(*graph.add_input(), name, elem, shape);
  bool i32 = elem == onnx::TensorProto::INT32;
  Tensor t(i32 ? DType::Int32 : DType::Int64, to_shape(shape));
  if (i32)
    for (auto& x : t.values<int32_t>()) x = static_cast<int32_t>(uniform(lo, hi));
  else
    for (auto& x : t.values<int64_t>()) x = uniform(lo, hi);
  input_values[name] = Value(std::move(t));
  input_draws.push_back({name,
                         {static_cast<double>(lo), static_cast<double>(hi)},
                         std::string(i32 ? "int32" : "int64") + " [" + std::to_string(lo) + "," + std::to_string(hi) + "]"});
  TVar v;
  v.name = name;
  v.elem = elem;
  v.shape = shape;
  v.range = {static_cast<double>(lo), static_cast<double>(hi)};
  tensors.push_back(v);
  return static_cast<int>(tensors.size()) - 1;
}

std::string GenContext::add_float_const(const std::vector<int64_t>& shape, Interval range) {
  std::string name = fresh_name("w");
  Tensor t(DType::Float, to_shape(shape));
  for (auto& x : t.values<float>()) x = static_cast<float>(uniform_real(range.lo, range.hi));
  *graph.add_initializer() = tensor_to_proto(t, name);
  return name;
}

std::string GenContext::add_int64_const(const std::vector<int64_t>& shape, const std::vector<int64_t>& values) {
  std::string name = fresh_name("k");
  Tensor t(DType::Int64, to_shape(shape));
  std::copy(values.begin(), values.end(), t.data<int64_t>());
  *graph.add_initializer() = tensor_to_proto(t, name);
  return name;
}

std::string GenContext::add_int_const(int32_t elem, const std::vector<int64_t>& shape, const std::vector<int64_t>& values) {
  if (elem == onnx::TensorProto::INT64) return add_int64_const(shape, values);
  std::string name = fresh_name("k");
  Tensor t(DType::Int32, to_shape(shape));
  std::transform(values.begin(), values.end(), t.data<int32_t>(), [](int64_t x) { return static_cast<int32_t>(x); });
  *graph.add_initializer() = tensor_to_proto(t, name);
  return name;
}

std::string GenContext::add_bool_const(bool v) {
  std::string name = fresh_name("b");
  Tensor t(DType::Bool, Shape{});
  t.data<bool>()[0] = v;
  *graph.add_initializer() = tensor_to_proto(t, name);
  return name;
}

int GenContext::add_tensor(int32_t elem, std::vector<int64_t> shape, Interval range, const std::vector<int>& from,
                           const std::string& op_type) {
  static const std::vector<std::string> fast_ops{
      "Conv", "Gemm", "MatMul", "MaxPool", "AveragePool", "GlobalAveragePool", "BatchNormalization"};
  TVar v;
  v.name = fresh_name("t");
  v.elem = elem;
  v.shape = std::move(shape);
  v.range = range;
  // The accuracy class of the operator version in force at the graph's opset; without a kernel of
  // its own (a function body runs) it counts as rounding.
  const catalogue::Schema* schema = catalogue::find("", op_type, opset);
  const KernelEntry* k = schema ? OpRecords::instance().kernel("", op_type, schema->version) : nullptr;
  v.rounding = !k || k->accuracy != Accuracy::Exact;
  v.fast_rounding = std::find(fast_ops.begin(), fast_ops.end(), op_type) != fast_ops.end();
  for (int f : from) {
    v.rounding = v.rounding || tensors[static_cast<size_t>(f)].rounding;
    v.fast_rounding = v.fast_rounding || tensors[static_cast<size_t>(f)].fast_rounding;
  }
  set_type(*graph.add_value_info(), v.name, v.elem, v.shape);
  tensors.push_back(std::move(v));
  return static_cast<int>(tensors.size()) - 1;
}

onnx::NodeProto& GenContext::add_node(const std::string& op_type, const std::vector<std::string>& inputs,
                                      const std::vector<int>& outputs) {
  onnx::NodeProto& n = *graph.add_node();
  n.set_op_type(op_type);
  n.set_name("n" + std::to_string(node_count++) + "_" + op_type);
  for (const auto& in : inputs) {
    n.add_input(in);
    int i = index_of(in);
    if (i >= 0) ++tensors[static_cast<size_t>(i)].consumers;
  }
  for (int o : outputs) n.add_output(tensors[static_cast<size_t>(o)].name);
  return n;
}

int64_t Solution::operator()(const z3::expr& e) const { return m->eval(e, true).get_numeral_int64(); }

std::vector<int64_t> Solution::operator()(const std::vector<z3::expr>& es) const {
  std::vector<int64_t> r;
  for (const auto& e : es) r.push_back((*this)(e));
  return r;
}

void set_attr(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
void set_attr(onnx::NodeProto& n, const std::string& name, float v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}
void set_attr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
void set_attr(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}
void set_attr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

const std::vector<OpGenerator>& op_generators() {
  static const std::vector<OpGenerator> all = [] {
    std::vector<OpGenerator> v;
    add_elementwise_generators(v);
    add_shape_generators(v);
    add_nn_generators(v);
    add_control_generators(v);
    add_scatter_generators(v);
    return v;
  }();
  return all;
}

const std::vector<OpGenerator>& op_generators(int opset, bool sonnx_ops) {
  // One table per opset generated and operator set, built once (choices index them modulo their
  // size): 7 to 17, and the newest; every operator, or the SONNX profile's.
  static const std::map<std::pair<int, bool>, std::vector<OpGenerator>> tables = [] {
    const Profile sonnx = load_profile("sonnx");
    std::map<std::pair<int, bool>, std::vector<OpGenerator>> m;
    for (int o = kOldestFuzzOpset; o <= kNewestFuzzOpset; ++o)
      if (is_fuzz_opset(o))
        for (const auto& g : op_generators())
          if (g.since <= o) {
            m[{o, false}].push_back(g);
            if (sonnx.operators.count(g.name)) m[{o, true}].push_back(g);
          }
    return m;
  }();
  auto it = tables.find({opset, sonnx_ops});
  if (it == tables.end()) throw std::invalid_argument("fuzz: no operator table for opset " + std::to_string(opset));
  return it->second;
}

}  // namespace sonnx::fuzz
