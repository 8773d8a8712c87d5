// One record per operator version: for each (domain, operator, version), everything sonnx has for
// it. Each part is registered beside its own code, in the layer that owns it:
//   - the reference kernel and its accuracy class: SONNX_KERNEL (registry.h), in reference/ops/<Op>.cpp;
//   - the typed parameters every layer reads: SONNX_PARAMS (op_params.h), declared in
//     reference/ops/<Op>.h and read in <Op>.cpp;
//   - the shape rule: SONNX_SHAPE_RULE (reference/infer/shape_rule.h), in the same file;
//   - the fast kernel: SONNX_FAST_KERNEL (optimized/kernels/fast_kernel.h), beside the fast kernel;
//   - the enclosure: SONNX_ENCLOSURE (enclose/enclose_ops.h), beside the enclosure;
//   - the version upgrade adapter (admission into the profile): SONNX_UPGRADE (admit/upgrade.h);
//   - the C emitter: a slot for the layer that will fill it.
// The reference holds the other layers' slots as pointers to types it never sees, so it depends on
// none of them. `sonnx ops` lists, per version, which slots are filled.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sonnx/value.h"

namespace sonnx {

class OpContext;
class InferContext;
struct ParamsSlot;      // op_params.h
struct FastKernelSlot;  // optimized/kernels/fast_kernel.h
struct EnclosureSlot;   // enclose/enclose_ops.h
struct UpgradeSlot;     // admit/upgrade.h
struct EmitCSlot;       // the C emitter of `sonnx emit-c`

// How results of an operator are compared (docs/design.md §2.8).
enum class Accuracy {
  Exact,     // bitwise: integer, logic, data movement
  Rounding,  // floating point: compared within tolerance
  Random,    // sampled: compared by shape, type and statistics
};
const char* accuracy_name(Accuracy a);

using KernelFn = std::vector<Value> (*)(OpContext&);
using ShapeRuleFn = void (*)(InferContext&);

struct KernelEntry {
  std::string domain;  // "" = ai.onnx
  std::string op_type;
  int64_t since_version;  // first operator version this kernel implements (see OpRecords::kernel)
  KernelFn fn;
  Accuracy accuracy;
};

struct OpRecord {
  std::string domain;  // "" = ai.onnx
  std::string op_type;
  int64_t version = 0;                // the schema's since_version
  std::optional<KernelEntry> kernel;  // registered at exactly this version (it may serve later ones)
  ShapeRuleFn shape_rule = nullptr;
  const ParamsSlot* params = nullptr;
  const FastKernelSlot* fast_kernel = nullptr;
  const EnclosureSlot* enclosure = nullptr;
  const UpgradeSlot* upgrade = nullptr;
  const EmitCSlot* emit_c = nullptr;
};

inline constexpr int64_t kLegacyOpset = 17;

class OpRecords {
 public:
  using Key = std::tuple<std::string, std::string, int64_t>;
  // Orders keys and (domain, operator, version) tuples of string_views alike, so a lookup makes no
  // strings.
  struct KeyLess {
    using is_transparent = void;
    template <class A, class B>
    bool operator()(const A& a, const B& b) const {
      std::string_view ad = std::get<0>(a), bd = std::get<0>(b), ao = std::get<1>(a), bo = std::get<1>(b);
      if (ad != bd) return ad < bd;
      if (ao != bo) return ao < bo;
      return std::get<2>(a) < std::get<2>(b);
    }
  };
  using Table = std::map<Key, OpRecord, KeyLess>;

  static OpRecords& instance();

  // Registration, from static initializers. A slot registered twice for one version is kept as an
  // error (registration_errors(), checked by a unit test) rather than thrown before main.
  void add_kernel(KernelEntry e);
  void add_shape_rule(std::string_view domain, std::string_view op, std::initializer_list<int64_t> versions, ShapeRuleFn fn);
  template <class Slot>
  void fill(std::string_view domain, std::string_view op, std::initializer_list<int64_t> versions, const Slot* OpRecord::*slot,
            const Slot* value, const char* what) {
    for (int64_t v : versions) {
      OpRecord& r = record(domain, op, v);
      if (r.*slot) duplicate(r, what);
      r.*slot = value;
    }
  }

  // The record of exactly this version (domain "ai.onnx" is the same as ""), or null.
  const OpRecord* find(std::string_view domain, std::string_view op_type, int64_t version) const;
  // The reference kernel that implements an operator version, or null. A kernel registered at
  // version s <= kLegacyOpset implements s and every later version up to kLegacyOpset until the
  // next registration: those kernels were written against onnx 1.12's schemas, which end at opset
  // 17. From opset 18 on a kernel implements exactly the version it is registered at, so a new
  // operator version never runs under an older version's semantics. The domains other than ai.onnx
  // (ai.onnx.ml, the preview ones) only ever have exact versions.
  const KernelEntry* kernel(std::string_view domain, std::string_view op_type, int64_t version) const;
  ShapeRuleFn shape_rule(std::string_view domain, std::string_view op_type, int64_t version) const;

  const Table& all() const { return table_; }
  const std::vector<std::string>& registration_errors() const { return errors_; }

 private:
  OpRecord& record(std::string_view domain, std::string_view op, int64_t version);
  void duplicate(const OpRecord& r, const char* what);
  Table table_;
  std::vector<std::string> errors_;
};

}  // namespace sonnx

// For the registration macros: a unique name per use, and a parenthesized version list unwrapped.
#define SONNX_CONCAT_INNER(a, b) a##b
#define SONNX_CONCAT(a, b) SONNX_CONCAT_INNER(a, b)
#define SONNX_EXPAND(...) __VA_ARGS__
