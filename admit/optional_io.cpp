// write_omitted_inputs and trim_unused_outputs (rewrites.h): optional inputs and outputs made
// explicit or dropped the way the operator's text defines their absence.
//
// An omitted optional input means what the operator's text says its absence means; that value,
// written as an initializer, makes the node compute the same: a recurrent node (RNN, GRU, LSTM)
// without B, sequence_lens, initial_h, initial_c or P computes with a zero bias, every sequence of
// the full length, a zero initial state and zero peepholes; Resize without roi or scales (from 11)
// with the empty tensor its text gives for "not used"; Clip without min or max (from 11) with its
// type's lowest or highest value; Slice without axes with 0, 1, …; Pad without constant_value with 0. A trailing
// optional output nobody reads can be left undeclared (the node then does not produce it; what it
// produces is the same).
#include <algorithm>
#include <limits>
#include <set>

#include "unique_name.h"
#include "reference/catalogue/catalogue.h"
#include "reference/infer/infer.h"
#include "reference/model/names.h"
#include "rewrites.h"

namespace sonnx::admit {
namespace {

// The value an omitted input of a recurrent node stands for, or nullopt when its shape is not known.
std::optional<Tensor> recurrent_default(const Node& n, size_t input, const TypeInfo& x) {
  if (!x.is_static_tensor() || x.shape->size() != 3) return std::nullopt;
  const Attribute* hidden = n.attr("hidden_size");
  if (!hidden || hidden->i <= 0) return std::nullopt;
  const Attribute* direction = n.attr("direction");
  const int64_t dirs = direction && direction->s == "bidirectional" ? 2 : 1, h = hidden->i;
  const Attribute* layout = n.attr("layout");
  const bool batch_first = layout && layout->i == 1;
  const int64_t t = *(*x.shape)[batch_first ? 1 : 0].value, b = *(*x.shape)[batch_first ? 0 : 1].value;
  const int64_t gates = n.op_type == "LSTM" ? 4 : n.op_type == "GRU" ? 3 : 1;
  auto zeros = [&](Shape shape) {
    Tensor z(x.elem, shape);
    std::fill(z.raw(), z.raw() + z.byte_size(), std::byte{0});  // +0 in every floating type
    return z;
  };
  switch (input) {
    case 3: return zeros({dirs, 2 * gates * h});
    case 4: return Tensor::from_vector<int32_t>({b}, std::vector<int32_t>(static_cast<size_t>(b), static_cast<int32_t>(t)));
    case 5: return zeros(batch_first ? Shape{b, dirs, h} : Shape{dirs, b, h});
    case 6:
      if (n.op_type == "LSTM") return zeros(batch_first ? Shape{b, dirs, h} : Shape{dirs, b, h});
      return std::nullopt;
    case 7:
      if (n.op_type == "LSTM") return zeros({dirs, 3 * h});
      return std::nullopt;
  }
  return std::nullopt;
}

const TypeInfo* type_of(const InferenceResult& inf, const std::string& name) {
  auto it = inf.types.find(name);
  return it == inf.types.end() ? nullptr : &it->second;
}

enum class Bound { lowest, zero, highest };

// The scalar lowest, zero or highest value of element type t, for the types a Clip or Pad node takes.
std::optional<Tensor> scalar_of(DType t, Bound b) {
  std::optional<Tensor> out;
  try {
    visit_dtype(t, [&]<class T>() {
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
        out = Tensor::scalar<T>(b == Bound::lowest    ? std::numeric_limits<T>::lowest()
                                : b == Bound::highest ? std::numeric_limits<T>::max()
                                                      : T(0));
    });
  } catch (const std::exception&) {
  }
  return out;
}

// The value omitted input `input` of node n stands for, or nullopt when admit does not know it (or
// not without a shape inference did not find).
std::optional<Tensor> omitted_default(const Node& n, size_t input, int64_t version, const InferenceResult& inf) {
  const TypeInfo* x = n.inputs.empty() ? nullptr : type_of(inf, n.inputs[0]);
  if (n.op_type == "LSTM" || n.op_type == "GRU" || n.op_type == "RNN") return x ? recurrent_default(n, input, *x) : std::nullopt;
  if (n.op_type == "Resize" && version >= 11 && (input == 1 || input == 2)) return Tensor(DType::Float, Shape{0});
  if (n.op_type == "Clip" && version >= 11 && (input == 1 || input == 2) && x)
    return scalar_of(x->elem, input == 1 ? Bound::lowest : Bound::highest);
  if (n.op_type == "Pad" && version >= 11 && input == 2 && x) return scalar_of(x->elem, Bound::zero);
  if (n.op_type == "Slice" && version >= 10 && input == 3) {
    const TypeInfo* starts = type_of(inf, n.inputs[1]);
    if (!starts || !starts->is_static_tensor() || starts->shape->size() != 1) return std::nullopt;
    std::vector<int64_t> axes(static_cast<size_t>(*(*starts->shape)[0].value));
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(i);
    if (starts->elem == DType::Int32)
      return Tensor::from_vector<int32_t>({static_cast<int64_t>(axes.size())}, std::vector<int32_t>(axes.begin(), axes.end()));
    return Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes);
  }
  return std::nullopt;
}

}  // namespace

void write_omitted_inputs(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  const InferenceResult inf = infer_model(m);
  std::set<std::string> taken;
  collect_all_names(g, taken);
  for (Node& n : g.nodes) {
    if (!canonical_domain(n.domain).empty()) continue;
    const catalogue::Schema* s = catalogue::find("", n.op_type, m.opset(""));
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      if (!n.inputs[i].empty()) continue;
      std::optional<Tensor> value = s ? omitted_default(n, i, s->version, inf) : std::nullopt;
      if (!value) {
        log.refused.push_back(n.label() + ": input " + std::to_string(i) +
                              " is omitted (SONNX-OMITTED-IO) and admit does not know the value its absence means here");
        continue;
      }
      std::string name = unique_name(taken, (n.name.empty() ? n.op_type : n.name) + "_input" + std::to_string(i));
      g.initializers.emplace_back(name, std::move(*value));
      n.inputs[i] = name;
      log.add("write-omitted-input", n.label(), "SONNX-OMITTED-IO",
              "input " + std::to_string(i) + " written as the value its absence means");
    }
  }
}

void trim_unused_outputs(Model& m, bool expose, ChangeLog& log) {
  Graph& g = m.graph;
  std::set<std::string> read;
  for (const Node& n : g.nodes) {
    read.insert(n.inputs.begin(), n.inputs.end());
    if (n.has_subgraph()) read.merge(implicit_inputs(n));
  }
  for (const ValueInfo& v : g.outputs) read.insert(v.name);
  read.erase("");
  std::set<std::string> taken;
  collect_all_names(g, taken);
  for (Node& n : g.nodes) {
    const catalogue::Schema* s = catalogue::find(canonical_domain(n.domain), n.op_type, m.opset(canonical_domain(n.domain)));
    // Where producing an output changes what the node computes (BatchNormalization before 14 trains
    // when asked for its statistics), outputs stay as they are.
    bool trimmable = s && n.op_type != "BatchNormalization" && n.op_type != "Dropout";
    while (trimmable && n.outputs.size() > 1 && !read.count(n.outputs.back())) {
      size_t k = n.outputs.size() - 1;
      if (k >= s->outputs.size() || s->outputs[k].option != catalogue::Formal::Option::Optional) break;
      log.add("trim-output", n.label(), "SONNX-UNUSED-VALUE",
              "optional output '" + n.outputs.back() + "' is read by no node: not produced");
      n.outputs.pop_back();
    }
    // What is left unread comes before an output that is read: exposed (an omitted one named first).
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      std::string& o = n.outputs[k];
      if (read.count(o)) continue;
      const std::string what = o.empty() ? "output " + std::to_string(k) + " is omitted (an empty name)"
                                         : "its output '" + o + "' is read by no node";
      if (!expose) {
        log.refused.push_back(n.label() + ": " + what +
                              " and comes before outputs that are (the profile omits no output by an empty name): "
                              "--expose-unused makes it a graph output");
        continue;
      }
      const bool omitted = o.empty();
      if (omitted) o = unique_name(taken, (n.name.empty() ? n.op_type : n.name) + "_output" + std::to_string(k));
      g.outputs.push_back({o, TypeInfo{}});
      read.insert(o);
      log.add("expose-output", n.label(), omitted ? "SONNX-OMITTED-IO" : "SONNX-UNUSED-VALUE",
              what + ": '" + o + "', a graph output now");
    }
  }
}

}  // namespace sonnx::admit
