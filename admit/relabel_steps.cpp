// The relabel adapters: one per version step spec/upgrade-steps.md classifies as a type widening
// (the list is generated with it, admit/relabel_steps.inc).
#include "upgrade.h"

namespace sonnx {

#define SONNX_RELABEL_STEP(op, from, to) SONNX_UPGRADE("", op, from, to, nullptr);
#include "relabel_steps.inc"
#undef SONNX_RELABEL_STEP

}  // namespace sonnx
