#include "prove.h"

#include <future>
#include <random>
#include <set>

#include "reference/interp/interpreter.h"

namespace sonnx::admit {
namespace {

bool same_value(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Value::Kind::None: return true;
    case Value::Kind::Tensor: return a.tensor == b.tensor;
    case Value::Kind::Sequence:
      if (a.sequence.size() != b.sequence.size()) return false;
      for (size_t i = 0; i < a.sequence.size(); ++i)
        if (!same_value(a.sequence[i], b.sequence[i])) return false;
      return true;
    case Value::Kind::Optional: return !a.optional == !b.optional && (!a.optional || same_value(*a.optional, *b.optional));
    case Value::Kind::Map: return a == b;  // keys in one order: the same entries, bit for bit
  }
  return false;
}

// The model with every node output of its main graph among `names` as a graph output too.
Model exposing(const Model& m, const std::set<std::string>& names) {
  Model copy = m;
  std::set<std::string> outputs;
  for (const ValueInfo& v : copy.graph.outputs) outputs.insert(v.name);
  for (const Node& n : m.graph.nodes)
    for (const std::string& o : n.outputs)
      if (names.count(o) && outputs.insert(o).second) copy.graph.outputs.push_back({o, TypeInfo{}});
  return copy;
}

// The first node output of the admitted model (in its node order) whose value differs from the
// original's value of the same name, or "" when none of the shared names differs.
std::string first_difference(const Model& original, const Model& admitted, const NamedValues& in_original,
                             const NamedValues& in_admitted) {
  std::set<std::string> original_names, shared;
  for (const Node& n : original.graph.nodes) original_names.insert(n.outputs.begin(), n.outputs.end());
  for (const Node& n : admitted.graph.nodes)
    for (const std::string& o : n.outputs)
      if (!o.empty() && original_names.count(o)) shared.insert(o);
  NamedValues a = Interpreter(exposing(original, shared)).run(in_original);
  NamedValues b = Interpreter(exposing(admitted, shared)).run(in_admitted);
  for (const Node& n : admitted.graph.nodes)
    for (const std::string& o : n.outputs)
      if (shared.count(o) && a.count(o) && b.count(o) && !same_value(a.at(o), b.at(o)))
        return "value '" + o + "' written by " + n.label() + " differs";
  return "";
}

template <class T>
void fill_floating(Tensor& t, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-6, 3);
  for (T& v : t.values<T>()) v = static_cast<T>(static_cast<float>(std::ldexp(mantissa(rng), exponent(rng))));
}

}  // namespace

NamedValues random_inputs(const Graph& g, uint64_t seed) {
  std::set<std::string> initialized;
  for (const auto& [n, t] : g.initializers) initialized.insert(n);
  std::mt19937_64 rng(seed);
  NamedValues out;
  for (const ValueInfo& in : g.inputs) {
    if (initialized.count(in.name) || !in.type.is_static_tensor()) continue;
    Shape shape;
    for (const Dim& d : *in.type.shape) shape.push_back(*d.value);
    Tensor t(in.type.elem, shape);
    switch (in.type.elem) {
      case DType::Float: fill_floating<float>(t, rng); break;
      case DType::Double: fill_floating<double>(t, rng); break;
      case DType::Float16: fill_floating<float16_t>(t, rng); break;
      case DType::BFloat16: fill_floating<bfloat16_t>(t, rng); break;
      case DType::Bool:
        for (bool& v : t.values<bool>()) v = rng() & 1;
        break;
      case DType::String: continue;
      default:
        try {
          visit_dtype(in.type.elem, [&]<class T>() {
            if constexpr (std::is_integral_v<T>)
              for (T& v : t.values<T>()) v = static_cast<T>(rng() % 4);
          });
        } catch (const std::exception&) {
          continue;  // a type random values are not made for
        }
    }
    out[in.name] = Value(std::move(t));
  }
  return out;
}

ProofRun compare_runs(const Model& original, const Model& admitted, const NamedValues& inputs, const NamedValues& fixed,
                      const std::string& label, const EnclosureJudge* judge) {
  ProofRun run;
  run.inputs = label;
  NamedValues in_original = inputs;
  for (const auto& [name, v] : fixed) in_original[name] = v;
  // An input admission removed as unused (no node reads it) is the original's only: the given value,
  // else a random one of its declared type, since nothing reads it.
  std::set<std::string> admitted_inputs;
  for (const ValueInfo& in : admitted.graph.inputs) admitted_inputs.insert(in.name);
  std::set<std::string> initialized;
  for (const auto& init : original.graph.initializers) initialized.insert(init.first);
  Graph removed;
  for (const ValueInfo& in : original.graph.inputs)
    if (!admitted_inputs.count(in.name) && !in_original.count(in.name) && !initialized.count(in.name))
      removed.inputs.push_back(in);
  in_original.merge(random_inputs(removed, 0));
  NamedValues in_admitted;
  for (const auto& [name, v] : inputs)
    if (admitted_inputs.count(name)) in_admitted[name] = v;
  // The two models run side by side (independent interpreters; the weights they share are read only).
  auto original_run = std::async(std::launch::async, [&] { return Interpreter(original).run(in_original); });
  NamedValues got;
  std::string admitted_trap;
  try {
    got = Interpreter(admitted).run(in_admitted);
  } catch (const std::exception& e) {
    admitted_trap = e.what();
  }
  NamedValues expected;
  try {
    expected = original_run.get();
  } catch (const std::exception& e) {
    run.skipped = true;
    run.detail = std::string("the original model does not run on these inputs: ") + e.what();
    return run;
  }
  if (!admitted_trap.empty()) {
    run.detail = "the admitted model traps where the original runs: " + admitted_trap;
    return run;
  }
  for (const auto& [name, v] : expected) {
    auto it = got.find(name);
    if (it == got.end()) {
      run.detail = "output '" + name + "' is missing";
      return run;
    }
    if (!same_value(v, it->second)) {
      if (judge) {
        run.bounded = true;
        run.detail = (*judge)(in_original, got);
        run.equal = run.detail.empty();
        if (run.equal) run.detail = "not bitwise equal; within the original's admissible enclosure";
        return run;
      }
      run.detail = "output '" + name + "' differs";
      try {
        std::string first = first_difference(original, admitted, in_original, in_admitted);
        if (!first.empty()) run.detail += "; the first " + first;
      } catch (const std::exception&) {
      }
      return run;
    }
  }
  run.equal = true;
  return run;
}

}  // namespace sonnx::admit
