#include "synthetic_inputs.h"

#include <random>
#include <set>

#include "sonnx/errors.h"

namespace sonnx {

void add_synthetic_inputs(const Model& model, const std::map<std::string, int64_t>& dims, NamedValues& given) {
  std::set<std::string> initialized;
  for (const auto& [n, t] : model.graph.initializers) initialized.insert(n);
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const auto& in : model.graph.inputs) {
    if (given.count(in.name) || initialized.count(in.name)) continue;
    const TypeInfo& t = in.type;
    if (t.kind != TypeInfo::Kind::Tensor || !t.shape || t.elem == DType::Undefined || t.elem == DType::String)
      throw LoadError("input '" + in.name + "' (" + t.str() + "): give it with --input NAME=FILE");
    Shape shape;
    for (const auto& d : *t.shape) {
      auto it = d.param.empty() ? dims.end() : dims.find(d.param);
      shape.push_back(d.value ? *d.value : it != dims.end() ? it->second : 1);
    }
    Tensor x(t.elem, shape);
    if (t.elem == DType::Float)
      for (float& v : x.values<float>()) v = uniform(rng);
    else if (t.elem == DType::Double)
      for (double& v : x.values<double>()) v = uniform(rng);
    given[in.name] = Value(std::move(x));
  }
}

}  // namespace sonnx
