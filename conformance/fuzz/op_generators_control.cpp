// Control flow: If with two subgraph branches (one or two outputs) and Loop with a loop-carried
// value and an optional scan output. Branch bodies read the operand from the enclosing scope.
#include "generator_util.h"

namespace sonnx::fuzz {
namespace {

void declare(onnx::ValueInfoProto& vi, const std::string& name, int32_t elem, const std::vector<int64_t>& shape) {
  vi.set_name(name);
  auto* tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem);
  auto* sh = tt->mutable_shape();
  for (int64_t d : shape) sh->add_dim()->set_dim_value(d);
}

onnx::NodeProto& body_node(onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& in,
                           const std::string& out) {
  onnx::NodeProto& n = *g.add_node();
  n.set_op_type(op);
  n.set_name(out + "_" + op);
  for (const auto& i : in) n.add_input(i);
  n.add_output(out);
  return n;
}

// A branch: each output is a bounded unary function of the outer operand x.
onnx::GraphProto branch(GenContext& c, const std::string& name, const TVar& x, const std::vector<std::string>& outs) {
  static const char* ops[] = {"Relu", "Neg", "Tanh", "Abs", "Sigmoid", "Identity"};
  onnx::GraphProto g;
  g.set_name(name);
  for (const auto& o : outs) {
    std::string v = c.fresh_name("s");
    body_node(g, ops[c.uniform(0, 5)], {x.name}, v);
    body_node(g, "Identity", {v}, o);
    declare(*g.add_output(), o, onnx::TensorProto::FLOAT, x.shape);
  }
  return g;
}

bool plan_if(GenContext& c, OpPlan& p) {
  int x = c.pick(is_float);
  if (x < 0) return false;
  int cond = c.pick([](const TVar& t) { return is_bool(t) && t.numel() == 1; });
  int outputs = static_cast<int>(c.uniform(1, 2));
  p.emit = [&c, x, cond, outputs](const Solution&) {
    std::string cname = cond >= 0 ? tv(c, cond).name : tv(c, c.add_bool_input({})).name;
    std::vector<std::string> then_outs, else_outs;
    for (int k = 0; k < outputs; ++k) {
      then_outs.push_back(c.fresh_name("then"));
      else_outs.push_back(c.fresh_name("else"));
    }
    onnx::GraphProto tg = branch(c, c.fresh_name("then_branch"), tv(c, x), then_outs);
    onnx::GraphProto eg = branch(c, c.fresh_name("else_branch"), tv(c, x), else_outs);
    Interval r = hull(tv(c, x).range, {-tv(c, x).range.mag(), tv(c, x).range.mag()});
    std::vector<int> outs;
    std::vector<int> from{x};
    if (cond >= 0) from.push_back(cond);
    for (int k = 0; k < outputs; ++k) {
      outs.push_back(out_tensor(c, kFloat(), tv(c, x).shape, r, from, "If"));
      c.tensors.back().rounding = true;  // the branches hold rounding operators
    }
    auto& n = c.add_node("If", {cname}, outs);
    ++c.tensors[static_cast<size_t>(x)].consumers;  // read from inside the branches
    set_attr(n, "then_branch", tg);
    set_attr(n, "else_branch", eg);
    return true;
  };
  return true;
}

// Loop(M, cond, v0) with body v' = Tanh(v) + x (x from the outer scope), so values stay bounded;
// optionally a scan output stacking Sigmoid(v) over the iterations.
bool plan_loop(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() <= 3; });
  if (x < 0) return false;
  int64_t trips = c.uniform(1, 3);
  bool scan = c.coin(0.5);
  p.emit = [&c, x, trips, scan](const Solution&) {
    const TVar& xv = tv(c, x);
    std::vector<int64_t> shape = xv.shape, scan_shape = xv.shape;
    scan_shape.insert(scan_shape.begin(), trips);
    std::string iter = c.fresh_name("iter"), cin = c.fresh_name("cond_in"), vin = c.fresh_name("v_in");
    std::string cout = c.fresh_name("cond_out"), vout = c.fresh_name("v_out"), th = c.fresh_name("tanh");
    onnx::GraphProto body;
    body.set_name(c.fresh_name("loop_body"));
    declare(*body.add_input(), iter, onnx::TensorProto::INT64, {});
    declare(*body.add_input(), cin, onnx::TensorProto::BOOL, {});
    declare(*body.add_input(), vin, onnx::TensorProto::FLOAT, shape);
    body_node(body, "Identity", {cin}, cout);
    body_node(body, "Tanh", {vin}, th);
    body_node(body, "Add", {th, xv.name}, vout);
    declare(*body.add_output(), cout, onnx::TensorProto::BOOL, {});
    declare(*body.add_output(), vout, onnx::TensorProto::FLOAT, shape);
    if (scan) {
      std::string so = c.fresh_name("scan");
      body_node(body, "Sigmoid", {vin}, so);
      declare(*body.add_output(), so, onnx::TensorProto::FLOAT, shape);
    }
    std::string m = c.add_int64_const({}, {trips}), cond = c.add_bool_const(true);
    Interval r = hull(xv.range, add(xv.range, {-1, 1}));
    std::string xname = xv.name;
    std::vector<int> outs{out_tensor(c, kFloat(), shape, r, {x}, "Loop")};
    c.tensors.back().rounding = true;
    if (scan) {
      outs.push_back(out_tensor(c, kFloat(), scan_shape, {0, 1}, {x}, "Loop"));
      c.tensors.back().rounding = true;
    }
    auto& n = c.add_node("Loop", {m, cond, xname}, outs);
    set_attr(n, "body", body);
    return true;
  };
  return true;
}

}  // namespace

void add_control_generators(std::vector<OpGenerator>& v) {
  v.push_back({"If", plan_if});
  v.push_back({"Loop", plan_loop});
}

}  // namespace sonnx::fuzz
