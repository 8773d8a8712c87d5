#include "mod.h"

namespace sonnx {

ModParams ModParams::read(const AttrReader& r, int64_t /*version*/) {
  int64_t fmod = r.attr_int("fmod", 0);
  if (fmod != 0 && fmod != 1) r.fail("attribute fmod must be 0 or 1");
  return {fmod == 1};
}

}  // namespace sonnx
