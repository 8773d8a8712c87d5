// A name for a value or node a rewrite adds: `base`, else base_1, base_2, ..., the first not in
// `taken`; it is added to `taken`.
#pragma once
#include <set>
#include <string>

namespace sonnx::admit {

inline std::string unique_name(std::set<std::string>& taken, const std::string& base) {
  std::string name = base;
  for (int k = 1; taken.count(name); ++k) name = base + "_" + std::to_string(k);
  taken.insert(name);
  return name;
}

}  // namespace sonnx::admit
