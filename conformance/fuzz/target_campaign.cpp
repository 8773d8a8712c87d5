// The campaign loop of target_fuzz.h: generate, judge, localize or shrink, group, write repros.
#include <chrono>
#include <fstream>

#include "conformance/enclosure_judge.h"
#include "graph_gen.h"
#include "optimized/exec/make_executor.h"
#include "reference/check/prepare.h"
#include "reference/model/tensor_proto.h"
#include "reference/model/writer.h"
#include "reference/ops/op_table.h"
#include "shrink.h"
#include "sonnx/errors.h"
#include "target_check.h"
#include "target_fuzz.h"

namespace sonnx::fuzz {

namespace fs = std::filesystem;

namespace {

// The generated graph prepared as every command prepares a model (checked, types inferred); the
// validator's refusal (a generator bug, which `sonnx fuzz` without a target reports) as nullopt.
std::optional<Model> prepared(const GeneratedCase& g) {
  LoadedModel lm{g.proto, g.model};
  try {
    prepare_loaded_model(lm, PrepareOptions{}, "generated graph");
  } catch (const CheckFailed&) {
    return std::nullopt;
  }
  return lm.ir;
}

std::string op_version(const Model& model, const Node& n) {
  return qualified_op_type(n) + "-" + std::to_string(resolve_op(model, n, node_opset(model, n)).version);
}

// A directory name from a group: letters, digits and dashes only.
std::string safe_name(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out.substr(0, 60);
}

// The repro of a group as an ONNX test directory: model.onnx, test_data_set_0/input_K.pb and the
// reference's output_K.pb (so `sonnx certify --suite DIR` replays it), runtime_output_K.pb (what the
// target gave), admissible_lo_K.pb and admissible_hi_K.pb (the enclosure, float64), defect.json.
void write_defect_repro(const fs::path& dir, TargetStage& stage, const Model& model, const NamedValues& inputs,
                        const DefectGroup& group, const std::string& target) {
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::path data = dir / "test_data_set_0";
  fs::create_directories(data);
  save_model(model, dir / "model.onnx");
  for (size_t k = 0; k < model.graph.inputs.size(); ++k) {
    const std::string& name = model.graph.inputs[k].name;
    if (inputs.count(name)) write_value_pb(data / ("input_" + std::to_string(k) + ".pb"), inputs.at(name), name);
  }
  NamedValues reference = make_executor(model, "reference")->run(inputs);
  TargetResult runtime = stage.run(model, inputs);
  std::string why;
  std::optional<OutputEnclosures> e = enclose_outputs(model, inputs, why);
  for (size_t k = 0; k < model.graph.outputs.size(); ++k) {
    const std::string& name = model.graph.outputs[k].name;
    std::string K = std::to_string(k);
    write_value_pb(data / ("output_" + K + ".pb"), reference.at(name), name);
    if (runtime.status == "ok" && runtime.outputs.count(name))
      write_value_pb(dir / ("runtime_output_" + K + ".pb"), runtime.outputs.at(name), name);
    if (e && e->admissible.count(name)) {
      write_value_pb(dir / ("admissible_lo_" + K + ".pb"), Value(e->admissible.at(name).lo), name);
      write_value_pb(dir / ("admissible_hi_" + K + ".pb"), Value(e->admissible.at(name).hi), name);
    }
  }
  nlohmann::json j{{"target", target},         {"op", group.op},
                   {"pattern", group.pattern}, {"deviation", group.deviation},
                   {"message", group.message}, {"seed", group.seed},
                   {"recipe", group.recipe},   {"runtime_status", runtime.status}};
  std::ofstream(dir / "defect.json") << j.dump(2) << "\n";
}

// The group of failures in graphs with If or Loop that no node shows alone.
const char* const kInsideControlFlow = "not localized: control flow (If, Loop)";

class Campaign {
 public:
  Campaign(CertTarget& target, const TargetFuzzOptions& o) : stage_(target), o_(o) {
    c_.target = target.name();
    c_.target_version = target.version();
    c_.shard = std::to_string(o.shard.index) + "/" + std::to_string(o.shard.count) +
               (o.shard.source.empty() ? "" : " (" + o.shard.source + ")");
    c_.seed = o.seed;
  }

  TargetCampaign run() {
    using clock = std::chrono::steady_clock;
    auto start = clock::now(), last_progress = start;
    auto elapsed = [&] { return std::chrono::duration<double>(clock::now() - start).count(); };
    for (int64_t i = 0;; ++i) {
      if (o_.max_graphs > 0 && i >= o_.max_graphs) break;
      if (o_.seconds > 0 && elapsed() >= o_.seconds) break;
      if (o_.max_groups > 0 && c_.groups.size() >= static_cast<size_t>(o_.max_groups)) break;
      uint64_t seed = o_.seed + static_cast<uint64_t>(i) * static_cast<uint64_t>(o_.shard.count) +
                      static_cast<uint64_t>(o_.shard.index);
      one_graph(random_recipe(seed, o_.opset, o_.sonnx_ops));
      if (o_.progress && clock::now() - last_progress > std::chrono::milliseconds(500)) {
        last_progress = clock::now();
        o_.progress(c_.graphs, c_.groups.size(), elapsed());
      }
    }
    c_.seconds = elapsed();
    return c_;
  }

 private:
  void skip(const std::string& why) {
    ++c_.skipped;
    ++c_.skip_reasons[why.size() > 160 ? why.substr(0, 157) + "..." : why];
  }

  void one_graph(const Recipe& recipe) {
    ++c_.graphs;
    GeneratedCase g = generate(recipe);
    std::optional<Model> model = prepared(g);
    if (!model) return skip("the validator rejects the generated graph (run `sonnx fuzz` without a target)");
    TargetVerdict v = check_on_target(stage_, *model, g.inputs);
    if (v.kind == TargetVerdict::Kind::Passed) ++c_.passed;
    else if (v.kind == TargetVerdict::Kind::Skipped) skip(v.message);
    else {
      ++c_.failed;
      failure(recipe, *model, g.inputs, v);
    }
  }

  // A failure: the node that fails alone names the defect and is its repro; else the graph is shrunk.
  void failure(const Recipe& recipe, const Model& model, const NamedValues& inputs, const TargetVerdict& v) {
    if (auto f = first_failing_node(stage_, model, inputs)) {
      record(recipe, op_version(model, f->node), attribute_pattern(f->node, f->inputs), *f, f->model, f->inputs, 1);
      return;
    }
    // A graph with control flow whose every node, body nodes included, passes alone (the If or Loop
    // itself deviates): such failures form one group per deviation, shrunk once, so that every
    // graph with a Loop is not a defect of its own.
    if (has_control_flow(model))
      for (DefectGroup& known : c_.groups)
        if (known.op == kInsideControlFlow && known.deviation == v.deviation) {
          ++known.hits;
          return;
        }
    auto fails = [&](const Recipe& r) {
      GeneratedCase cand = generate(r);
      std::optional<Model> m = prepared(cand);
      if (!m) return false;
      TargetVerdict cv = check_on_target(stage_, *m, cand.inputs);
      return cv.kind == TargetVerdict::Kind::Failed && cv.deviation == v.deviation;
    };
    Recipe small = shrink_recipe(recipe, fails, 200);
    GeneratedCase g = generate(small);
    std::optional<Model> m = prepared(g);
    TargetVerdict sv = m ? check_on_target(stage_, *m, g.inputs) : TargetVerdict{};
    if (!m || sv.kind != TargetVerdict::Kind::Failed) {  // not reproducible (a flaky target): keep the original
      record_graph(recipe, model, inputs, v);
      return;
    }
    if (auto f = first_failing_node(stage_, *m, g.inputs)) {
      record(recipe, op_version(*m, f->node), attribute_pattern(f->node, f->inputs), *f, f->model, f->inputs, 1);
      return;
    }
    record_graph(small, *m, g.inputs, sv);
  }

  void record_graph(const Recipe& recipe, const Model& model, const NamedValues& inputs, const TargetVerdict& v) {
    std::string ops;
    for (const Node& n : model.graph.nodes) ops += (ops.empty() ? "" : "+") + qualified_op_type(n);
    FailingNode whole{Node{}, model, inputs, v};
    record(recipe, has_control_flow(model) ? kInsideControlFlow : "graph: " + ops, "", whole, model, inputs,
           static_cast<int>(model.graph.nodes.size()));
  }

  static bool has_control_flow(const Model& model) {
    for (const Node& n : model.graph.nodes)
      if (n.has_subgraph()) return true;
    return false;
  }

  void record(const Recipe& recipe, const std::string& op, const std::string& pattern, const FailingNode& f,
              const Model& repro_model, const NamedValues& repro_inputs, int nodes) {
    DefectGroup key;
    key.op = op;
    key.pattern = pattern;
    key.deviation = f.verdict.deviation;
    for (DefectGroup& known : c_.groups)
      if (known.key() == key.key()) {
        ++known.hits;
        if (nodes < known.repro_nodes) write_group(known, recipe, f, repro_model, repro_inputs, nodes);
        return;
      }
    key.hits = 1;
    c_.groups.push_back(key);
    write_group(c_.groups.back(), recipe, f, repro_model, repro_inputs, nodes);
  }

  void write_group(DefectGroup& group, const Recipe& recipe, const FailingNode& f, const Model& model, const NamedValues& inputs,
                   int nodes) {
    group.seed = recipe.seed;
    group.recipe = recipe_str(recipe);
    group.message = f.verdict.message;
    group.repro_nodes = nodes;
    if (group.repro.empty())
      group.repro =
          (o_.out / ("defect-" + std::to_string(recipe.seed) + "-" + safe_name(group.op) + "-" + group.deviation)).string();
    write_defect_repro(group.repro, stage_, model, inputs, group, c_.target);
  }

  TargetStage stage_;
  const TargetFuzzOptions& o_;
  TargetCampaign c_;
};

}  // namespace

TargetCampaign fuzz_target(CertTarget& target, const TargetFuzzOptions& options) { return Campaign(target, options).run(); }

nlohmann::json campaign_json(const TargetCampaign& c) {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& g : c.groups)
    groups.push_back({{"op", g.op},
                      {"pattern", g.pattern},
                      {"deviation", g.deviation},
                      {"hits", g.hits},
                      {"seed", g.seed},
                      {"recipe", g.recipe},
                      {"message", g.message},
                      {"repro", g.repro},
                      {"repro_nodes", g.repro_nodes}});
  return {{"kind", "fuzz-campaign"},
          {"target", c.target},
          {"target_version", c.target_version},
          {"graphs", c.graphs},
          {"passed", c.passed},
          {"skipped", c.skipped},
          {"failed", c.failed},
          {"skip_reasons", c.skip_reasons},
          {"defect_groups", groups},
          {"seconds", c.seconds},
          {"shards", nlohmann::json::array({c.shard})},
          {"seed", c.seed}};
}

TargetCampaign campaign_from_json(const nlohmann::json& j) {
  if (j.value("kind", "") != "fuzz-campaign") throw LoadError("not a fuzz campaign report (no \"kind\": \"fuzz-campaign\")");
  TargetCampaign c;
  c.target = j.at("target").get<std::string>();
  c.target_version = j.value("target_version", "");
  c.graphs = j.at("graphs").get<int64_t>();
  c.passed = j.at("passed").get<int64_t>();
  c.skipped = j.at("skipped").get<int64_t>();
  c.failed = j.at("failed").get<int64_t>();
  c.skip_reasons = j.value("skip_reasons", std::map<std::string, int64_t>{});
  for (const auto& g : j.at("defect_groups"))
    c.groups.push_back({g.at("op").get<std::string>(), g.at("pattern").get<std::string>(), g.at("deviation").get<std::string>(),
                        g.at("hits").get<int64_t>(), g.at("seed").get<uint64_t>(), g.value("recipe", ""), g.value("message", ""),
                        g.value("repro", ""), g.value("repro_nodes", 0)});
  c.seconds = j.value("seconds", 0.0);
  std::string shards;
  for (const auto& s : j.value("shards", nlohmann::json::array())) shards += (shards.empty() ? "" : ",") + s.get<std::string>();
  c.shard = shards;
  c.seed = j.value("seed", uint64_t{0});
  return c;
}

void merge_campaign(TargetCampaign& into, const TargetCampaign& part, const std::string& part_name) {
  if (into.target.empty() && into.graphs == 0) {
    into = part;
    return;
  }
  if (part.target != into.target)
    throw LoadError(part_name + " fuzzed '" + part.target + "', not '" + into.target + "': campaigns of one target merge");
  into.graphs += part.graphs;
  into.passed += part.passed;
  into.skipped += part.skipped;
  into.failed += part.failed;
  for (const auto& [why, n] : part.skip_reasons) into.skip_reasons[why] += n;
  for (const DefectGroup& g : part.groups) {
    auto known = std::find_if(into.groups.begin(), into.groups.end(), [&](const DefectGroup& k) { return k.key() == g.key(); });
    if (known == into.groups.end()) {
      into.groups.push_back(g);
    } else {
      int64_t hits = known->hits + g.hits;
      if (g.repro_nodes < known->repro_nodes) *known = g;
      known->hits = hits;
    }
  }
  into.seconds = std::max(into.seconds, part.seconds);  // shards run side by side
  into.shard += (into.shard.empty() ? "" : ",") + part.shard;
}

std::string campaign_text(const TargetCampaign& c) {
  std::string s = "fuzzed " + c.target + (c.target_version.empty() ? "" : " (" + c.target_version + ")") + ": " +
                  std::to_string(c.graphs) + " graphs, " + std::to_string(c.passed) + " passed, " + std::to_string(c.failed) +
                  " failed, " + std::to_string(c.skipped) + " skipped; " + std::to_string(c.groups.size()) + " distinct defect" +
                  (c.groups.size() == 1 ? "" : "s") + "\n";
  for (const auto& g : c.groups)
    s += "  DEFECT " + g.op + (g.pattern.empty() ? "" : " [" + g.pattern + "]") + ": " + g.deviation + ", " +
         std::to_string(g.hits) + " hit" + (g.hits == 1 ? "" : "s") + "; " + g.message + "\n    repro: " + g.repro + " (" +
         std::to_string(g.repro_nodes) + " node" + (g.repro_nodes == 1 ? "" : "s") + ", recipe " + g.recipe + ")\n";
  if (!c.skip_reasons.empty()) {
    s += "skipped graphs by reason:\n";
    std::vector<std::pair<int64_t, std::string>> by_count;
    for (const auto& [why, n] : c.skip_reasons) by_count.emplace_back(-n, why);
    std::sort(by_count.begin(), by_count.end());
    for (const auto& [n, why] : by_count) s += "  " + std::to_string(-n) + "  " + why + "\n";
  }
  return s;
}

}  // namespace sonnx::fuzz
