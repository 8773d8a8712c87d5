#include "near_miss.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>

namespace sonnx::oracle {

const char* near_miss_name(NearMiss m) {
  switch (m) {
    case NearMiss::SwapAdjacent: return "swap-adjacent";
    case NearMiss::MoveBeforeProducer: return "move-before-producer";
    case NearMiss::ReverseEdge: return "reverse-edge";
    case NearMiss::SelfLoop: return "self-loop";
    case NearMiss::ReadLater: return "read-later";
    case NearMiss::DuplicateName: return "duplicate-name";
    case NearMiss::DuplicateInitializer: return "duplicate-initializer";
    case NearMiss::InputWithInitializer: return "input-with-initializer";
    case NearMiss::DeadNode: return "dead-node";
    case NearMiss::DropGraphOutput: return "drop-graph-output";
    case NearMiss::SubgraphOutputIsOuter: return "subgraph-output-is-outer";
    case NearMiss::ReassignOuter: return "reassign-outer";
    case NearMiss::UndefinedInput: return "undefined-input";
    case NearMiss::OmitInput: return "omit-input";
    case NearMiss::CaptureLater: return "capture-later";
    case NearMiss::UndefinedOutput: return "undefined-output";
    case NearMiss::SubgraphOutputIsLater: return "subgraph-output-is-later";
    case NearMiss::SubgraphOutputRetyped: return "subgraph-output-retyped";
  }
  return "?";
}

std::vector<NearMiss> all_near_misses() {
  std::vector<NearMiss> out;
  for (int i = 0; i < kNearMissCount; ++i) out.push_back(static_cast<NearMiss>(i));
  return out;
}

namespace {

// A declared tensor type as text ("1:[2,3]"; "" when not a tensor of known shape).
std::string type_key(const onnx::TypeProto& t) {
  if (!t.has_tensor_type() || !t.tensor_type().has_shape()) return "";
  std::string k = std::to_string(t.tensor_type().elem_type()) + ":[";
  for (const auto& d : t.tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return "";
    k += std::to_string(d.dim_value()) + ",";
  }
  return k + "]";
}
std::string type_key(const onnx::TensorProto& t) {
  std::string k = std::to_string(t.data_type()) + ":[";
  for (int64_t d : t.dims()) k += std::to_string(d) + ",";
  return k + "]";
}

// One graph level of the model being mutated.
struct Level {
  onnx::GraphProto* g = nullptr;
  std::vector<std::string> outer;                  // names assigned by the enclosing graphs
  std::map<std::string, std::string> outer_types;  // their declared types, where declared
  onnx::GraphProto* parent = nullptr;
  int owner = -1;  // index of the node holding this subgraph in `parent`
};

std::vector<std::string> assigned_names(const onnx::GraphProto& g) {
  std::vector<std::string> out;
  for (const auto& v : g.input()) out.push_back(v.name());
  for (const auto& t : g.initializer()) out.push_back(t.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output())
      if (!o.empty()) out.push_back(o);
  return out;
}

void collect(onnx::GraphProto* g, std::vector<std::string> outer, std::map<std::string, std::string> outer_types,
             onnx::GraphProto* parent, int owner, std::vector<Level>& out) {
  out.push_back({g, outer, outer_types, parent, owner});
  std::vector<std::string> inner = outer;
  for (auto& x : assigned_names(*g)) inner.push_back(x);
  for (const auto* list : {&g->input(), &g->value_info(), &g->output()})
    for (const auto& v : *list) outer_types[v.name()] = type_key(v.type());
  for (const auto& t : g->initializer()) outer_types[t.name()] = type_key(t);
  for (int k = 0; k < g->node_size(); ++k)
    for (auto& a : *g->mutable_node(k)->mutable_attribute()) {
      if (a.has_g()) collect(a.mutable_g(), inner, outer_types, g, k, out);
      for (auto& sg : *a.mutable_graphs()) collect(&sg, inner, outer_types, g, k, out);
    }
}

size_t pick(std::mt19937_64& rng, size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); }

int output_producer(const onnx::GraphProto& g, const std::string& x) {
  for (int j = 0; j < g.node_size(); ++j)
    for (const auto& o : g.node(j).output())
      if (!x.empty() && o == x) return j;
  return -1;
}

void rename_uses(onnx::GraphProto& g, const std::string& from, const std::string& to) {
  for (auto& n : *g.mutable_node())
    for (auto& in : *n.mutable_input())
      if (in == from) in = to;
  for (auto& o : *g.mutable_output())
    if (o.name() == from) o.set_name(to);
}

// Bytes of one element of a TensorProto data type (0: not one we can fill with zeros).
size_t element_size(int32_t type) {
  using T = onnx::TensorProto;
  switch (type) {
    case T::FLOAT:
    case T::INT32:
    case T::UINT32: return 4;
    case T::DOUBLE:
    case T::INT64:
    case T::UINT64: return 8;
    case T::FLOAT16:
    case T::BFLOAT16:
    case T::INT16:
    case T::UINT16: return 2;
    case T::BOOL:
    case T::INT8:
    case T::UINT8: return 1;
    default: return 0;
  }
}

// A change at one place; `places` counts the candidate places, `apply(i)` makes the i-th change.
struct Candidates {
  std::vector<std::function<void()>> places;
  void add(std::function<void()> f) { places.push_back(std::move(f)); }
};

}  // namespace

std::optional<onnx::ModelProto> near_miss(const onnx::ModelProto& model, NearMiss m, std::mt19937_64& rng) {
  onnx::ModelProto out = model;
  std::vector<Level> levels;
  collect(out.mutable_graph(), {}, {}, nullptr, -1, levels);
  Candidates c;
  int fresh = 0;
  for (const Level& lv : levels) {
    onnx::GraphProto& g = *lv.g;
    int n = g.node_size();
    switch (m) {
      case NearMiss::SwapAdjacent:
        for (int i = 0; i + 1 < n; ++i) c.add([&g, i] { g.mutable_node()->SwapElements(i, i + 1); });
        break;
      case NearMiss::MoveBeforeProducer:
        for (int k = 0; k < n; ++k)
          for (const auto& in : g.node(k).input()) {
            int j = output_producer(g, in);
            if (j < 0 || j >= k) continue;
            c.add([&g, j, k] {
              for (int i = k; i > j; --i) g.mutable_node()->SwapElements(i, i - 1);
            });
          }
        break;
      case NearMiss::ReverseEdge:
        for (int k = 0; k < n; ++k)
          for (int p = 0; p < g.node(k).input_size(); ++p) {
            int j = output_producer(g, g.node(k).input(p));
            if (j < 0 || j == k || g.node(k).output_size() == 0) continue;
            for (int q = 0; q < g.node(j).input_size(); ++q) {
              if (g.node(j).input(q).empty()) continue;
              c.add([&g, j, k, p, q] {
                g.mutable_node(k)->set_input(p, g.node(j).input(q));
                g.mutable_node(j)->set_input(q, g.node(k).output(0));
              });
            }
          }
        break;
      case NearMiss::SelfLoop:
        for (int k = 0; k < n; ++k)
          for (int p = 0; p < g.node(k).input_size(); ++p)
            if (g.node(k).output_size() > 0 && !g.node(k).output(0).empty())
              c.add([&g, k, p] { g.mutable_node(k)->set_input(p, g.node(k).output(0)); });
        break;
      case NearMiss::ReadLater:
        for (int k = 0; k < n; ++k)
          for (int p = 0; p < g.node(k).input_size(); ++p)
            for (int j = k + 1; j < n; ++j)
              if (g.node(j).output_size() > 0 && !g.node(j).output(0).empty())
                c.add([&g, k, p, j] { g.mutable_node(k)->set_input(p, g.node(j).output(0)); });
        break;
      case NearMiss::DuplicateName: {
        std::vector<std::string> names = lv.outer;
        for (auto& x : assigned_names(g)) names.push_back(x);
        for (int k = 0; k < n; ++k)
          for (int o = 0; o < g.node(k).output_size(); ++o)
            for (const auto& dup : names)
              if (!g.node(k).output(o).empty() && dup != g.node(k).output(o))
                c.add([&g, k, o, dup] {
                  std::string old = g.node(k).output(o);
                  g.mutable_node(k)->set_output(o, dup);
                  rename_uses(g, old, dup);
                });
        break;
      }
      case NearMiss::DuplicateInitializer:
        for (int i = 0; i < g.initializer_size(); ++i)
          c.add([&g, i] { *g.add_initializer() = onnx::TensorProto(g.initializer(i)); });
        for (int i = 0; i < g.input_size(); ++i) c.add([&g, i] { *g.add_input() = onnx::ValueInfoProto(g.input(i)); });
        break;
      case NearMiss::InputWithInitializer:
        for (int i = 0; i < g.input_size(); ++i) {
          const auto& vi = g.input(i);
          if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) continue;
          const auto& tt = vi.type().tensor_type();
          size_t es = element_size(tt.elem_type());
          bool is_static = es > 0;
          for (const auto& d : tt.shape().dim()) is_static = is_static && d.has_dim_value();
          if (!is_static) continue;
          c.add([&g, i, es] {
            const auto& t = g.input(i).type().tensor_type();
            onnx::TensorProto init;
            init.set_name(g.input(i).name());
            init.set_data_type(t.elem_type());
            size_t count = 1;
            for (const auto& d : t.shape().dim()) {
              init.add_dims(d.dim_value());
              count *= static_cast<size_t>(d.dim_value());
            }
            init.set_raw_data(std::string(count * es, '\0'));
            *g.add_initializer() = init;
          });
        }
        break;
      case NearMiss::DeadNode: {
        std::vector<std::string> names = lv.outer;
        for (auto& x : assigned_names(g)) names.push_back(x);
        for (const auto& x : names)
          c.add([&g, x, &fresh] {
            auto* node = g.add_node();
            node->set_op_type("Identity");
            node->set_name("near_miss_dead" + std::to_string(fresh));
            node->add_input(x);
            node->add_output("near_miss_dead" + std::to_string(fresh++));
          });
        break;
      }
      case NearMiss::DropGraphOutput:
        if (g.output_size() >= 2)
          for (int i = 0; i < g.output_size(); ++i) c.add([&g, i] { g.mutable_output()->DeleteSubrange(i, 1); });
        break;
      case NearMiss::SubgraphOutputIsOuter:
      case NearMiss::SubgraphOutputRetyped:
        for (int i = 0; i < g.output_size(); ++i)
          for (const auto& x : lv.outer) {
            auto t = lv.outer_types.find(x);
            std::string declared = type_key(g.output(i).type());
            bool same = !declared.empty() && t != lv.outer_types.end() && t->second == declared;
            if (same == (m == NearMiss::SubgraphOutputIsOuter)) c.add([&g, i, x] { g.mutable_output(i)->set_name(x); });
          }
        break;
      case NearMiss::ReassignOuter:
        for (int k = 0; k < n; ++k)
          for (int o = 0; o < g.node(k).output_size(); ++o)
            for (const auto& x : lv.outer)
              if (!g.node(k).output(o).empty())
                c.add([&g, k, o, x] {
                  std::string old = g.node(k).output(o);
                  g.mutable_node(k)->set_output(o, x);
                  rename_uses(g, old, x);
                });
        break;
      case NearMiss::UndefinedInput:
        for (int k = 0; k < n; ++k)
          for (int p = 0; p < g.node(k).input_size(); ++p)
            c.add([&g, k, p] { g.mutable_node(k)->set_input(p, "near_miss_undefined"); });
        break;
      case NearMiss::OmitInput:
        for (int k = 0; k < n; ++k)
          for (int p = 0; p < g.node(k).input_size(); ++p)
            if (!g.node(k).input(p).empty()) c.add([&g, k, p] { g.mutable_node(k)->set_input(p, ""); });
        break;
      case NearMiss::CaptureLater:
        if (lv.parent)
          for (int j = lv.owner + 1; j < lv.parent->node_size(); ++j)
            for (const auto& y : lv.parent->node(j).output())
              for (int k = 0; k < n; ++k)
                for (int p = 0; p < g.node(k).input_size(); ++p)
                  if (!y.empty()) c.add([&g, k, p, y] { g.mutable_node(k)->set_input(p, y); });
        break;
      case NearMiss::UndefinedOutput:
        for (int i = 0; i < g.output_size(); ++i) c.add([&g, i] { g.mutable_output(i)->set_name("near_miss_undefined"); });
        break;
      case NearMiss::SubgraphOutputIsLater:
        if (lv.parent)
          for (int j = lv.owner + 1; j < lv.parent->node_size(); ++j)
            for (const auto& y : lv.parent->node(j).output())
              for (int i = 0; i < g.output_size(); ++i)
                if (!y.empty()) c.add([&g, i, y] { g.mutable_output(i)->set_name(y); });
        break;
    }
  }
  if (c.places.empty()) return std::nullopt;
  c.places[pick(rng, c.places.size())]();
  return out;
}

}  // namespace sonnx::oracle
