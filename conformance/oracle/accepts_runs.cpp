#include "accepts_runs.h"

#include <chrono>
#include <random>

#include "conformance/fuzz/graph_gen.h"
#include "conformance/isolate.h"
#include "conformance/fuzz/mutate.h"
#include "near_miss.h"
#include "reference/check/prepare.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"

namespace sonnx::oracle {

const std::vector<AllowedTrap>& allowed_traps() {
  // Each entry: the change, a fragment of the trap's message, and why the specification allows it.
  static const std::vector<AllowedTrap> traps{
      {"subgraph-output-is-outer", "shape",
       "the near miss can make a Loop body's condition an outer value read at run time: the number of iterations, "
       "hence the length of a scan output, then depends on the inputs, a declared shape need not hold, and a kernel "
       "further on stops with a shape trap (docs/design.md §2.4: shapes incompatible at run time)"},
  };
  return traps;
}

const AllowedTrap* match_allowed(const std::string& change, const std::string& message) {
  for (const auto& a : allowed_traps())
    if ((a.change.empty() || a.change == change) && message.find(a.fragment) != std::string::npos) return &a;
  return nullptr;
}

const std::vector<KnownFinding>& known_findings() {
  // Empty: the three findings of issue 14 (an empty element of a variadic input, twice; a subgraph
  // output naming an outer value of another type) are fixed, and their minimal models are rule
  // fixtures now (OP-ARITY-empty-variadic-element, TYPE-INFERENCE-subgraph-output-names-outer-value).
  static const std::vector<KnownFinding> known{};
  return known;
}

const KnownFinding* match_known(const std::string& change, const std::string& message) {
  for (const auto& k : known_findings())
    if (k.change == change && message.find(k.fragment) != std::string::npos) return &k;
  return nullptr;
}

namespace {

// Values of a declared type: floats in [-2, 2], integers in [0, 3] (small non-negative: they are
// often indices or counts), booleans either way.
Value draw(const TypeInfo& type, std::mt19937_64& rng) {
  if (!type.is_static_tensor()) throw Unsupported("input of type " + type.str() + ": no static tensor type to draw from");
  Shape shape;
  for (const auto& d : *type.shape) shape.push_back(*d.value);
  Tensor t(type.elem, shape);
  visit_dtype(type.elem, [&]<class T>() {
    if constexpr (std::is_same_v<T, bool>) {
      for (auto& x : t.values<bool>()) x = std::bernoulli_distribution(0.5)(rng);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      for (auto& x : t.values<T>()) x = static_cast<T>(std::uniform_real_distribution<double>(-2, 2)(rng));
    } else if constexpr (std::is_integral_v<T>) {
      for (auto& x : t.values<T>()) x = static_cast<T>(std::uniform_int_distribution<int>(0, 3)(rng));
    } else {
      throw Unsupported("input element type " + std::string(dtype_name(type.elem)) + ": no draw");
    }
  });
  return Value(std::move(t));
}

bool matches(const Value& v, const TypeInfo& type) {
  if (!v.is_tensor() || !type.is_static_tensor() || v.tensor.dtype() != type.elem) return false;
  if (v.tensor.rank() != static_cast<int64_t>(type.shape->size())) return false;
  for (size_t i = 0; i < type.shape->size(); ++i)
    if (v.tensor.dim(static_cast<int64_t>(i)) != *(*type.shape)[i].value) return false;
  return true;
}

// Traps allowed whatever the change (those of one change are matched by the caller).
const AllowedTrap* allowed(const std::string& message) { return match_allowed("", message); }

ModelVerdict failed(std::string kind, std::string message) { return {Outcome::Failed, std::move(kind), std::move(message)}; }

// The run itself: the verdict as "outcome\nkind\nmessage" (it may come back through a pipe).
std::string encode(const ModelVerdict& v) {
  return std::to_string(static_cast<int>(v.outcome)) + "\n" + v.kind + "\n" + v.message;
}
ModelVerdict decode(const std::string& s) {
  ModelVerdict v;
  size_t a = s.find('\n'), b = a == std::string::npos ? a : s.find('\n', a + 1);
  if (b == std::string::npos) return failed("crash", "the isolated run returned no verdict");
  v.outcome = static_cast<Outcome>(std::stoi(s.substr(0, a)));
  v.kind = s.substr(a + 1, b - a - 1);
  v.message = s.substr(b + 1);
  return v;
}

ModelVerdict run_accepted(const Model& model, const NamedValues& inputs, uint64_t seed) {
  try {
    Interpreter interp(model, seed);
    interp.run(inputs);
  } catch (const Trap& e) {
    if (allowed(e.what())) return {Outcome::AllowedTrap, "trap", e.what()};
    return failed("trap", e.what());
  } catch (const InternalError& e) {
    return failed("internal", e.what());
  } catch (const Unsupported& e) {
    return failed("unsupported", e.what());
  } catch (const LoadError& e) {
    return failed("load", e.what());
  } catch (const std::exception& e) {
    return failed("exception", e.what());
  }
  return {Outcome::Ran, "", ""};
}

}  // namespace

ModelVerdict accepts_then_runs(const onnx::ModelProto& proto, const NamedValues& suggested, uint64_t seed,
                               double time_limit_seconds) {
  LoadedModel lm;
  lm.proto = proto;
  try {
    lm.ir = model_from_proto(proto, {});
  } catch (const LoadError& e) {
    return {Outcome::Unreadable, "load", e.what()};
  }
  try {
    prepare_loaded_model(lm, {}, "model");  // the check sonnx run makes: profile onnx
  } catch (const CheckFailed&) {
    return {Outcome::Rejected, "", ""};
  } catch (const std::exception& e) {
    return failed("check", std::string("the check itself failed: ") + e.what());
  }
  std::mt19937_64 rng(seed);
  NamedValues inputs;
  const Graph& g = lm.ir.graph;
  try {
    for (const auto& in : g.inputs) {
      bool has_default = false;
      for (const auto& [name, t] : g.initializers) has_default = has_default || name == in.name;
      if (has_default) continue;  // the initializer is its value
      auto it = suggested.find(in.name);
      inputs[in.name] = it != suggested.end() && matches(it->second, in.type) ? it->second : draw(in.type, rng);
    }
  } catch (const Unsupported& e) {
    return failed("inputs", e.what());
  }
  if (time_limit_seconds <= 0) return run_accepted(lm.ir, inputs, seed);
  IsolatedResult r = run_isolated([&] { return encode(run_accepted(lm.ir, inputs, seed)); }, time_limit_seconds);
  switch (r.status) {
    case IsolatedResult::Status::Ok: return decode(r.output);
    case IsolatedResult::Status::Timeout:
      return {Outcome::Unfinished, "time limit", "still running after " + std::to_string(time_limit_seconds) + " s"};
    case IsolatedResult::Status::Crashed: break;
  }
  return failed("crash", "the run crashed: " + r.detail);
}

AcceptsRunsReport run_accepts_runs(const AcceptsRunsOptions& o) {
  auto start = std::chrono::steady_clock::now();
  AcceptsRunsReport r;
  for (int64_t i = 0; i < o.graphs; ++i) {
    uint64_t seed = o.seed + static_cast<uint64_t>(i);
    fuzz::Recipe recipe = fuzz::random_recipe(seed, o.opset);
    fuzz::GeneratedCase g = fuzz::generate(recipe);
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::string, onnx::ModelProto>> models{{"generated", g.proto}};
    for (fuzz::Mutation m : {fuzz::Mutation::DropEdge, fuzz::Mutation::DuplicateOutput, fuzz::Mutation::Cycle})
      if (auto mutant = fuzz::mutate(g.proto, m, rng)) models.emplace_back(fuzz::mutation_name(m), std::move(*mutant));
    for (NearMiss m : all_near_misses())
      if (auto mutant = near_miss(g.proto, m, rng)) models.emplace_back(near_miss_name(m), std::move(*mutant));
    for (auto& [change, model] : models) {
      ++r.models;
      ++r.checked[change];
      ModelVerdict v = accepts_then_runs(model, g.inputs, seed, o.time_limit_seconds);
      switch (v.outcome) {
        case Outcome::Rejected: ++r.rejected; break;
        case Outcome::Unreadable: ++r.unreadable; break;
        case Outcome::Ran:
          ++r.ran;
          ++r.accepted[change];
          break;
        case Outcome::AllowedTrap:
          ++r.allowed_traps;
          ++r.accepted[change];
          if (const AllowedTrap* a = allowed(v.message)) ++r.traps_by_fragment[a->change + ": " + a->fragment];
          break;
        case Outcome::Unfinished:
          ++r.accepted[change];
          r.unfinished.push_back({fuzz::recipe_str(recipe), change, v, model});
          break;
        case Outcome::Failed:
          ++r.accepted[change];
          if (const AllowedTrap* a = v.kind == "trap" ? match_allowed(change, v.message) : nullptr) {
            ++r.allowed_traps;
            ++r.traps_by_fragment[a->change + ": " + a->fragment];
            break;
          }
          if (const KnownFinding* k = match_known(change, v.message)) {
            ++r.known[k->bug];
            break;
          }
          r.findings.push_back({fuzz::recipe_str(recipe), change, v, std::move(model)});
          break;
      }
    }
    ++r.graphs;
    if (o.progress) o.progress(r.graphs, static_cast<int64_t>(r.findings.size()));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace sonnx::oracle
