#include "catalogue.h"

#include <map>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sonnx/errors.h"

// spec/operators.json, linked in as bytes (no file is read at run time).
__asm__(".section .rodata\n"
        ".global sonnx_catalogue_json_begin\n"
        "sonnx_catalogue_json_begin:\n"
        ".incbin \"" SONNX_CATALOGUE_JSON "\"\n"
        ".global sonnx_catalogue_json_end\n"
        "sonnx_catalogue_json_end:\n"
        ".previous\n");
extern "C" const char sonnx_catalogue_json_begin[];
extern "C" const char sonnx_catalogue_json_end[];

namespace sonnx::catalogue {

namespace {

std::string canonical(std::string_view domain) { return domain == "ai.onnx" ? std::string() : std::string(domain); }

Attribute::Type attribute_type(const std::string& t) {
  static const std::map<std::string, Attribute::Type> types{{"float", Attribute::Type::Float},
                                                            {"int", Attribute::Type::Int},
                                                            {"string", Attribute::Type::String},
                                                            {"tensor", Attribute::Type::Tensor},
                                                            {"graph", Attribute::Type::Graph},
                                                            {"floats", Attribute::Type::Floats},
                                                            {"ints", Attribute::Type::Ints},
                                                            {"strings", Attribute::Type::Strings},
                                                            {"tensors", Attribute::Type::Tensors},
                                                            {"graphs", Attribute::Type::Graphs},
                                                            {"sparse_tensor", Attribute::Type::SparseTensor},
                                                            {"sparse_tensors", Attribute::Type::SparseTensors},
                                                            {"type_proto", Attribute::Type::TypeProto},
                                                            {"type_protos", Attribute::Type::TypeProtos}};
  auto it = types.find(t);
  if (it == types.end()) throw InternalError("operator catalogue: unknown attribute type " + t);
  return it->second;
}

Attribute default_of(const AttributeSpec& spec, const nlohmann::json& v) {
  Attribute a;
  a.name = spec.name;
  a.type = spec.type;
  switch (spec.type) {
    case Attribute::Type::Int: a.i = v.get<int64_t>(); break;
    case Attribute::Type::Float: a.f = v.get<float>(); break;
    case Attribute::Type::String: a.s = v.get<std::string>(); break;
    case Attribute::Type::Ints: a.ints = v.get<std::vector<int64_t>>(); break;
    case Attribute::Type::Floats: a.floats = v.get<std::vector<float>>(); break;
    case Attribute::Type::Strings: a.strings = v.get<std::vector<std::string>>(); break;
    default: throw InternalError("operator catalogue: a default for attribute " + spec.name + " of a type without defaults");
  }
  return a;
}

std::vector<Formal> formals(const nlohmann::json& list) {
  std::vector<Formal> out;
  for (const auto& f : list) {
    Formal x;
    x.name = f.at("name");
    x.type = f.at("type");
    std::string option = f.at("option");
    x.option = option == "variadic"   ? Formal::Option::Variadic
               : option == "optional" ? Formal::Option::Optional
                                      : Formal::Option::Single;
    x.heterogeneous = f.value("heterogeneous", false);
    out.push_back(std::move(x));
  }
  return out;
}

int bound(const nlohmann::json& v) { return v.is_null() ? -1 : v.get<int>(); }

struct Catalogue {
  std::vector<Schema> schemas;
  std::map<std::string, int64_t> max_opsets;
  std::map<std::tuple<std::string, std::string, int64_t>, size_t> index;  // (domain, op, version)
};

const Catalogue& catalogue() {
  static const Catalogue c = [] {
    Catalogue c;
    auto doc = nlohmann::json::parse(sonnx_catalogue_json_begin, sonnx_catalogue_json_end);
    for (const auto& [domain, v] : doc.at("max_opset").items()) c.max_opsets[domain] = v.get<int64_t>();
    for (const auto& j : doc.at("schemas")) {
      Schema s;
      s.domain = j.at("domain");
      s.name = j.at("name");
      s.version = j.at("version");
      s.deprecated = j.at("deprecated");
      s.function = j.at("function");
      if (j.contains("function_opsets")) s.function_opsets = j.at("function_opsets").get<std::vector<int64_t>>();
      s.min_inputs = bound(j.at("min_inputs"));
      s.max_inputs = bound(j.at("max_inputs"));
      s.min_outputs = bound(j.at("min_outputs"));
      s.max_outputs = bound(j.at("max_outputs"));
      s.inputs = formals(j.at("inputs"));
      s.outputs = formals(j.at("outputs"));
      for (const auto& a : j.at("attributes")) {
        AttributeSpec spec;
        spec.name = a.at("name");
        spec.type = attribute_type(a.at("type"));
        spec.required = a.at("required");
        if (a.contains("default")) spec.default_value = default_of(spec, a.at("default"));
        s.attributes.push_back(std::move(spec));
      }
      for (const auto& t : j.at("type_constraints"))
        s.type_constraints.push_back({t.at("name"), t.at("types").get<std::vector<std::string>>()});
      c.index[{s.domain, s.name, s.version}] = c.schemas.size();
      c.schemas.push_back(std::move(s));
    }
    return c;
  }();
  return c;
}

}  // namespace

const AttributeSpec* Schema::attribute(std::string_view attr) const {
  for (const auto& a : attributes)
    if (a.name == attr) return &a;
  return nullptr;
}

const TypeConstraint* Schema::constraint(std::string_view param) const {
  for (const auto& t : type_constraints)
    if (t.name == param) return &t;
  return nullptr;
}

std::string Schema::id() const { return (domain.empty() ? "" : domain + ".") + name + "-" + std::to_string(version); }

const Schema* find(std::string_view domain, std::string_view op, int64_t opset) {
  const Catalogue& c = catalogue();
  std::string d = canonical(domain);
  // Versions of one operator are adjacent in the index: walk back from the first key after opset.
  auto it = c.index.upper_bound({d, std::string(op), opset});
  if (it == c.index.begin()) return nullptr;
  --it;
  const auto& [kd, kop, kv] = it->first;
  if (kd != d || kop != op) return nullptr;
  return &c.schemas[it->second];
}

const Schema* exact(std::string_view domain, std::string_view op, int64_t version) {
  const Catalogue& c = catalogue();
  auto it = c.index.find({canonical(domain), std::string(op), version});
  return it == c.index.end() ? nullptr : &c.schemas[it->second];
}

const Schema* next_version(std::string_view domain, std::string_view op, int64_t version) {
  for (int64_t opset = version + 1; opset <= max_opset(domain); ++opset)
    if (const Schema* s = find(domain, op, opset); s && s->version > version) return s;
  return nullptr;
}

int64_t max_opset(std::string_view domain) {
  const Catalogue& c = catalogue();
  auto it = c.max_opsets.find(canonical(domain));
  return it == c.max_opsets.end() ? 0 : it->second;
}

const std::vector<Schema>& all() { return catalogue().schemas; }

}  // namespace sonnx::catalogue
