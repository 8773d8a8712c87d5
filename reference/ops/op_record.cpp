#include "op_record.h"

namespace sonnx {

namespace {
std::string_view canonical(std::string_view domain) { return domain == "ai.onnx" ? std::string_view() : domain; }
}  // namespace

const char* accuracy_name(Accuracy a) {
  switch (a) {
    case Accuracy::Exact: return "exact";
    case Accuracy::Rounding: return "rounding";
    case Accuracy::Random: return "random";
  }
  return "?";
}

OpRecords& OpRecords::instance() {
  static OpRecords records;
  return records;
}

OpRecord& OpRecords::record(std::string_view domain, std::string_view op, int64_t version) {
  domain = canonical(domain);
  auto it = table_.find(std::tuple(domain, op, version));
  if (it != table_.end()) return it->second;
  Key key(std::string(domain), std::string(op), version);
  OpRecord r;
  r.domain = domain;
  r.op_type = op;
  r.version = version;
  return table_.emplace(std::move(key), std::move(r)).first->second;
}

void OpRecords::duplicate(const OpRecord& r, const char* what) {
  errors_.push_back((r.domain.empty() ? "" : r.domain + ".") + r.op_type + "-" + std::to_string(r.version) + ": a second " +
                    what);
}

void OpRecords::add_kernel(KernelEntry e) {
  e.domain = canonical(e.domain);
  OpRecord& r = record(e.domain, e.op_type, e.since_version);
  if (r.kernel) duplicate(r, "kernel");
  r.kernel = std::move(e);
}

void OpRecords::add_shape_rule(std::string_view domain, std::string_view op, std::initializer_list<int64_t> versions,
                               ShapeRuleFn fn) {
  for (int64_t v : versions) {
    OpRecord& r = record(domain, op, v);
    if (r.shape_rule) duplicate(r, "shape rule");
    r.shape_rule = fn;
  }
}

const OpRecord* OpRecords::find(std::string_view domain, std::string_view op_type, int64_t version) const {
  auto it = table_.find(std::tuple(canonical(domain), op_type, version));
  return it == table_.end() ? nullptr : &it->second;
}

const KernelEntry* OpRecords::kernel(std::string_view domain, std::string_view op_type, int64_t version) const {
  const std::string_view d = canonical(domain);
  // The newest record of this operator at or before `version` that has a kernel.
  const KernelEntry* best = nullptr;
  for (auto it = table_.upper_bound(std::tuple(d, op_type, version)); it != table_.begin();) {
    --it;
    const OpRecord& r = it->second;
    if (r.domain != d || r.op_type != op_type) break;
    if (r.kernel) {
      best = &*r.kernel;
      break;
    }
  }
  // The legacy rule is for ai.onnx's kernels only: those of other domains were never written
  // against onnx 1.12's schemas.
  if (best && best->since_version != version && (version > kLegacyOpset || !d.empty())) return nullptr;
  return best;
}

ShapeRuleFn OpRecords::shape_rule(std::string_view domain, std::string_view op_type, int64_t version) const {
  const OpRecord* r = find(domain, op_type, version);
  return r ? r->shape_rule : nullptr;
}

}  // namespace sonnx
