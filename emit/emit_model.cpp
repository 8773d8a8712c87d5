#include "emit_model.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "admit/change.h"
#include "admit/rewrites.h"
#include "driver.h"
#include "weights_loader.h"
#include "optimized/plan/memory_planner.h"
#include "reference/model/schedule.h"
#include "reference/ops/op_table.h"

namespace sonnx::emit {
namespace {

// spec/ops/relations.json, built in (emit/CMakeLists.txt): the Why3 relation of each profile operator.
const char* const kRelationsJson =
#include "relations_json.inc"
    ;

constexpr int64_t kAlign = 64;  // every buffer the arena holds starts at a multiple of this

int64_t emit_aligned(int64_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

// The compiler flags a mode needs, after -O2 (gcc and clang spelling). Exact: each operation
// rounded as written, and no libm call folded at compile time (gcc folds with correctly rounded
// values; the reference calls the run-time libm). Fast: vectorised loops, multiply-adds fused (one
// rounding fewer: inside every admissible enclosure), and no floating-point traps assumed, so that
// the compiler may turn clamps into vector selects (no value changes: nothing reads the flags).
const char* emit_mode_flags(Mode mode) {
  return mode == Mode::Exact ? "-ffp-contract=off -fno-builtin" : "-O3 -ffp-contract=fast -fno-trapping-math";
}

std::string emit_relation(const std::string& op) {
  static const nlohmann::json relations = nlohmann::json::parse(kRelationsJson)["relations"];
  auto it = relations.find(op);
  if (it == relations.end()) return "none";
  std::string text;  // one relation, or a list (Resize: one per mode)
  for (const auto& r : it->is_array() ? *it : nlohmann::json::array({*it}))
    text += (text.empty() ? "" : ", ") + ("spec/ops/" + r.get<std::string>());
  return text;
}

const std::set<std::string>& emit_c_keywords() {
  static const std::set<std::string> k = {"auto",     "break",      "case",     "char",   "const",    "continue", "default",
                                          "do",       "double",     "else",     "enum",   "extern",   "float",    "for",
                                          "goto",     "if",         "inline",   "int",    "long",     "register", "restrict",
                                          "return",   "short",      "signed",   "sizeof", "static",   "struct",   "switch",
                                          "typedef",  "union",      "unsigned", "void",   "volatile", "while",    "_Bool",
                                          "_Complex", "_Imaginary", "main",     "arena",  "inputs",   "outputs"};
  return k;
}

// A C identifier for a value name: [A-Za-z0-9_] kept, others '_', "v_" before a digit or keyword,
// a number after a name already taken.
std::string emit_field_name(const std::string& name, std::set<std::string>& taken) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) || emit_c_keywords().count(s) || s.rfind("sonnx_", 0) == 0)
    s = "v_" + s;
  std::string unique = s;
  for (int k = 2; taken.count(unique); ++k) unique = s + "_" + std::to_string(k);
  taken.insert(unique);
  return unique;
}

// Whether the C text names the identifier `id` as a whole word.
bool emit_names(const std::vector<std::string>& body, const std::string& id) {
  const std::regex word("\\b" + id + "\\b");
  for (const std::string& l : body)
    if (std::regex_search(l, word)) return true;
  return false;
}

std::string emit_shape_comment(DType t, const Shape& s) {
  std::string text = std::string(dtype_name(t));
  for (int64_t d : s) text += "[" + std::to_string(d) + "]";
  return s.empty() ? text + " (scalar)" : text;
}

// Where a value lives in the generated code.
struct Place {
  enum class Kind { Input, Output, Weight, Arena } kind = Kind::Arena;
  std::string field;   // Input / Output: the struct member; Weight (embedded): the array's name
  int64_t offset = 0;  // Arena, Weight (file): bytes from the arena's start
};

class Generator {
 public:
  Generator(const Model& model, const EmitOptions& o) : m_(model), o_(o) {}
  EmitResult run();

 private:
  void collect_types();
  void schedule();
  void emit_nodes();
  void plan();
  std::string pointer(const std::string& value, bool writable) const;
  bool embedded(const std::string& weight) const;
  std::string struct_types() const;
  std::string header() const;
  std::string source();
  std::string weights_source() const;
  std::string weights_file() const;
  std::string build_files_makefile() const;
  std::string build_files_cmake() const;
  std::string upper() const;

  Model m_;
  const EmitOptions& o_;
  std::map<std::string, CValue> values_;
  std::map<std::string, Place> places_;
  std::vector<size_t> order_;
  // Each scheduled node's function: its body, and the inputs and outputs the body names (the
  // others are left out of its signature).
  struct NodeCode {
    std::string op;
    std::vector<std::string> body;
    std::vector<size_t> ins, outs;
    bool fails = false;  // returns a status (NodeEmitter::may_fail)
  };
  std::vector<NodeCode> codes_;
  bool math_ = false;
  std::vector<std::pair<std::string, std::string>> helpers_;  // in the order first asked for
  std::set<std::string> helper_names_;
  std::vector<std::string> weights_;  // constants the code reads, in order
  std::vector<std::string> intermediates_;
  int64_t weights_bytes_ = 0, arena_bytes_ = 0;
  std::vector<DriverTensor> inputs_, outputs_;
  size_t folded_ = 0;
  std::set<DType> types_;  // the element types of the values the C names (the header's typedefs)
};

void Generator::collect_types() {
  auto add = [&](const std::string& name, const TypeInfo& t) {
    if (name.empty() || values_.count(name)) return;
    if (!t.is_static_tensor())
      throw EmitRefused("value '" + name + "' has no static tensor type (" + t.str() + "): run `sonnx admit` first");
    CValue v{name, t.elem, {}, nullptr};
    for (const Dim& d : *t.shape) v.shape.push_back(*d.value);
    values_[name] = v;
  };
  for (const auto& [name, t] : m_.graph.initializers) values_[name] = CValue{name, t.dtype(), t.shape(), &t};
  for (const ValueInfo& v : m_.graph.inputs) add(v.name, v.type);
  for (const ValueInfo& v : m_.graph.outputs) add(v.name, v.type);
  for (const ValueInfo& v : m_.graph.value_info) add(v.name, v.type);
  for (const Node& n : m_.graph.nodes)
    for (const std::string& o : n.outputs)
      if (!o.empty() && !values_.count(o)) throw EmitRefused("value '" + o + "' of node " + n.label() + " has no declared type");
}

void Generator::schedule() {
  const auto& nodes = m_.graph.nodes;
  std::map<std::string, size_t> producer;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const std::string& o : nodes[i].outputs)
      if (!o.empty()) producer[o] = i;
  std::vector<std::vector<size_t>> succ(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const std::string& in : nodes[i].inputs)
      if (auto it = producer.find(in); it != producer.end()) succ[it->second].push_back(i);
  std::optional<std::vector<size_t>> order = kahn_order(nodes.size(), succ);
  if (!order) throw EmitRefused("the graph has a cycle");
  order_ = *order;

  std::set<std::string> taken;
  for (const ValueInfo& v : m_.graph.inputs) {
    if (values_.at(v.name).constant) continue;  // an input with an initializer is a constant here
    places_[v.name] = {Place::Kind::Input, emit_field_name(v.name, taken), 0};
    inputs_.push_back({v.name, places_[v.name].field, values_.at(v.name).dtype, values_.at(v.name).shape});
  }
  std::set<std::string> out_taken;
  for (const ValueInfo& v : m_.graph.outputs) {
    const std::string field = emit_field_name(v.name, out_taken);
    outputs_.push_back({v.name, field, values_.at(v.name).dtype, values_.at(v.name).shape});
    if (!places_.count(v.name) && !values_.at(v.name).constant) places_[v.name] = {Place::Kind::Output, field, 0};
  }
}

void Generator::emit_nodes() {
  for (size_t step : order_) {
    const Node& n = m_.graph.nodes[step];
    const OpResolution r = resolve_op(m_, n);
    const OpRecord* rec = OpRecords::instance().find(canonical_domain(n.domain), n.op_type, r.version);
    NodeCode code;
    code.op = (n.domain.empty() ? "" : n.domain + ".") + n.op_type + "-" + std::to_string(r.version);
    if (!rec || !rec->emit_c) throw EmitRefused("no C template for " + code.op + " (node " + n.label() + ")");
    std::vector<CValue> ins, outs;
    for (const std::string& in : n.inputs) ins.push_back(in.empty() ? CValue{} : values_.at(in));
    for (const std::string& o : n.outputs) outs.push_back(o.empty() ? CValue{} : values_.at(o));
    NodeEmitter e(n, r.version, o_.mode, ins, outs);
    rec->emit_c->emit(e);
    math_ = math_ || e.uses_math();
    for (const auto& [name, def] : e.helpers())
      if (helper_names_.insert(name).second) helpers_.emplace_back(name, def);
    code.body = e.body();
    code.fails = e.fails();
    for (size_t i = 0; i < n.inputs.size(); ++i)
      if (!n.inputs[i].empty() && emit_names(code.body, "x" + std::to_string(i))) code.ins.push_back(i);
    for (size_t k = 0; k < n.outputs.size(); ++k)
      if (!n.outputs[k].empty() && emit_names(code.body, "y" + std::to_string(k))) code.outs.push_back(k);
    codes_.push_back(std::move(code));
  }
}

void Generator::plan() {
  const auto& nodes = m_.graph.nodes;
  // Constants the node functions read become weights, each aligned; those a template wrote into
  // its code as literals (shapes, axes, pads) are not.
  std::set<std::string> seen;
  for (size_t s = 0; s < order_.size(); ++s)
    for (size_t i : codes_[s].ins) {
      const std::string& in = nodes[order_[s]].inputs[i];
      if (values_.at(in).constant && !places_.count(in) && seen.insert(in).second) weights_.push_back(in);
    }
  for (const auto& o : outputs_)
    if (values_.at(o.name).constant && seen.insert(o.name).second) weights_.push_back(o.name);
  // String weights are always embedded (their bytes are C string literals, the views point to
  // them), so they take no room in the weights file.
  int64_t at = 0;
  for (size_t k = 0; k < weights_.size(); ++k) {
    const Tensor& t = *values_.at(weights_[k]).constant;
    places_[weights_[k]] = {Place::Kind::Weight, "sonnx_w" + std::to_string(k), at};
    if (t.dtype() != DType::String) at += emit_aligned(static_cast<int64_t>(t.byte_size()));
  }
  if (o_.weights == WeightsMode::File) weights_bytes_ = at;
  // An embedded weight holding an infinity or a NaN is written with INFINITY / NAN (<math.h>).
  for (const std::string& w : weights_) {
    const Tensor& t = *values_.at(w).constant;
    if (!embedded(w)) continue;
    for (int64_t i = 0; i < t.size() && !math_; ++i) {
      switch (t.dtype()) {
        case DType::Float:
        case DType::Double: math_ = !std::isfinite(t.as_double(i)); break;
        case DType::Complex64: {
          const std::complex<float> z = t.data<std::complex<float>>()[i];
          math_ = !std::isfinite(z.real()) || !std::isfinite(z.imag());
          break;
        }
        case DType::Complex128: {
          const std::complex<double> z = t.data<std::complex<double>>()[i];
          math_ = !std::isfinite(z.real()) || !std::isfinite(z.imag());
          break;
        }
        default: break;
      }
    }
  }

  // Intermediates: live from their producer's step to their last reader's.
  std::map<std::string, std::pair<int64_t, int64_t>> life;
  for (size_t step = 0; step < order_.size(); ++step) {
    const Node& n = nodes[order_[step]];
    for (const std::string& in : n.inputs)
      if (auto it = life.find(in); it != life.end()) it->second.second = static_cast<int64_t>(step);
    for (const std::string& o : n.outputs)
      if (!o.empty() && !places_.count(o)) {
        life[o] = {static_cast<int64_t>(step), static_cast<int64_t>(step)};
        intermediates_.push_back(o);
      }
  }
  std::vector<int64_t> sizes, first, last;
  for (const std::string& v : intermediates_) {
    const CValue& c = values_.at(v);
    sizes.push_back(emit_aligned(c.size() * c_storage_bytes(c.dtype)));  // 16 bytes a string
    first.push_back(life[v].first);
    last.push_back(life[v].second);
  }
  const std::vector<int64_t> offsets = plan_offsets_for_intervals(Planner::GreedyBySize, sizes, first, last);
  for (size_t k = 0; k < intermediates_.size(); ++k)
    places_[intermediates_[k]] = {Place::Kind::Arena, "", weights_bytes_ + offsets[k]};
  arena_bytes_ = std::max<int64_t>(kAlign, weights_bytes_ + (sizes.empty() ? 0 : arena_size(sizes, offsets)));

  for (const DriverTensor& t : inputs_) types_.insert(t.dtype);
  for (const DriverTensor& t : outputs_) types_.insert(t.dtype);
  for (size_t s = 0; s < order_.size(); ++s) {
    const Node& n = nodes[order_[s]];
    for (const std::string& v : n.inputs)
      if (!v.empty()) types_.insert(values_.at(v).dtype);
    for (const std::string& v : n.outputs)
      if (!v.empty()) types_.insert(values_.at(v).dtype);
  }
}

bool Generator::embedded(const std::string& weight) const {
  return o_.weights == WeightsMode::Embedded || values_.at(weight).dtype == DType::String;
}

std::string Generator::pointer(const std::string& value, bool writable) const {
  const Place& p = places_.at(value);
  const std::string t = c_storage_type(values_.at(value).dtype);
  switch (p.kind) {
    case Place::Kind::Input: return "inputs->" + p.field;
    case Place::Kind::Output: return "outputs->" + p.field;
    case Place::Kind::Weight:
      if (values_.at(value).constant->size() == 0) return "(const " + t + "*)0";
      if (embedded(value)) return p.field;
      return "(const " + t + "*)(const void*)&a[" + std::to_string(p.offset) + "]";
    case Place::Kind::Arena:
      return std::string("(") + (writable ? "" : "const ") + t + "*)(" + (writable ? "" : "const ") + "void*)&a[" +
             std::to_string(p.offset) + "]";
  }
  return "";
}

std::string Generator::upper() const {
  std::string u = o_.name;
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

// The typedefs of the struct element types the model uses, each under its own guard so that the
// headers of several generated models can be included in one program. Each checks its size at
// compile time (an array type of negative size otherwise, C99, no extension): the arena gives a
// string 16 bytes, and a complex element must be its two parts, std::complex's layout, as the
// weights file and the driver's .pb and .npy bytes hold it.
std::string Generator::struct_types() const {
  std::ostringstream h;
  if (types_.count(DType::String))
    h << "/* A string element: a view of `size` bytes at `data` (no terminating NUL needed; the bytes may hold\n"
         "   NULs). The bytes stay where they are, in the caller's inputs or in the model's constant string\n"
         "   literals: "
      << o_.name << "_run moves views and compares bytes, and never copies or frees them. */\n"
      << "#ifndef SONNX_STRING_DEFINED\n#define SONNX_STRING_DEFINED\n"
      << "typedef struct {\n  const char* data;\n  size_t size;\n} sonnx_string;\n"
      << "/* The arena reserves 16 bytes per string element: this type is invalid where a view needs more. */\n"
      << "typedef char sonnx_string_fits_16_bytes[(sizeof(sonnx_string) <= 16u) ? 1 : -1];\n#endif\n\n";
  const std::pair<DType, const char*> complex[] = {{DType::Complex64, "float"}, {DType::Complex128, "double"}};
  for (const auto& [type, part] : complex) {
    if (!types_.count(type)) continue;
    const std::string name = c_storage_type(type);
    std::string guard = name + "_DEFINED";
    for (char& c : guard) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    h << "/* A " << dtype_name(type) << " element: its real and imaginary parts, std::complex<" << part << ">'s layout. */\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n"
      << "typedef struct {\n  " << part << " re;\n  " << part << " im;\n} " << name << ";\n"
      << "typedef char " << name << "_is_two_" << part << "s[(sizeof(" << name << ") == (2u * sizeof(" << part
      << "))) ? 1 : -1];\n#endif\n\n";
  }
  return h.str();
}

std::string Generator::header() const {
  const std::string P = o_.name, U = upper();
  std::ostringstream h;
  h << "/* " << P << ".h: generated by sonnx emit-c from " << c_comment(o_.source_label) << " (mode "
    << (o_.mode == Mode::Exact ? "exact" : "fast") << "). */\n";
  h << "#ifndef " << U << "_H\n#define " << U << "_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n";
  h << struct_types();
  h << "/* Bytes of the arena " << P << "_run works in (and, with weights in a file, holds them first). */\n";
  h << "#define " << U << "_ARENA_BYTES " << arena_bytes_ << "u\n";
  if (o_.weights == WeightsMode::File) {
    h << "#define " << U << "_WEIGHTS_BYTES " << weights_bytes_ << "u\n";
    h << "#define " << U << "_WEIGHTS_FILE \"" << P << ".weights\"\n";
  }
  h << "\ntypedef struct {\n";
  for (const DriverTensor& t : inputs_)
    h << "  const " << c_storage_type(t.dtype) << "* " << t.field << "; /* \"" << c_comment(t.name)
      << "\": " << emit_shape_comment(t.dtype, t.shape) << " */\n";
  if (inputs_.empty()) h << "  int none; /* the model has no inputs */\n";
  h << "} " << P << "_inputs;\n\ntypedef struct {\n";
  for (const DriverTensor& t : outputs_)
    h << "  " << c_storage_type(t.dtype) << "* " << t.field << "; /* \"" << c_comment(t.name)
      << "\": " << emit_shape_comment(t.dtype, t.shape) << " */\n";
  h << "} " << P << "_outputs;\n\n";
  h << "/* Runs the model: reads the inputs, writes the outputs, uses `arena` (" << U
    << "_ARENA_BYTES bytes, 64-byte aligned) for\n   everything else. Returns 0, or 1 when a pointer is null. */\n";
  h << "int " << P << "_run(const " << P << "_inputs* inputs, " << P << "_outputs* outputs, void* arena);\n";
  if (o_.weights == WeightsMode::File)
    h << "\n/* Reads the weights file into the arena's first " << U << "_WEIGHTS_BYTES bytes (" << P
      << "_weights.c; replace it to load\n   them another way). Returns 0, or 1 when the file cannot be read or is not this model's. */\n"
      << "int " << P << "_load_weights(void* arena, const char* path);\n";
  h << "\n#endif\n";
  return h.str();
}

std::string Generator::source() {
  const std::string P = o_.name;
  const auto& nodes = m_.graph.nodes;
  std::ostringstream functions, calls;
  bool arena_used = false;
  bool guarded = false;  // a node before may fail: `status` holds 0 or its failure
  // Fast mode tells the compiler a node's buffers do not overlap (the plan keeps values live at
  // one step apart), so that it vectorises; exact mode keeps to MISRA C 2012 rule 8.14.
  const std::string restrict = o_.mode == Mode::Fast ? " restrict " : " ";
  for (size_t index = 0; index < order_.size(); ++index) {
    const Node& n = nodes[order_[index]];
    const NodeCode& code = codes_[index];
    const std::string op = code.op;
    std::vector<std::string> params, args;
    for (size_t i : code.ins) {
      params.push_back("const " + std::string(c_storage_type(values_.at(n.inputs[i]).dtype)) + "*" + restrict + "x" +
                       std::to_string(i));
      args.push_back(pointer(n.inputs[i], false));
    }
    for (size_t k : code.outs) {
      params.push_back(std::string(c_storage_type(values_.at(n.outputs[k]).dtype)) + "*" + restrict + "y" + std::to_string(k));
      args.push_back(pointer(n.outputs[k], true));
    }
    const std::string fn = "sonnx_node_" + std::to_string(index);
    functions << "/* node " << index << " " << c_comment(n.name.empty() ? n.label() : "\"" + n.name + "\"") << ": " << op
              << ", relation " << emit_relation(n.op_type) << " */\n";
    functions << (code.fails ? "static int " : "static void ") << fn << "(";
    for (size_t k = 0; k < params.size(); ++k) functions << (k ? ", " : "") << params[k];
    functions << (params.empty() ? "void" : "") << ") {\n";
    if (code.fails) functions << "  int status = 0;\n";
    for (const std::string& l : code.body) functions << l << "\n";
    if (code.fails) functions << "  return status;\n";
    functions << "}\n\n";
    // After a node that can fail, every later node runs only while the status is 0.
    calls << "  " << (guarded ? "if (status == 0) {\n    " : "") << (code.fails ? "status = " : "") << fn << "(";
    for (size_t k = 0; k < args.size(); ++k) {
      calls << (k ? ", " : "") << args[k];
      arena_used = arena_used || args[k].find("&a[") != std::string::npos;
    }
    calls << ");\n" << (guarded ? "  }\n" : "");
    guarded = guarded || code.fails;
  }
  // Outputs no node writes (an input, a constant, another output's value) are copied.
  std::set<std::string> written;
  for (const DriverTensor& t : outputs_) {
    const Place& p = places_.at(t.name);
    if (p.kind == Place::Kind::Output && p.field == t.field && written.insert(t.name).second) continue;
    const CValue& v = values_.at(t.name);
    const std::string from = pointer(t.name, false);
    arena_used = arena_used || from.find("&a[") != std::string::npos;
    calls << "  {\n    const " << c_storage_type(v.dtype) << "* from = " << from << ";\n";
    calls << "    for (int64_t i = 0; i < " << v.size() << "; ++i) {\n      outputs->" << t.field
          << "[i] = from[i];\n    }\n  }\n";
  }

  std::ostringstream c;
  c << "/* " << P << ".c: generated by sonnx emit-c from " << c_comment(o_.source_label) << " (mode "
    << (o_.mode == Mode::Exact ? "exact: bitwise the reference's results" : "fast: within the admissible enclosure")
    << ").\n   One function per node, in the order of the plan; no allocation, no recursion, no global state. */\n";
  c << "#include \"" << P << ".h\"\n\n";
  if (math_) c << "#include <math.h>\n";
  c << "#include <stdint.h>\n";
  if (std::any_of(helpers_.begin(), helpers_.end(), [](const auto& h) { return h.first == "sonnx_string_equal"; }))
    c << "#include <string.h>\n";  // its memcmp
  c << "\n";
  // Exact mode rounds each operation as written: no fused multiply-add (gcc takes -ffp-contract=off,
  // which the build files pass; clang and other C99 compilers the standard pragma).
  if (o_.mode == Mode::Exact)
    c << "/* Each operation rounded as written: compile with -ffp-contract=off (gcc) or FP_CONTRACT OFF. */\n"
      << "#if !defined(__GNUC__) || defined(__clang__)\n#pragma STDC FP_CONTRACT OFF\n#endif\n\n";
  c << weights_source();  // the embedded ones: all, or with weights in a file the strings
  for (const auto& [name, def] : helpers_) c << def << "\n";
  c << functions.str();
  c << "int " << P << "_run(const " << P << "_inputs* inputs, " << P << "_outputs* outputs, void* arena) {\n";
  if (arena_used) c << "  unsigned char* const a = (unsigned char*)arena;\n";  // every use is a pointer() into it
  c << "  int status = 1;\n  if ((inputs != NULL) && (outputs != NULL) && (arena != NULL)) {\n    status = 0;\n";
  std::string body = calls.str();
  for (size_t at = 0; (at = body.find('\n', at)) != std::string::npos && at + 1 < body.size(); at += 3)
    body.insert(at + 1, "  ");
  c << "  " << body << "  }\n  return status;\n}\n";
  return c.str();
}

std::string Generator::weights_source() const {
  std::ostringstream w;
  for (const std::string& name : weights_) {
    const Tensor& t = *values_.at(name).constant;
    if (t.size() == 0 || !embedded(name)) continue;
    // Elements a line: 8 numbers, 4 complex numbers, one string.
    const int64_t per_line = t.dtype() == DType::String ? 1 : is_c_struct_type(t.dtype()) ? 4 : 8;
    w << "/* \"" << c_comment(name) << "\": " << emit_shape_comment(t.dtype(), t.shape()) << " */\n";
    w << "static const " << c_storage_type(t.dtype()) << " " << places_.at(name).field << "[" << t.size() << "] = {";
    for (int64_t i = 0; i < t.size(); ++i)
      w << (i % per_line == 0 ? "\n  " : " ") << c_element(t, i) << (i + 1 < t.size() ? "," : "");
    w << "\n};\n\n";
  }
  return w.str();
}

// The weights file: "SONNXW1" and a NUL, the byte count (8 bytes, little-endian), then each weight
// at its offset, little-endian as the machine holds it.
std::string Generator::weights_file() const {
  std::string bytes(static_cast<size_t>(16 + weights_bytes_), '\0');
  std::memcpy(bytes.data(), "SONNXW1", 8);
  for (int k = 0; k < 8; ++k) bytes[static_cast<size_t>(8 + k)] = static_cast<char>((weights_bytes_ >> (8 * k)) & 0xff);
  for (const std::string& name : weights_) {
    const Tensor& t = *values_.at(name).constant;
    if (embedded(name)) continue;  // a string: in the C
    if (t.byte_size()) std::memcpy(bytes.data() + 16 + places_.at(name).offset, t.raw(), t.byte_size());
  }
  return bytes;
}

std::string Generator::build_files_makefile() const {
  const std::string P = o_.name;
  const bool file = o_.weights == WeightsMode::File;
  std::ostringstream mk;
  mk << "# Generated by sonnx emit-c. `make` builds " << P << "_run (" << P << ".o) and the test driver `" << P << "_main`.\n";
  mk << "CC ?= cc\nCFLAGS ?= -std=c99 -O2 -Wall -Wextra -pedantic -Wconversion\n";
  mk << "MODEFLAGS = " << emit_mode_flags(o_.mode) << "\n\n";
  mk << "all: " << P << "_main\n\n";
  const std::string objs = P + ".o main.o" + (file ? " " + P + "_weights.o" : "");
  mk << P << "_main: " << objs << "\n\t$(CC) $(CFLAGS) -o $@ " << objs << " -lm\n\n";
  mk << "%.o: %.c " << P << ".h\n\t$(CC) $(CFLAGS) $(MODEFLAGS) -c -o $@ $<\n\n";
  mk << "clean:\n\trm -f *.o " << P << "_main\n\n.PHONY: all clean\n";
  return mk.str();
}

std::string Generator::build_files_cmake() const {
  const std::string P = o_.name;
  std::ostringstream cm;
  cm << "# Generated by sonnx emit-c: the library " << P << " and the test driver " << P << "_main.\n";
  cm << "cmake_minimum_required(VERSION 3.13)\nproject(" << P
     << " C)\nset(CMAKE_C_STANDARD 99)\nset(CMAKE_C_STANDARD_REQUIRED ON)\n";
  cm << "add_library(" << P << " STATIC " << P << ".c" << (o_.weights == WeightsMode::File ? " " + P + "_weights.c" : "")
     << ")\n";
  cm << "target_include_directories(" << P << " PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n";
  cm << "target_compile_options(" << P << " PRIVATE -Wall -Wextra -pedantic -Wconversion"
     << " " << emit_mode_flags(o_.mode) << ")\n";
  cm << "target_link_libraries(" << P << " PUBLIC m)\n";
  cm << "add_executable(" << P << "_main main.c)\ntarget_link_libraries(" << P << "_main PRIVATE " << P << ")\n";
  return cm.str();
}

EmitResult Generator::run() {
  admit::ChangeLog log;
  const size_t before = m_.graph.nodes.size();
  admit::fold_constants(m_, log);
  folded_ = before - m_.graph.nodes.size();
  collect_types();
  schedule();
  emit_nodes();
  plan();
  EmitResult r;
  const std::string P = o_.name;
  const std::string src = source();
  r.files.push_back({P + ".h", header()});
  r.files.push_back({P + ".c", src});
  if (o_.weights == WeightsMode::File) {
    r.files.push_back({P + "_weights.c", weights_loader_source(P)});
    r.files.push_back({P + ".weights", weights_file()});
  }
  r.files.push_back({"main.c", driver_source(P, inputs_, outputs_, o_.weights == WeightsMode::File)});
  r.files.push_back({"Makefile", build_files_makefile()});
  r.files.push_back({"CMakeLists.txt", build_files_cmake()});
  r.arena_bytes = arena_bytes_;
  r.weights_bytes = weights_bytes_;
  r.functions = order_.size();
  r.folded = folded_;
  return r;
}

}  // namespace

bool is_c_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])) || emit_c_keywords().count(s)) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

EmitResult emit_model(const Model& model, const EmitOptions& options) {
  if (!is_c_identifier(options.name)) throw EmitRefused("--name '" + options.name + "' is not a C identifier");
  return Generator(model, options).run();
}

}  // namespace sonnx::emit
