// The typed parameters of an operator version: its attributes read, defaulted and checked by one
// function into one struct (e.g. GemmParams in reference/ops/params/gemm.h). The reference kernel, the
// shape rule, the fast-kernel factory and the enclosure all read that struct, so a default or a
// range check cannot differ between them. A parameter struct P has
//   static P read(const AttrReader& reader, int64_t version);
// which fail()s through the reader on an attribute the operator cannot take: the reference traps,
// type inference reports an inference error, a fast-kernel factory declines the node.
// SONNX_PARAMS registers it in the operator versions' records, so `sonnx ops --without params`
// lists the versions whose attributes are still read where they are used.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include "op_record.h"
#include "reference/model/attr_reader.h"
#include "sonnx/errors.h"

namespace sonnx {

// The parameter slot of an operator version's record.
struct ParamsSlot {
  const char* type_name;                                     // "GemmParams"
  void (*check)(const AttrReader& reader, int64_t version);  // reads them and drops the result
};

template <class P>
struct ParamsRegistrar {
  ParamsSlot slot;
  ParamsRegistrar(const char* domain, const char* op, std::initializer_list<int64_t> versions, const char* type_name)
      : slot{type_name, [](const AttrReader& r, int64_t v) { (void)P::read(r, v); }} {
    OpRecords::instance().fill(domain, op, versions, &OpRecord::params, &slot, "parameter struct");
  }
};

// What `read` (a function of an AttrReader, e.g. support::window_attrs) returns for a node's
// attributes, or nullopt where the operator cannot take them: for code that declines such a node
// instead of reporting it (fast-kernel factories, fusions); the reference reports it.
template <class Read>
auto try_read(const Node& node, Read read) -> std::optional<decltype(read(std::declval<const AttrReader&>()))> {
  struct Reader final : AttrReader {
    using AttrReader::AttrReader;
    [[noreturn]] void fail(const std::string& message) const override { throw Trap(message); }
  } reader(node);
  try {
    return read(static_cast<const AttrReader&>(reader));
  } catch (const Trap&) {
    return std::nullopt;
  }
}

// A node's parameters P at operator version `version`, or nullopt (as try_read).
template <class P>
std::optional<P> try_params(const Node& node, int64_t version) {
  return try_read(node, [version](const AttrReader& r) { return P::read(r, version); });
}

// SONNX_PARAMS("", "Gemm", (1, 6, 7, 9, 11, 13), GemmParams)
#define SONNX_PARAMS(domain, op, versions, P) \
  static const ::sonnx::ParamsRegistrar<P> SONNX_CONCAT(sonnx_params_, __COUNTER__)(domain, op, {SONNX_EXPAND versions}, #P)

}  // namespace sonnx
