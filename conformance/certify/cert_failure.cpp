#include "cert_failure.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "command_runner.h"
#include "conformance/compare.h"
#include "conformance/enclosure_judge.h"
#include "reference/model/tensor_proto.h"
#include "reference/model/writer.h"
#include "reference/ops/op_table.h"
#include "sonnx/errors.h"
#include "strict_compare.h"

namespace sonnx {

namespace fs = std::filesystem;

// Named, not anonymous: the project is built as one translation unit per library.
namespace failure_explanation {

// The shortest decimal that reads back as v (as a double, or as a float when `single`).
std::string shortest(double v, bool single) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (single ? std::strtof(buf, nullptr) == static_cast<float>(v) : std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// Element i of t as text, exact for its type.
std::string value_text(const Tensor& t, int64_t i) {
  switch (t.dtype()) {
    case DType::String: return "\"" + t.data<std::string>()[i] + "\"";
    case DType::Bool: return t.data<bool>()[i] ? "true" : "false";
    case DType::Float: return shortest(t.data<float>()[i], true);
    case DType::UInt64: return std::to_string(t.data<uint64_t>()[i]);
    case DType::Complex64: {
      std::complex<float> c = t.data<std::complex<float>>()[i];
      return "(" + shortest(c.real(), true) + ", " + shortest(c.imag(), true) + ")";
    }
    case DType::Complex128: {
      std::complex<double> c = t.data<std::complex<double>>()[i];
      return "(" + shortest(c.real(), false) + ", " + shortest(c.imag(), false) + ")";
    }
    default: break;
  }
  if (is_integer(t.dtype()) || is_small_int(t.dtype())) return std::to_string(t.as_int64(i));
  return shortest(t.as_double(i), false);  // float64, and float16, bfloat16, float8, float4 exactly
}

template <class T, class F>
std::string list_text(const std::vector<T>& v, F text) {
  const size_t shown = 8;
  std::string s = "[";
  for (size_t k = 0; k < v.size() && k < shown; ++k) s += (k ? ", " : "") + text(v[k]);
  if (v.size() > shown) s += ", ... (" + std::to_string(v.size()) + " values)";
  return s + "]";
}

std::string tensor_text(const Tensor& t) {
  std::string s = std::string(dtype_name(t.dtype())) + shape_str(t.shape());
  if (t.size() == 0 || t.size() > 8 || t.is_held()) return s;
  std::vector<int64_t> at;
  for (int64_t i = 0; i < t.size(); ++i) at.push_back(i);
  return s + " " + list_text(at, [&](int64_t i) { return value_text(t, i); });
}

std::string attribute_text(const Attribute& a) {
  using T = Attribute::Type;
  if (!a.ref_attr_name.empty()) return "@" + a.ref_attr_name;
  switch (a.type) {
    case T::Float: return shortest(a.f, true);
    case T::Int: return std::to_string(a.i);
    case T::String: return "\"" + a.s + "\"";
    case T::Tensor: return tensor_text(a.t);
    case T::Graph: return "a graph";
    case T::Floats: return list_text(a.floats, [](float x) { return shortest(x, true); });
    case T::Ints: return list_text(a.ints, [](int64_t x) { return std::to_string(x); });
    case T::Strings: return list_text(a.strings, [](const std::string& x) { return "\"" + x + "\""; });
    case T::Tensors: return list_text(a.tensors, [](const Tensor& x) { return tensor_text(x); });
    case T::Graphs: return std::to_string(a.graphs.size()) + " graphs";
    case T::TypeProto: return a.tp.str();
    default: return std::string("(") + attribute_type_name(a.type) + ")";
  }
}

std::string attributes_text(const Node& n) {
  std::string s;
  for (const auto& a : n.attributes) s += (s.empty() ? "" : ", ") + a.name + "=" + attribute_text(a);
  return s;
}

// "Relu-14": the operator version the node selects; the operator alone when it has no schema.
std::string op_version(const Model& m, const Node& n) {
  try {
    OpResolution r = resolve_op(m, n);
    if (r.has_schema && r.version > 0) return qualified_op_type(n) + "-" + std::to_string(r.version);
  } catch (const std::exception&) {
    // a node the operator table cannot place: named by its type alone
  }
  return qualified_op_type(n);
}

CertInputRange range_of(const std::string& name, const Value& v) {
  CertInputRange r;
  r.name = name;
  if (!v.is_tensor()) {
    r.type = v.is_sequence() ? "sequence" : v.is_optional() ? "optional" : v.is_map() ? "map" : "none";
    return r;
  }
  const Tensor& t = v.tensor;
  r.type = std::string(dtype_name(t.dtype()));
  r.shape = t.shape();
  DType d = t.dtype();
  if (d == DType::String || d == DType::Complex64 || d == DType::Complex128 || t.is_held()) return r;
  int64_t lo = -1, hi = -1;
  double lo_v = 0, hi_v = 0;
  for (int64_t i = 0; i < t.size(); ++i) {
    double x = t.as_double(i);
    if (std::isnan(x)) {
      ++r.nan;
    } else if (std::isinf(x)) {
      ++(x > 0 ? r.pos_inf : r.neg_inf);
    } else {
      if (lo < 0 || x < lo_v) {
        lo = i;
        lo_v = x;
      }
      if (hi < 0 || x > hi_v) {
        hi = i;
        hi_v = x;
      }
    }
  }
  if (lo >= 0) {
    r.min = value_text(t, lo);
    r.max = value_text(t, hi);
  }
  return r;
}

bool is_initializer(const Graph& g, const std::string& name) {
  for (const auto& [n, t] : g.initializers)
    if (n == name) return true;
  return false;
}

// The ranges of the node's inputs (values from the evidence, else the model's initializers), or of
// the model's graph inputs when no node is explained.
std::vector<CertInputRange> input_ranges(const FailureEvidence& e, const Node* node) {
  std::vector<CertInputRange> out;
  std::vector<std::string> names;
  if (node) {
    for (const auto& in : node->inputs)
      if (!in.empty() && std::find(names.begin(), names.end(), in) == names.end()) names.push_back(in);
  } else {
    for (const auto& vi : e.model->graph.inputs) names.push_back(vi.name);
  }
  for (const auto& name : names) {
    if (auto v = e.inputs.find(name); v != e.inputs.end()) {
      out.push_back(range_of(name, v->second));
      continue;
    }
    for (const auto& [n, t] : e.model->graph.initializers)
      if (n == name) out.push_back(range_of(name, Value(t)));
  }
  return out;
}

std::vector<int64_t> unravel(int64_t i, const Shape& shape) {
  std::vector<int64_t> at(shape.size(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] <= 0) continue;
    at[k] = i % shape[k];
    i /= shape[k];
  }
  return at;
}

bool same_layout(const Tensor& a, const Tensor& b) { return a.dtype() == b.dtype() && a.shape() == b.shape(); }

// Element i of t alone, a scalar of its type.
Tensor element_of(const Tensor& t, int64_t i) {
  Tensor e(t.dtype(), {});
  if (t.dtype() == DType::String) {
    e.data<std::string>()[0] = t.data<std::string>()[i];
  } else {
    size_t size = dtype_size(t.dtype());
    std::memcpy(e.raw(), t.raw() + static_cast<size_t>(i) * size, size);
  }
  return e;
}

bool same_element(const Tensor& a, const Tensor& b, int64_t i) {
  if (a.dtype() == DType::String) return a.data<std::string>()[i] == b.data<std::string>()[i];
  size_t size = dtype_size(a.dtype());
  return std::memcmp(a.raw() + static_cast<size_t>(i) * size, b.raw() + static_cast<size_t>(i) * size, size) == 0;
}

// The element's position and values: the runtime's, the reference's, and the ulps between them.
void name_element(CertFailure& f, const Tensor& got, const Value* ref, int64_t i) {
  f.index = i;
  f.multi_index = unravel(i, got.shape());
  f.runtime = value_text(got, i);
  if (!ref || !ref->is_tensor() || !same_layout(got, ref->tensor)) return;
  f.reference = value_text(ref->tensor, i);
  if (!is_float(got.dtype())) return;
  double x = got.as_double(i), y = ref->tensor.as_double(i);
  if (std::isfinite(x) && std::isfinite(y)) f.ulp_error = ulp_distance(x, y, got.dtype());
}

// Output `name` judged by its admissible enclosure (as enclosure_judge.h judges it); false when it lies within.
bool wrong_by_enclosure(const std::string& name, const Value& got, const enclose::Bounds& b, const Value* ref, CertFailure& f) {
  EnclosureCheck c = judge_by_enclosure(name, got, b);
  if (c.ok) return false;
  f.output = name;
  f.judged_by = "enclosure";
  if (!b.is_tensor() || !got.is_tensor() || got.tensor.dtype() != b.type || got.tensor.shape() != b.lo.shape()) {
    f.note = "output '" + name + "': " + c.message;
    return true;
  }
  const Tensor& a = got.tensor;
  f.elements = a.size();
  for (int64_t i = 0; i < a.size(); ++i) {
    double d = b.exact() ? CertFailure::kNotApplicable : enclose::ulps_outside(a.as_double(i), b, i);
    if (b.exact() ? same_element(a, b.lo, i) : d == 0) continue;
    if (f.wrong++ > 0) continue;
    name_element(f, a, ref, i);
    f.lo = value_text(b.lo, i);  // float64 bounds of a float output; the determined value of an exact one
    f.hi = value_text(b.hi, i);
    f.ulps_outside = d;
  }
  return true;
}

std::string tolerance_text(DType t, Accuracy acc) {
  if (!is_float(t) || acc == Accuracy::Exact) return is_float(t) ? "bitwise equality (an exact operator)" : "bitwise equality";
  StrictTolerance tol = strict_tolerance(t);
  return "an element passes within " + shortest(tol.ulp, false) +
         " ulps, or when |runtime - reference| <= " + shortest(tol.abs, false) + " + " + shortest(tol.rel, false) +
         " x |reference|";
}

// Output `name` judged by the strict tolerances (strict_compare.h); false when within them.
bool wrong_by_tolerance(const std::string& name, const Value& got, const Value& ref, Accuracy acc, CertFailure& f) {
  Comparison c = strict_compare(got, ref, acc);
  if (c.ok) return false;
  f.output = name;
  f.judged_by = "tolerance";
  f.wrong = c.mismatches;
  if (acc == Accuracy::Random || !got.is_tensor() || !ref.is_tensor() || !same_layout(got.tensor, ref.tensor)) {
    f.note = "output '" + name + "': " + (acc == Accuracy::Random ? "judged statistically (a random operator): " : "") +
             c.message;
    return true;
  }
  const Tensor& a = got.tensor;
  f.elements = a.size();
  f.tolerance = tolerance_text(a.dtype(), acc);
  for (int64_t i = 0; i < a.size(); ++i) {  // the rule itself, element by element, up to the first it fails
    if (strict_compare(Value(element_of(a, i)), Value(element_of(ref.tensor, i)), acc).ok) continue;
    name_element(f, a, &ref, i);
    break;
  }
  return true;
}

std::string numbered(const char* prefix, size_t k) { return prefix + std::to_string(k) + ".pb"; }

// The files a repro directory holds (and only those): removed before it is written again.
bool repro_file(const std::string& f) {
  auto numbered_pb = [&](const char* prefix) { return f.rfind(prefix, 0) == 0 && f.size() > 3 && f.ends_with(".pb"); };
  return f == "model.onnx" || f == "README.md" || numbered_pb("expected_lo_") || numbered_pb("expected_hi_") ||
         numbered_pb("runtime_output_") || numbered_pb("input_") || numbered_pb("output_");
}

void remove_repro_files(const fs::path& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && repro_file(entry.path().filename().string())) fs::remove(entry.path(), ec);
}

std::string numbered_names(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + std::to_string(k) + ": " + names[k];
  return s;
}

std::string readme(const std::string& test_name, const FailureEvidence& e, const CertFailure& f,
                   const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  std::string s = "# sonnx certify failure: " + test_name + "\n\n";
  for (const auto& [label, text] : cert_failure_lines(f)) s += "- **" + label + "**: " + text + "\n";
  s += "\n## Files\n\n";
  s += e.model_file.empty() ? "- `model.onnx`: the node alone, its inputs made graph inputs (the model's opset imports)\n"
                            : "- `model.onnx`: the test's model, as it is\n";
  s += "- `test_data_set_0/input_K.pb`: its inputs (K = " + numbered_names(inputs) + ")";
  s += e.model_file.empty() ? ": the values the node was given on the backend (the backend's own outputs of the nodes before "
                              "it, the model's inputs and weights)\n"
                            : "\n";
  s += "- `test_data_set_0/output_K.pb`: the sonnx reference interpreter's outputs (K = " + numbered_names(outputs) + ")\n";
  if (e.bounds)
    s += "- `expected_lo_K.pb`, `expected_hi_K.pb`: the bounds of each output's admissible enclosure, every result an "
         "implementation meeting each operator's accuracy allowance may give lies within [lo, hi] element by element "
         "(float64 tensors for a float output, exact; the value itself for an exact output)\n";
  s += "- `runtime_output_K.pb`: the backend's outputs\n";
  s += "\n## Rerun\n\nThis directory is an ONNX test directory; certify it again with\n\n    " + f.rerun + "\n";
  return s;
}

}  // namespace failure_explanation

CertFailure explain_failure(const FailureEvidence& e) {
  using namespace failure_explanation;
  CertFailure f;
  f.data_set = e.data_set;
  const Model& m = *e.model;
  const Node* node = m.graph.nodes.size() == 1 ? &m.graph.nodes.front() : nullptr;
  if (!e.node_label.empty()) {
    f.localized = true;
    f.node = e.node_label;
  } else {
    f.not_localized = e.not_localized;
    if (node) f.node = node->label();
  }
  if (node) {
    f.op_version = op_version(m, *node);
    f.attributes = attributes_text(*node);
  }
  f.inputs = input_ranges(e, node);
  if (!e.note.empty()) {
    f.note = e.note;
    return f;
  }
  for (const auto& vi : m.graph.outputs) {
    auto ref = e.reference.find(vi.name);
    if (ref == e.reference.end()) continue;  // nothing to judge it by (as certify)
    auto got = e.runtime.find(vi.name);
    if (got == e.runtime.end()) {
      f.output = vi.name;
      f.note = "the backend did not produce output '" + vi.name + "'";
      return f;
    }
    const enclose::Bounds* bounds = nullptr;
    if (e.bounds)
      if (auto b = e.bounds->find(vi.name); b != e.bounds->end()) bounds = &b->second;
    bool wrong = bounds ? wrong_by_enclosure(vi.name, got->second, *bounds, &ref->second, f)
                        : wrong_by_tolerance(vi.name, got->second, ref->second, e.accuracy, f);
    if (wrong) return f;
  }
  f.note = "every output is right when judged again";  // a failure of the judge itself: nothing to name
  return f;
}

std::string repro_dir_name(const std::string& test_name) {
  std::string s;
  for (char c : test_name) s += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' ? c : '_';
  if (s.size() > 100) s.resize(100);
  if (s.empty() || s.front() == '.') s.insert(s.begin(), '_');  // never ".", "..", nor hidden
  if (s == test_name) return s;
  uint32_t h = 2166136261u;  // FNV-1a: the same on every platform
  for (unsigned char c : test_name) h = (h ^ c) * 16777619u;
  char hash[16];
  std::snprintf(hash, sizeof hash, "-%08x", h);
  return s + hash;
}

void write_repro_dir(const fs::path& dir, const std::string& test_name, const FailureEvidence& e,
                     const std::string& certify_command, CertFailure& f) {
  using namespace failure_explanation;
  const fs::path root = fs::absolute(dir / repro_dir_name(test_name)).lexically_normal();
  const fs::path data = root / "test_data_set_0";
  std::error_code ec;
  fs::create_directories(data, ec);
  if (ec) throw LoadError("cannot create the repro directory '" + root.string() + "': " + ec.message());
  if (!e.model_file.empty() && fs::equivalent(root, e.model_file.parent_path(), ec))
    throw LoadError("the repro directory '" + root.string() + "' is the test's own directory");
  remove_repro_files(root);
  remove_repro_files(data);
  const Model& m = *e.model;
  if (e.model_file.empty()) {
    save_model(m, root / "model.onnx");
  } else if (!fs::copy_file(e.model_file, root / "model.onnx", fs::copy_options::overwrite_existing, ec)) {
    throw LoadError("cannot copy '" + e.model_file.string() + "' to '" + root.string() + "': " + ec.message());
  }
  std::vector<std::string> inputs, outputs;
  for (const auto& vi : m.graph.inputs) {
    if (is_initializer(m.graph, vi.name)) continue;
    auto v = e.inputs.find(vi.name);
    if (v == e.inputs.end()) break;  // input K binds the K-th graph input: none may be left out before the last
    write_value_pb(data / numbered("input_", inputs.size()), v->second, vi.name);
    inputs.push_back(vi.name);
  }
  for (size_t k = 0; k < m.graph.outputs.size(); ++k) {
    const std::string& name = m.graph.outputs[k].name;
    outputs.push_back(name);
    if (auto r = e.reference.find(name); r != e.reference.end()) write_value_pb(data / numbered("output_", k), r->second, name);
    if (auto r = e.runtime.find(name); r != e.runtime.end())
      write_value_pb(root / numbered("runtime_output_", k), r->second, name);
    if (!e.bounds) continue;
    if (auto b = e.bounds->find(name); b != e.bounds->end()) {
      write_value_pb(root / numbered("expected_lo_", k), Value(b->second.lo), name);
      write_value_pb(root / numbered("expected_hi_", k), Value(b->second.hi), name);
    }
  }
  f.repro_dir = root.string();
  f.rerun = certify_command + " --suite " + shell_quote(root.string());
  std::ofstream out(root / "README.md", std::ios::binary);
  out << readme(test_name, e, f, inputs, outputs);
  if (!out) throw LoadError("cannot write '" + (root / "README.md").string() + "'");
}

}  // namespace sonnx
