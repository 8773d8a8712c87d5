#include "enclosure_judge.h"

#include <cmath>
#include <limits>
#include <sstream>

#include "sonnx/errors.h"

namespace sonnx {

void EnclosureCheck::merge(const EnclosureCheck& o) {
  if (ok && !o.ok) message = o.message;
  ok = ok && o.ok;
  ulps_outside = std::max(ulps_outside, o.ulps_outside);
  width_ulps = std::max(width_ulps, o.width_ulps);
  real_width_ulps = std::max(real_width_ulps, o.real_width_ulps);
  outside += o.outside;
  undefined = std::max(undefined, o.undefined);
}

namespace {

// A sequence's (or an optional's) figures from those of its tensors: outside and undefined elements
// add up, the widths and the distance outside are the largest; the message is the first failure's,
// naming where it is (`where`).
void judge_add_part(EnclosureCheck& r, const EnclosureCheck& part, const std::string& where) {
  if (r.ok && !part.ok) r.message = where + ": " + part.message;
  r.ok = r.ok && part.ok;
  r.ulps_outside = std::max(r.ulps_outside, part.ulps_outside);
  r.width_ulps = std::max(r.width_ulps, part.width_ulps);
  r.outside += part.outside;
  r.undefined += part.undefined;
}

}  // namespace

EnclosureCheck judge_by_enclosure(const std::string& output, const Value& actual, const enclose::Bounds& bounds) {
  EnclosureCheck r;
  r.output = output;
  auto fail = [&](const std::string& why) {  // not a value of the enclosure at all: infinitely far outside
    r.ok = false;
    r.message = why;
    r.ulps_outside = std::numeric_limits<double>::infinity();
    return r;
  };
  if (bounds.kind == enclose::Bounds::Kind::Sequence) {  // element by element
    if (!actual.is_sequence()) return fail("expected a sequence");
    if (actual.sequence.size() != bounds.elements.size())
      return fail("a sequence of " + std::to_string(actual.sequence.size()) + " elements, enclosure of " +
                  std::to_string(bounds.elements.size()));
    for (size_t e = 0; e < bounds.elements.size(); ++e)
      judge_add_part(r, judge_by_enclosure(output, actual.sequence[e], bounds.elements[e]),
                     "sequence element " + std::to_string(e));
    return r;
  }
  if (bounds.kind == enclose::Bounds::Kind::Optional) {
    if (!actual.is_optional()) return fail("expected an optional");
    if (bounds.elements.empty() != !actual.optional)
      return fail(bounds.elements.empty() ? "an optional holding a value, enclosure of an empty one"
                                          : "an empty optional, enclosure of one holding a value");
    if (!bounds.elements.empty())
      judge_add_part(r, judge_by_enclosure(output, *actual.optional, bounds.elements[0]), "the optional's value");
    return r;
  }
  if (!actual.is_tensor()) return fail("expected a tensor");
  const Tensor& a = actual.tensor;
  if (a.dtype() != bounds.type)
    return fail(std::string("element type ") + std::string(dtype_name(a.dtype())) + ", enclosure of " +
                std::string(dtype_name(bounds.type)));
  if (a.shape() != bounds.lo.shape())
    return fail("shape " + shape_str(a.shape()) + ", enclosure of shape " + shape_str(bounds.lo.shape()));
  if (bounds.exact()) {
    if (!(a == bounds.lo)) return fail("differs from the value the enclosure determines");
    return r;
  }
  r.width_ulps = enclose::widest_in_ulps(bounds);
  const double* lo = bounds.lo.data<double>();
  const double* hi = bounds.hi.data<double>();
  for (int64_t i = 0; i < a.size(); ++i) {
    r.undefined += std::isnan(lo[i]) || std::isnan(hi[i]);
    double x = a.as_double(i);
    double d = enclose::ulps_outside(x, bounds, i);
    if (d == 0) continue;
    if (r.outside++ == 0) {
      std::ostringstream m;
      m.precision(9);
      m << "element " << i << " = " << x << " lies " << d << " ulps outside its enclosure [" << lo[i] << ", " << hi[i] << "]";
      r.ok = false;
      r.message = m.str();
    }
    r.ulps_outside = std::max(r.ulps_outside, d);
  }
  return r;
}

std::optional<OutputEnclosures> enclose_outputs(const Model& model, const NamedValues& inputs, std::string& why) {
  try {
    return OutputEnclosures{enclose::enclose_model(model, inputs, enclose::Semantics::Admissible),
                            enclose::enclose_model(model, inputs, enclose::Semantics::Real)};
  } catch (const Unsupported& e) {
    why = e.what();
  } catch (const Undetermined& e) {
    why = e.what();
  } catch (const Trap& e) {
    why = std::string("enclosure: trap: ") + e.what();
  }
  return std::nullopt;
}

EnclosureCheck judge_output(const std::string& output, const Value& actual, const OutputEnclosures& e) {
  auto b = e.admissible.find(output);
  if (b == e.admissible.end()) throw Trap("output '" + output + "' has no enclosure");
  EnclosureCheck c = judge_by_enclosure(output, actual, b->second);
  c.real_width_ulps = enclose::widest_in_ulps(e.real.at(output));
  return c;
}

std::optional<TestEnclosures> TestEnclosures::of(const Model& model, const std::vector<DataSet>& data_sets, std::string& why) {
  TestEnclosures t;
  for (const DataSet& ds : data_sets) {
    std::optional<OutputEnclosures> e = enclose_outputs(model, ds.inputs, why);
    if (!e) return std::nullopt;
    t.sets_.push_back(std::move(*e));
  }
  return t;
}

EnclosureCheck TestEnclosures::judge(size_t d, const std::string& output, const Value& actual) {
  EnclosureCheck e = judge_output(output, actual, sets_.at(d));
  auto [slot, fresh] = by_output_.emplace(output, e);
  if (!fresh) slot->second.merge(e);
  return e;
}

std::vector<EnclosureCheck> TestEnclosures::checks() const {
  std::vector<EnclosureCheck> out;
  for (const auto& [name, e] : by_output_) out.push_back(e);
  return out;
}

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }
double number_or_inf(const nlohmann::json& j) { return j.is_null() ? std::numeric_limits<double>::infinity() : j.get<double>(); }

nlohmann::json enclosure_json(const std::vector<EnclosureCheck>& checks) {
  nlohmann::json outs = nlohmann::json::array();
  for (const auto& e : checks)
    outs.push_back({{"output", e.output},
                    {"ulps_outside", number_or_null(e.ulps_outside)},
                    {"width_ulps", number_or_null(e.width_ulps)},
                    {"real_width_ulps", number_or_null(e.real_width_ulps)},
                    {"outside", e.outside},
                    {"undefined", e.undefined}});
  return outs;
}

std::vector<EnclosureCheck> enclosure_from_json(const nlohmann::json& j) {
  std::vector<EnclosureCheck> out;
  for (const auto& e : j) {
    EnclosureCheck c;
    c.output = e.at("output");
    c.ulps_outside = number_or_inf(e.at("ulps_outside"));
    c.width_ulps = number_or_inf(e.at("width_ulps"));
    c.real_width_ulps = number_or_inf(e.at("real_width_ulps"));
    c.outside = e.at("outside");
    c.undefined = e.value("undefined", int64_t{0});
    c.ok = c.outside == 0;
    out.push_back(c);
  }
  return out;
}

}  // namespace sonnx
