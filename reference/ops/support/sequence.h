// Sequence values (SequenceAt, SequenceInsert, ConcatFromSequence, SplitToSequence, ...): the
// element type of a sequence and sequence inputs. Moving blocks of elements is in indexing.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "indexing.h"

namespace sonnx::support {

// The element type of a sequence value: its declared element type, else the type of its first
// element; Undefined when neither is known.
inline DType sequence_elem_type(const Value& seq) {
  if (seq.sequence_elem != DType::Undefined) return seq.sequence_elem;
  if (!seq.sequence.empty() && seq.sequence[0].is_tensor()) return seq.sequence[0].tensor.dtype();
  return DType::Undefined;
}

// The input i as a sequence (traps otherwise).
inline const Value& sequence_input(const OpContext& ctx, size_t i) {
  const Value& v = ctx.value(i);
  if (!v.is_sequence()) ctx.fail("input " + std::to_string(i) + " must be a sequence");
  return v;
}

}  // namespace sonnx::support
