#include "recurrent.h"

#include <string>

namespace sonnx {

RecurrentParams RecurrentParams::read(const AttrReader& r, int64_t version) {
  const std::string& op = r.node().op_type;
  RecurrentParams p;
  std::string direction = r.attr_string("direction", "forward");
  if (direction == "reverse") p.reverse = true;
  else if (direction == "bidirectional") p.num_directions = 2;
  else if (direction != "forward" && !(direction == "foward" && version == 1))  // version 1's misspelt default
    r.fail("direction must be forward, reverse or bidirectional, not '" + direction + "'");
  if (version >= 14) p.layout = r.attr_int("layout", 0);
  if (p.layout != 0 && p.layout != 1) r.fail("layout must be 0 or 1");
  if (r.has_attr("hidden_size")) p.hidden_size = r.attr_int("hidden_size", 0);
  if (r.has_attr("clip")) {
    p.clip = r.attr_float("clip", 0);
    if (!(*p.clip >= 0)) r.fail("clip must be a non-negative number");
  }
  if (op == "GRU" && version >= 3) p.linear_before_reset = r.attr_int("linear_before_reset", 0) != 0;
  if (op == "LSTM") p.input_forget = r.attr_int("input_forget", 0) != 0;
  return p;
}

}  // namespace sonnx
