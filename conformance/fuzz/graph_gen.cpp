#include "graph_gen.h"

#include <malloc.h>

#include <sstream>

#include "reference/model/loader.h"

namespace sonnx::fuzz {

namespace {

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull + (a << 6) + (a >> 2));
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

// Solves a plan's constraints, first with its random preferences; emits the node on success.
bool solve_and_emit(z3::solver& s, OpPlan& p) {
  s.push();
  for (const auto& e : p.constraints) s.add(e);
  s.push();
  for (const auto& e : p.prefs) s.add(e);
  z3::check_result r = s.check();
  if (r != z3::sat) {
    s.pop();
    s.push();  // keep the push/pop balance below
    r = s.check();
  }
  bool ok = false;
  if (r == z3::sat) {
    z3::model m = s.get_model();
    ok = p.emit(Solution{&m});
  }
  s.pop();
  s.pop();
  return ok;
}

// The first graph input: rank 1–4 (mostly 4, so window operators apply), dims solved like any other.
void add_first_input(GenContext& c, z3::solver& s) {
  OpPlan p;
  int64_t rank = c.coin(0.5) ? 4 : c.uniform(1, 4);
  std::vector<z3::expr> dims;
  for (int64_t i = 0; i < rank; ++i) {
    dims.push_back(c.fresh(p, "d", 1, c.max_dim));
    p.prefs.push_back(dims.back() == c.c(c.uniform(i == 0 ? 1 : 2, c.max_dim)));
  }
  Interval range = c.coin(0.4) ? Interval{c.uniform_real(0.25, 1), 0} : Interval{-c.uniform_real(0.5, 3), 0};
  range.hi = range.lo > 0 ? range.lo + c.uniform_real(0.5, 3) : -range.lo;
  p.emit = [&c, dims, range](const Solution& sol) {
    c.add_input(sol(dims), range);
    return true;
  };
  solve_and_emit(s, p);
}

// Nodes one a line; subgraph bodies (If branches, Loop bodies) indented under their node.
void print_nodes(std::ostream& os, const onnx::GraphProto& g, const std::string& indent) {
  for (const auto& n : g.node()) {
    os << "\n" << indent << n.name() << ": " << n.op_type() << "(";
    for (int i = 0; i < n.input_size(); ++i) os << (i ? ", " : "") << n.input(i);
    os << ") -> ";
    for (int i = 0; i < n.output_size(); ++i) os << (i ? ", " : "") << n.output(i);
    for (const auto& a : n.attribute())
      if (a.has_g()) {
        os << "\n" << indent << "  " << a.name() << ":";
        print_nodes(os, a.g(), indent + "    ");
      }
  }
}

// A Z3 context allocates and touches tens of megabytes. glibc serves blocks that large with mmap
// (or trims them off the heap's top) and gives them back when the context goes, so every graph
// faulted them in again: nine tenths of the generation's time. Kept in the process instead (64 MB
// below the mmap threshold and as the heap's top pad), generation runs about ten times faster.
void keep_z3_memory() {
  static const bool kept = [] {
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 64 << 20);
    return true;
  }();
  (void)kept;
}

}  // namespace

GeneratedCase generate(const Recipe& recipe) {
  keep_z3_memory();
  // A fresh Z3 context per graph: a model Z3 picks once the random preferences are dropped
  // depends on what the context has seen before, so a reused context made a recipe's graph
  // depend on the graphs generated before it (replays and shrinking saw another graph).
  z3::context z;
  z3::solver s(z, "QF_NIA");  // nonlinear integer arithmetic: products of dims (reshape, windows)
  GenContext c(z, mix(recipe.seed, 0), std::max(1, recipe.max_dim), recipe.opset);
  add_first_input(c, s);
  const auto& generators = op_generators(recipe.opset, recipe.sonnx_ops);
  for (const OpChoice& choice : recipe.ops) {
    // Each choice has its own random stream, so dropping one leaves the others' choices alone.
    c.rng.seed(mix(recipe.seed, choice.seed + 1));
    OpPlan p;
    const OpGenerator& gen = generators[choice.op % generators.size()];
    try {
      if (gen.plan(c, p)) solve_and_emit(s, p);
    } catch (const z3::exception&) {
      // An unsolvable or malformed plan just adds nothing.
    }
  }
  if (c.node_count == 0) {  // nothing applied: a single Relu keeps the graph non-empty
    int y = c.add_tensor(onnx::TensorProto::FLOAT, c.tensors[0].shape, {0, c.tensors[0].range.mag()}, {0}, "Relu");
    c.add_node("Relu", {c.tensors[0].name}, {y});
  }

  GeneratedCase g;
  g.recipe = recipe;
  onnx::GraphProto& graph = c.graph;
  // Every value nothing consumes is a graph output (so no node is dead).
  c.rng.seed(mix(recipe.seed, 1));
  for (const TVar& t : c.tensors) {
    // Unconsumed values, and now and then a consumed one too (an output that other nodes also read).
    if (c.input_values.count(t.name) || (t.consumers > 0 && !c.coin(0.1))) continue;
    auto* vi = graph.add_output();
    for (const auto& v : graph.value_info())
      if (v.name() == t.name) *vi = v;
    OutputCheck oc;
    oc.name = t.name;
    oc.exact = !t.rounding;
    oc.tol.rtol = 1e-3;
    oc.tol.atol = 1e-5 * std::max(1.0, t.range.mag());
    g.outputs.push_back(oc);
  }
  // value_info lists only intermediates.
  auto* vis = graph.mutable_value_info();
  for (int i = vis->size() - 1; i >= 0; --i)
    for (const auto& o : g.outputs)
      if (vis->Get(i).name() == o.name) {
        vis->DeleteSubrange(i, 1);
        break;
      }
  for (const auto& n : graph.node()) g.op_types.push_back(n.op_type());
  // IR 8 is onnx 1.12's (opset 17; it reads the older opsets too); IR 13 is onnx 1.22's (opset 27).
  g.proto.set_ir_version(recipe.opset >= kNewestFuzzOpset ? 13 : 8);
  g.proto.set_producer_name("sonnx-fuzz");
  auto* op = g.proto.add_opset_import();
  op->set_domain("");
  op->set_version(recipe.opset);
  *g.proto.mutable_graph() = std::move(graph);
  g.model = model_from_proto(g.proto, {});
  g.inputs = std::move(c.input_values);
  g.input_draws = std::move(c.input_draws);
  return g;
}

std::string GeneratedCase::describe() const {
  std::ostringstream os;
  os << "recipe: " << recipe_str(recipe) << "\nnodes (" << nodes() << "):";
  print_nodes(os, proto.graph(), "  ");
  os << "\ninputs:";
  for (const auto& in : input_draws) {
    const Value& v = inputs.at(in.name);
    os << "\n  " << in.name << " " << dtype_name(v.tensor.dtype()) << shape_str(v.tensor.shape()) << " " << in.kind;
    if (in.kind == "uniform") os << " [" << in.range.lo << ", " << in.range.hi << "]";
  }
  return os.str();
}

}  // namespace sonnx::fuzz
